// `clobot backtest` runs itself again in a node with a smaller young generation.
//
// A replay makes garbage at a steady rate (a book, its levels and the engine's work on it per
// event), so its resident memory is mostly what the young generation holds between scavenges plus
// what they promote before a full GC: with V8's default semi-space (16 MB here), a 1 GB replay
// peaked at 191-238 MB, with `--max-semi-space-size=4` at 157-178 MB (bench/backtest-memory.bench.ts).
// V8 sizes the young generation when the heap is made: `v8.setFlagsFromString` at the top of this
// script changes nothing (measured: new space stays 32 MB), so the flag must be on node's command
// line. A flag the user gives (node's arguments or NODE_OPTIONS) is kept and nothing is re-run.
import { spawn } from 'node:child_process';

/** The backtest's semi-space, MB. */
export const BACKTEST_SEMI_SPACE_MB = 4;

const SEMI_SPACE_FLAG = /(^|\s)--max[-_]semi[-_]space[-_]size\b/;

/**
 * The node flags `clobot <argv>` should run with, when they differ from this process's:
 * `--max-semi-space-size` for `backtest`, unless the user set it. Undefined: run here.
 */
export function relaunchFlags(argv = process.argv, execArgv = process.execArgv, env = process.env) {
  if (argv[2] !== 'backtest') return undefined;
  if (execArgv.some((arg) => SEMI_SPACE_FLAG.test(arg)) || SEMI_SPACE_FLAG.test(env.NODE_OPTIONS ?? '')) return undefined;
  return [`--max-semi-space-size=${BACKTEST_SEMI_SPACE_MB}`];
}

/**
 * Runs this script again with `flags` before node's own arguments, its stdio shared, and ends
 * this process as the child ends (its exit code, or the signal that ended it). Signals sent to
 * this process (a test's or a supervisor's SIGINT or SIGTERM) are passed on; Ctrl-C in a terminal
 * reaches both processes (one process group), and the backtest takes a repeated SIGINT as one.
 */
export function relaunch(flags) {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], { stdio: 'inherit' });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => {
    // on Windows the console sends Ctrl-C to both processes, and kill() would end the child at once
    if (process.platform === 'win32') return;
    try {
      child.kill(signal);
    } catch {
      // the child has just ended
    }
  };
  for (const signal of signals) process.on(signal, forward);
  child.once('error', (err) => {
    process.stderr.write(`clobot: could not start ${process.execPath}: ${err.message}\n`);
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}
