/**
 * Where a benchmark finds the repository and its child scripts, whether it runs from its
 * TypeScript source (`npm run bench`, through tsx) or compiled (`npm run bench:dist`, from
 * dist-bench/ against dist/). A child script is named relative to the calling module, without
 * its extension: the caller's own extension says which form to run.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: the first folder above this module holding bin/clobot.mjs. */
export const REPO_ROOT = ((): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; ) {
    if (existsSync(join(dir, 'bin', 'clobot.mjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`bench: no bin/clobot.mjs above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
})();

/** True when the calling module (its import.meta.url) is compiled JavaScript. */
export function isCompiled(from: string): boolean {
  return !from.endsWith('.ts');
}

/** The extension a bench file's siblings have in the form `from` (an import.meta.url) runs in. */
export function sourceExtension(from: string): '.ts' | '.js' {
  return isCompiled(from) ? '.js' : '.ts';
}

/**
 * The node arguments that run the script `relative` (without extension) to the module `from`
 * (its import.meta.url): the compiled .js as it is, the .ts through bin/run-ts.mjs (tsx).
 */
export function childScript(relative: string, from: string): string[] {
  const file = fileURLToPath(new URL(relative + sourceExtension(from), from));
  return isCompiled(from) ? [file] : [join(REPO_ROOT, 'bin', 'run-ts.mjs'), file];
}
