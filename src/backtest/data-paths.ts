import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { ConfigError, fileErrorReason } from '../core/errors.ts';

/**
 * The files `--data` names: each argument a file or a glob (`'rec/2026-11-*.jsonl.gz'`, quoted so
 * the shell leaves it to us; `*`, `?`, `[…]`, `{a,b}` and `**`), a glob's matches in name order.
 * Returns absolute paths, each once (a file named twice, or by a glob and by name, is read once),
 * in the order given. A name that is neither a file nor a pattern matching one is an error
 * naming it; a directory is refused (name its files, or a glob over them).
 */
export function expandDataPaths(specs: readonly string[], flag = '--data'): string[] {
  if (specs.length === 0) throw new ConfigError(`${flag}: names no file`);
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (path: string): void => {
    const abs = resolve(path);
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push(abs);
  };
  for (const spec of specs) {
    // an existing file is that file, even when its name holds a glob character
    if (existsSync(spec)) {
      if (statSync(spec).isDirectory()) throw new ConfigError(`${flag}: ${spec} is a directory (name its files, or a glob such as '${spec}/*.jsonl.gz')`);
      add(spec);
      continue;
    }
    if (!isDynamicPattern(spec)) throw new ConfigError(`${flag}: ${spec}: cannot read data file (${fileErrorReason({ code: 'ENOENT' })})`);
    const matches = globSync(spec, { onlyFiles: true, absolute: true, expandDirectories: false }).sort();
    if (matches.length === 0) throw new ConfigError(`${flag}: '${spec}' matches no file`);
    for (const m of matches) add(m);
  }
  return out;
}
