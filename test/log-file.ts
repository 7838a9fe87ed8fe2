import { existsSync, readFileSync } from 'node:fs';

/** One JSON line of a log file. */
export type LogLine = Record<string, unknown>;

/** The JSON lines of a log file as they are now (none while it does not exist). */
export function logLines(file: string): LogLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

/**
 * The log file's lines once `seen` holds of them. The run's file logger writes without blocking
 * (sonic-boom, asynchronously), and pino's `logger.flush()` does not wait for a write in flight
 * (a multistream has no flush), so a test that read the file at once could miss its last lines on a
 * loaded machine. Looks again every few ms; the test's time limit bounds it.
 */
export async function logLinesOnceSeen(file: string, seen: (lines: LogLine[]) => boolean): Promise<LogLine[]> {
  for (;;) {
    const lines = logLines(file);
    if (seen(lines)) return lines;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
