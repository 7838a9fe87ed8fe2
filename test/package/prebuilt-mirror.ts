import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A loopback mirror of better-sqlite3's prebuilt addon for the pack test's installs: this
 * repository's own build of it (node_modules/better-sqlite3/build/Release, made by `npm ci`), served
 * where prebuild-install looks when `npm_config_better_sqlite3_binary_host` names a mirror. Without
 * it every install of the packed clobot compiles SQLite with node-gyp (no prebuilt download is
 * possible offline): about 3 minutes on 2 cores instead of 30 s. Undefined when there is no build
 * to serve (then installs compile, slower but the same).
 */
export interface PrebuiltMirror {
  /** The environment that points prebuild-install at the mirror. */
  readonly env: Readonly<Record<string, string>>;
  /** Stops the server and removes what prebuild-install cached from it. */
  close(): Promise<void>;
}

export async function startPrebuiltMirror(repoRoot: string): Promise<PrebuiltMirror | undefined> {
  const pkgDir = join(repoRoot, 'node_modules', 'better-sqlite3');
  const addon = join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  // prebuild-install names musl builds apart; serve only what its name for this machine means
  const glibc = process.platform !== 'linux' || (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;
  if (!existsSync(addon) || !glibc) return undefined;
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = mkdtempSync(join(tmpdir(), 'clobot-prebuilt-'));
  const archive = join(dir, 'addon.tar.gz');
  const tar = spawnSync('tar', ['-czf', archive, '-C', pkgDir, 'build/Release/better_sqlite3.node'], { encoding: 'utf8' });
  if (tar.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const body = readFileSync(archive);
  const path = `/v${version}/better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const server: Server = createServer((req, res) => {
    if (req.url === path) res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const host = `http://127.0.0.1:${port}`;
  const url = host + path;
  // prebuild-install keeps each download in <npm cache>/_prebuilds, named by its URL's hash
  const cache = join(process.env['npm_config_cache'] ?? join(homedir(), '.npm'), '_prebuilds');
  const cached = join(cache, `${createHash('sha512').update(url).digest('hex').slice(0, 6)}-${basename(url).replace(/[^a-zA-Z0-9.]+/g, '-')}`);
  return {
    env: { npm_config_better_sqlite3_binary_host: host },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(cached, { force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
