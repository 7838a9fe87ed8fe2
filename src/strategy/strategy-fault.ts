import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StrategyError } from '../core/errors.ts';

/** The runner's own file (.ts in a checkout, .js compiled): frames from there down are the framework calling the strategy. */
const RUNNER_FILE = fileURLToPath(new URL(`./strategy-runner${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/**
 * A strategy that threw (or returned something that is not an intent). The message names the
 * strategy, the hook and the cause; `stack` is the message and the frames of the strategy's own
 * code (the framework's frames below the hook are cut off), so a log line or a terminal shows the
 * file:line that threw. `stopped`: the strategy was stopped (FAULTED); false when it runs on
 * (a backtest that keeps going).
 */
export class StrategyFault extends StrategyError {
  /** The frames of the strategy's code, one `at ...` line each; empty when the cause had none. */
  readonly frames: readonly string[];

  constructor(
    readonly strategyId: string,
    readonly hook: string,
    cause: unknown,
    readonly stopped: boolean,
  ) {
    super(`strategy '${strategyId}' faulted in ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.frames = userFrames(cause);
    const tail =
      this.frames.length > 0
        ? this.frames
        : [cause instanceof Error ? "    (no frame of the strategy's own code in the stack)" : `    (no stack: the strategy threw ${describeValue(cause)}, not an Error)`];
    this.stack = [this.message, ...tail].join('\n');
  }
}

/** The `at ...` lines of an error's stack above the first frame of the strategy runner. */
function userFrames(cause: unknown): string[] {
  if (!(cause instanceof Error) || typeof cause.stack !== 'string') return [];
  const frames: string[] = [];
  for (const line of cause.stack.split('\n')) {
    if (!/^\s+at /.test(line)) continue;
    if (line.includes(RUNNER_FILE)) break;
    frames.push(readableFrame(line));
  }
  return frames;
}

/**
 * A frame of a module tsx compiled in memory (a `.ts` strategy outside an ES module package is
 * imported as CommonJS from a `data:` URL): the URL is the whole compiled source and its line and
 * column are the compiled code's, so the frame names the file instead.
 */
function readableFrame(line: string): string {
  const m = /data:text\/javascript,.*[?&]filePath=([^:&)\s]+)(?::\d+:\d+)?/.exec(line);
  if (!m) return line;
  let file: string;
  try {
    file = decodeURIComponent(m[1]!).replace(/\?.*$/, '');
  } catch {
    return line;
  }
  return line.replace(m[0], `${file}, compiled: no line number (a package.json with "type": "module" gives file:line)`);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return typeof value === 'string' ? `the string '${value.slice(0, 60)}'` : `a ${typeof value}`;
}
