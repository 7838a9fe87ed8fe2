import type { Command } from 'commander';
import { registerSandbox } from './commands/sandbox.ts';
import { registerValidate } from './commands/validate.ts';

/** Every CLI command registers itself here; one file per command in `src/cli/commands/`. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  registerSandbox(program);
}
