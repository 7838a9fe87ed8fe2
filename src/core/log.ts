import { existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { pino, type Logger, type DestinationStream } from 'pino';

/** Header and field names whose values never reach a log line. */
export const REDACT_PATHS = [
  '*.SERVICE_SIGNATURE',
  '*.SERVICE_PASSPHRASE',
  '*.SERVICE_API_KEY',
  '*.POLY_SIGNATURE',
  '*.POLY_PASSPHRASE',
  '*.POLY_API_KEY',
  '*.privateKey',
  '*.secret',
  '*.passphrase',
  'headers.authorization',
];

export interface LogOptions {
  readonly level: string;
  /** JSON lines to this file (its folder is created). */
  readonly file?: string;
  /** Also JSON lines to stdout. */
  readonly stdout?: boolean;
  /** Name of the process in every line. */
  readonly name?: string;
  /**
   * Also each JSON line to this function (secrets redacted as everywhere), at `level`, or at
   * `info` when `level` is `silent` (the control API's last log lines).
   */
  readonly tap?: (line: string) => void;
}

/**
 * A pino logger writing JSON lines to a file and/or stdout, with secrets redacted. A log file
 * that cannot be opened or written (a folder, a read-only or missing place) never stops the run:
 * its lines go to stderr instead, after one warning there.
 */
export function createLogger(options: LogOptions): Logger {
  const streams: { stream: DestinationStream; level: pino.Level }[] = [];
  const silent = options.level === 'silent';
  const level = (silent ? 'fatal' : options.level) as pino.Level;
  if (options.file) streams.push({ stream: new FileSink(options.file), level });
  if (options.stdout) streams.push({ stream: pino.destination({ dest: 1, sync: false }), level });
  if (options.tap) streams.push({ stream: { write: options.tap }, level: silent ? 'info' : level });
  const base = { name: options.name ?? 'clobot', level: silent && options.tap ? 'info' : options.level, redact: { paths: REDACT_PATHS, censor: '***' } };
  if (streams.length === 0 || (silent && !options.tap)) return pino({ ...base, enabled: false });
  return pino(base, pino.multistream(streams));
}

/** The `(msg, fields)` logger shape used by the engine and strategies, over pino. */
export interface FieldLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): FieldLogger;
}

export function fieldLogger(logger: Logger): FieldLogger {
  return {
    debug: (msg, fields) => logger.debug(fields ?? {}, msg),
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
    child: (bindings) => fieldLogger(logger.child(bindings)),
  };
}

/**
 * A log file with stderr behind it: opened here (synchronously, so a path that cannot be a file
 * fails at once), written without blocking; on the first error, one warning on stderr and every
 * line after it to stderr.
 */
class FileSink implements DestinationStream {
  readonly #file: string;
  #primary: ReturnType<typeof pino.destination> | undefined;
  #warned = false;

  constructor(file: string) {
    this.#file = file;
    try {
      makeFolders(dirname(file));
      const fd = openSync(file, 'a');
      const primary = pino.destination({ dest: fd, sync: false });
      primary.on('error', (err: unknown) => this.#fallBack(err));
      this.#primary = primary;
    } catch (err) {
      this.#fallBack(err);
    }
  }

  write(line: string): void {
    if (this.#primary) this.#primary.write(line);
    else process.stderr.write(line);
  }

  flush(): void {
    try {
      this.#primary?.flushSync();
    } catch (err) {
      this.#fallBack(err);
    }
  }

  #fallBack(err: unknown): void {
    const primary = this.#primary;
    this.#primary = undefined;
    if (primary) primary.destroy();
    if (this.#warned) return;
    this.#warned = true;
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(`warning: log file ${this.#file} cannot be written (${why}); logging to stderr\n`);
  }
}

/**
 * Creates a folder and its missing parents one level at a time (Node's recursive mkdir loops
 * forever under /proc, where a missing folder cannot be created and reads as absent).
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  for (let f = folder; !existsSync(f); f = dirname(f)) {
    missing.push(f);
    if (dirname(f) === f) break;
  }
  for (const f of missing.reverse()) mkdirSync(f);
}
