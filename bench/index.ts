/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line, e.g.
 * `npm run bench -- sign-orders`) one after another and prints each result as a table.
 * `npm run bench:dist` runs the same files compiled, against dist/ (bin/bench-dist.mjs).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceExtension } from './bench-paths.ts';
import { printTable, type BenchTable } from './table.ts';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
// `.bench.ts` from the sources, `.bench.js` compiled (`npm run bench:dist`)
const suffix = `.bench${sourceExtension(import.meta.url)}`;
const files = readdirSync(here)
  .filter((f) => f.endsWith(suffix))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

if (files.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const file of files) {
  const started = performance.now();
  try {
    const mod = (await import(pathToFileURL(join(here, file)).href)) as { run: () => BenchTable | BenchTable[] | Promise<BenchTable | BenchTable[]> };
    const out = await mod.run();
    for (const table of Array.isArray(out) ? out : [out]) printTable(table);
    process.stdout.write(`  (${file}: ${((performance.now() - started) / 1000).toFixed(1)} s)\n\n`);
  } catch (err) {
    failed++;
    console.error(`${file} failed: ${err instanceof Error ? err.stack : String(err)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
