// `clobot backtest` runs itself again in a node whose heap keeps less garbage.
//
// A replay makes garbage at a steady rate (a book, its levels and the engine's work on it per
// event), and with V8's defaults its resident memory is mostly that garbage: the young generation
// between scavenges (16 MB semi-spaces here) and an old generation let grow up to 4x its live size
// before a full GC. A 1 GB replay (bench/backtest-memory.bench.ts, `clobot backtest` from dist/)
// peaked at ~210 MB with `--max-semi-space-size=4` alone, at ~150 MB with
// `--heap-growing-percent=50` too (the old generation grows by half between full GCs), for about
// the same CPU; `--optimize-for-size` gave 128 MB for a third more CPU.
// V8 reads these when it makes the heap: `v8.setFlagsFromString` at the top of this script changes
// nothing (measured: new space stays 32 MB), so they must be on node's command line. A flag the
// user gives (node's arguments or NODE_OPTIONS) is kept; when every one is given, nothing is re-run.
import { spawn } from 'node:child_process';

/** The node flags of a backtest, by name. */
export const BACKTEST_NODE_FLAGS = { 'max-semi-space-size': '4', 'heap-growing-percent': '50' };

/** True when `text` (node's arguments or NODE_OPTIONS) sets the V8 flag `name` (- or _ alike). */
function sets(text, name) {
  const pattern = name.replaceAll('-', '[-_]');
  return new RegExp(`(^|\\s)--${pattern}(=|\\s|$)`).test(text);
}

/**
 * The node flags `clobot <argv>` should add to this process's, or undefined to run here: for
 * `backtest`, BACKTEST_NODE_FLAGS less those the user set.
 */
export function relaunchFlags(argv = process.argv, execArgv = process.execArgv, env = process.env) {
  if (argv[2] !== 'backtest') return undefined;
  const given = [...execArgv, env.NODE_OPTIONS ?? ''].join(' ');
  const flags = Object.entries(BACKTEST_NODE_FLAGS)
    .filter(([name]) => !sets(given, name))
    .map(([name, value]) => `--${name}=${value}`);
  return flags.length > 0 ? flags : undefined;
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
