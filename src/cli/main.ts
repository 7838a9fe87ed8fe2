import { Command, CommanderError } from 'commander';
import { AuthError, ClobotError, ConfigError, RunEndError, StoreError, type StoreErrorCode } from '../core/errors.ts';
import { registerCommands } from './commands.ts';
import { CommandVerdict } from './command-verdict.ts';
import { UsageError } from './usage-error.ts';
import { CLOBOT_VERSION } from '../core/version.ts';

/** Exit codes: 0 ok, 1 runtime failure, 2 bad input (flag, value, config). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function buildProgram(): Command {
  const program = new Command()
    .name('clobot')
    .description('Automated trading on a prediction-market venue: live, paper, backtest, and a local sandbox venue.')
    .version(CLOBOT_VERSION)
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

/** The exit code of a failure: 0 for help and version, 2 for bad input (flags, config, a store path), else 1. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) {
    const shown = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
    return shown ? EXIT_OK : EXIT_USAGE;
  }
  if (err instanceof CommandVerdict) return err.exitCode;
  // a bad config; a wrong path, a file that is not a (readable or writable) store, or one in use
  if (err instanceof ConfigError || err instanceof UsageError || err instanceof AuthError) return EXIT_USAGE;
  // a stop that left orders live (3), a run that failed closed (4): core/errors.ts
  if (err instanceof RunEndError) return err.exitCode;
  if (err instanceof StoreError && STORE_INPUT_ERRORS.has(err.code)) return EXIT_USAGE;
  return EXIT_FAILURE;
}

/** Writes a failure on stderr (commander has written its own; a ConfigError is one line per problem); returns the exit code. */
export function reportError(err: unknown): number {
  const code = exitCodeOf(err);
  if (err instanceof CommanderError || err instanceof CommandVerdict) return code;
  if (err instanceof ConfigError) {
    // one line per problem, each naming its key path and file:line
    for (const line of err.message.split('\n')) process.stderr.write(`${line}\n`);
  } else if (code === EXIT_USAGE) {
    process.stderr.write(`clobot: ${(err as Error).message}\n`);
  } else {
    const message = err instanceof ClobotError ? `${err.name}: ${err.message}` : err instanceof Error ? err.message : String(err);
    process.stderr.write(`clobot: ${message}\n`);
  }
  return code;
}

const STORE_INPUT_ERRORS: ReadonlySet<StoreErrorCode> = new Set(['NOT_FOUND', 'NOT_A_STORE', 'CORRUPT', 'NEWER_FORMAT', 'LOCKED', 'READ_ONLY', 'OTHER_ACCOUNT', 'OTHER_VENUE', 'DISK_FULL']);
