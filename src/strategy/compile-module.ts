import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

/**
 * Imports a TypeScript module in this thread, with no module loader: esbuild bundles it with the
 * files it imports by relative path (packages stay imports), into a hidden file beside it (so its
 * package imports, `clobot` among them, resolve from where it is, and `import.meta.url` names its
 * folder), which is imported and removed. tsx's loader, the other way, runs on a thread of its own
 * (~25-30 MB a process, bench/backtest-memory.bench.ts); a backtest loads its strategies this way.
 *
 * `tsconfig: false` ignores tsconfig.json files (the repository's maps `clobot` to src/, which a
 * run of the compiled dist/ must not load beside itself; loader.ts). Stack traces point into the
 * module's own files (an inline source map; node's source maps are turned on).
 *
 * Undefined, for the caller to load it another way, when a package import could resolve
 * differently from the hidden file than from where it is written: a file it imports lies in
 * another package (its nearest package.json is not the module's), or the hidden file cannot be
 * written (a read-only folder).
 */
export async function importCompiled(modulePath: string, options: { tsconfig: boolean }): Promise<{ default?: unknown } | undefined> {
  const { build, stop } = await import('esbuild');
  const out = join(dirname(modulePath), `.${basename(modulePath)}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.mjs`);
  let text: string;
  try {
    const result = await build({
      entryPoints: [modulePath],
      outfile: out,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      packages: 'external',
      sourcemap: 'inline',
      write: false,
      logLevel: 'silent',
      metafile: true,
      absWorkingDir: '/',
      ...(options.tsconfig ? {} : { tsconfigRaw: '{}' }),
    });
    const home = packageRoot(modulePath);
    if (Object.keys(result.metafile.inputs).some((input) => packageRoot(resolve('/', input)) !== home)) return undefined;
    text = result.outputFiles[0]!.text;
  } finally {
    // the esbuild service is a child process: not kept for the rest of the run
    await stop();
  }
  try {
    writeFileSync(out, text, { flag: 'wx' });
  } catch {
    return undefined;
  }
  process.setSourceMapsEnabled(true);
  try {
    return (await import(pathToFileURL(out).href)) as { default?: unknown };
  } finally {
    rmSync(out, { force: true });
  }
}

/** The folder of the nearest package.json above `file` ('' when none): where its package imports resolve from. */
function packageRoot(file: string): string {
  for (let dir = dirname(file); ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return '';
    dir = up;
  }
}
