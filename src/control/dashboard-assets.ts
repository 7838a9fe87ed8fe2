import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's files: the page, its script and style (src/control/dashboard/), and the chart library. */
type AssetName = 'page' | 'script' | 'style' | 'chart';

/** The paths the server answers with them (GET, no token: they hold no data). */
export const DASHBOARD_PATHS: ReadonlyMap<string, AssetName> = new Map<string, AssetName>([
  ['/', 'page'],
  ['/index.html', 'page'],
  ['/assets/dashboard.js', 'script'],
  ['/assets/dashboard.css', 'style'],
  ['/assets/lightweight-charts.js', 'chart'],
]);

const HERE = dirname(fileURLToPath(import.meta.url));
const cache = new Map<AssetName, { type: string; body: Buffer }>();

/**
 * An asset's bytes and type, read once. The chart library is lightweight-charts' standalone
 * build from node_modules (a dependency pinned in package.json), served from here: the page
 * loads nothing from anywhere else.
 */
export function dashboardAsset(name: AssetName): { readonly type: string; readonly body: Buffer } {
  let asset = cache.get(name);
  if (asset === undefined) {
    asset = read(name);
    cache.set(name, asset);
  }
  return asset;
}

function read(name: AssetName): { type: string; body: Buffer } {
  switch (name) {
    case 'page':
      return { type: 'text/html; charset=utf-8', body: readFileSync(join(HERE, 'dashboard', 'index.html')) };
    case 'script':
      return { type: 'text/javascript; charset=utf-8', body: readFileSync(join(HERE, 'dashboard', 'dashboard.js')) };
    case 'style':
      return { type: 'text/css; charset=utf-8', body: readFileSync(join(HERE, 'dashboard', 'dashboard.css')) };
    case 'chart': {
      const require = createRequire(import.meta.url);
      const dir = dirname(require.resolve('lightweight-charts/package.json'));
      return { type: 'text/javascript; charset=utf-8', body: readFileSync(join(dir, 'dist', 'lightweight-charts.standalone.production.js')) };
    }
  }
}
