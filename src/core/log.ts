import { mkdirSync } from 'node:fs';
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
}

/** A pino logger writing JSON lines to a file and/or stdout, with secrets redacted. */
export function createLogger(options: LogOptions): Logger {
  const streams: { stream: DestinationStream; level: pino.Level }[] = [];
  const level = (options.level === 'silent' ? 'fatal' : options.level) as pino.Level;
  if (options.file) {
    mkdirSync(dirname(options.file), { recursive: true });
    streams.push({ stream: pino.destination({ dest: options.file, sync: false, mkdir: true }), level });
  }
  if (options.stdout) streams.push({ stream: pino.destination({ dest: 1, sync: false }), level });
  const base = { name: options.name ?? 'clobot', level: options.level, redact: { paths: REDACT_PATHS, censor: '***' } };
  if (streams.length === 0 || options.level === 'silent') return pino({ ...base, enabled: false });
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
