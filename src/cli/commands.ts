import type { Command } from 'commander';

/** Every CLI command registers itself here; one file per command in `src/cli/commands/`. */
export function registerCommands(program: Command): void {
  void program;
}
