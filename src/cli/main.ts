import { Command, CommanderError } from 'commander';
import { ClobotError, ConfigError, StoreError, type StoreErrorCode } from '../core/errors.ts';
import { registerCommands } from './commands.ts';
import { UsageError } from './usage-error.ts';

/** Exit codes: 0 ok, 1 runtime failure, 2 bad input (flag, value, config). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function buildProgram(): Command {
  const program = new Command()
    .name('clobot')
    .description('Automated trading on a prediction-market venue: live, paper, backtest, and a local sandbox venue.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text.split('\n')[0] + '\n') })
    .showHelpAfterError(false);
  registerCommands(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and returns the process exit code. Errors become one line on stderr. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return EXIT_OK;
  } catch (err) {
    return reportError(err);
  }
}

/** Writes a failure as one line (a ConfigError: one line per problem) on stderr; returns the exit code. */
export function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
      return EXIT_OK;
    }
    return EXIT_USAGE;
  }
  if (err instanceof ConfigError) {
    // one line per problem, each naming its key path and file:line; a bad config is bad input
    for (const line of err.message.split('\n')) process.stderr.write(`${line}\n`);
    return EXIT_USAGE;
  }
  if (err instanceof StoreError && STORE_INPUT_ERRORS.has(err.code)) {
    // a wrong path, a file that is not a (readable or writable) store, or one in use: bad input
    process.stderr.write(`clobot: ${err.message}\n`);
    return EXIT_USAGE;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`clobot: ${err.message}\n`);
    return EXIT_USAGE;
  }
  const message = err instanceof ClobotError ? `${err.name}: ${err.message}` : err instanceof Error ? err.message : String(err);
  process.stderr.write(`clobot: ${message}\n`);
  return EXIT_FAILURE;
}

const STORE_INPUT_ERRORS: ReadonlySet<StoreErrorCode> = new Set(['NOT_FOUND', 'NOT_A_STORE', 'CORRUPT', 'NEWER_FORMAT', 'LOCKED', 'READ_ONLY']);
