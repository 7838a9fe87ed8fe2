import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * The first line a child process writes on `stream` (its stdout unless named), once it is whole;
 * or, when the child exits first, all it wrote there (the caller's expectation then fails and
 * can show its stderr). `text` is what the caller collected from that stream so far: its own
 * 'data' listener, added at spawn, runs before this one's.
 *
 * Waits on the stream's and the child's events, with no bound of its own: loading a `clobot`
 * process takes a second on a quiet machine and several on a loaded one, so a count of polls
 * would run out on a slow start; the test's time limit bounds a hang.
 */
export function firstLine(child: ChildProcess, text: () => string, stream: Readable = child.stdout!): Promise<string> {
  return new Promise((resolve) => {
    const look = (): void => {
      if (!text().includes('\n') && child.exitCode === null && child.signalCode === null) return;
      stream.off('data', look);
      child.off('exit', look);
      resolve(text().split('\n')[0]!);
    };
    stream.on('data', look);
    child.on('exit', look);
    look();
  });
}
