import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { parsePathOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';
import { writeStrategy } from './init.ts';

/**
 * `clobot new-strategy <name>`: adds strategies/<name>.ts to a project (the current folder, or
 * `--dir`) from the same template `clobot init` uses. Refuses a name that is not kebab-case, a
 * file that exists and a folder that is not a project (no package.json).
 */
export function registerNewStrategy(program: Command): void {
  program
    .command('new-strategy')
    .description('add strategies/<name>.ts to a project from the strategy template')
    .argument('<name>', 'the strategy name, kebab-case (e.g. band-quoter)')
    .option('--dir <project>', 'the project folder (default: the current folder)', parsePathOption)
    .action((name: string, opts: { dir?: string }) => {
      const project = resolve(opts.dir ?? '.');
      if (!existsSync(join(project, 'package.json'))) {
        throw new UsageError(`new-strategy: ${project} has no package.json; run it in a project made by clobot init (or pass --dir <project>)`);
      }
      const rel = writeStrategy(project, name);
      process.stdout.write(
        `created ${rel}\nrun it: add to a config's strategies\n  - id: ${name}\n    module: ../${rel}\n`,
      );
    });
}
