/**
 * One base class, named subclasses. Errors are thrown, never returned as values.
 * Messages are short and name what was wrong and where; they never carry secrets.
 */
export class ClobotError extends Error {
  override readonly name: string = 'ClobotError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A request could not be completed at the network level (refused, reset, DNS, ...). */
export class TransportError extends ClobotError {
  override readonly name: string = 'TransportError';
  constructor(
    message: string,
    /** True when the request may have reached the venue (bytes were sent before the failure). */
    readonly requestSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The per-request deadline passed before a complete answer arrived. */
export class TimeoutError extends TransportError {
  override readonly name: string = 'TimeoutError';
  constructor(message: string, readonly timeoutMs: number, requestSent: boolean) {
    super(message, requestSent);
  }
}

/** The venue answered 429 (or our own budget refused to wait that long). */
export class RateLimitError extends ClobotError {
  override readonly name: string = 'RateLimitError';
  constructor(message: string, readonly retryAfterMs: number | undefined, readonly route: string) {
    super(message);
  }
}

/** The venue answered with a non-2xx status other than 429. */
export class VenueRejectError extends ClobotError {
  override readonly name: string = 'VenueRejectError';
  constructor(
    message: string,
    readonly status: number,
    readonly route: string,
    /** The venue's `error` string when the body was JSON, else a short excerpt of the body. */
    readonly venueMessage: string,
    /** Parsed JSON body when there was one (e.g. the expected heartbeat id on a 400). */
    readonly body: unknown,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Missing or refused credentials (our side or a 401 from the venue). */
export class AuthError extends ClobotError {
  override readonly name: string = 'AuthError';
}

/** A wire payload did not have the shape we expect; `path` names the field. */
export class DecodeError extends ClobotError {
  override readonly name: string = 'DecodeError';
  constructor(readonly path: string, readonly expected: string, readonly actual: unknown) {
    super(`${path}: expected ${expected}, got ${describe(actual)}`);
  }
}

/** A request parameter broke a rule of the interface; no request was sent. */
export class ParameterError extends ClobotError {
  override readonly name: string = 'ParameterError';
  constructor(readonly route: string, readonly param: string, readonly rule: string) {
    super(`${route}: parameter '${param}' ${rule}`);
  }
}

/** A configuration file or value is invalid; the message names the key path and file:line. */
export class ConfigError extends ClobotError {
  override readonly name: string = 'ConfigError';
}

/** A strategy threw or broke the strategy API contract. */
export class StrategyError extends ClobotError {
  override readonly name: string = 'StrategyError';
}

/**
 * Why a run store could not be opened or written. LOCKED: another process holds it (its lock
 * row, or SQLite's own lock: SQLITE_BUSY); READ_ONLY: the file or its folder cannot be written
 * (SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM); DISK_FULL: a new store could not be created
 * for want of space (SQLITE_FULL; the partial file removed); OTHER_VENUE: a live store with orders
 * or fills of its own given to a run on the embedded sandbox, which starts empty each time.
 */
export type StoreErrorCode = 'NOT_FOUND' | 'NOT_A_STORE' | 'CORRUPT' | 'NEWER_FORMAT' | 'LOCKED' | 'READ_ONLY' | 'INVALID' | 'WRITE_FAILED' | 'OTHER_ACCOUNT' | 'OTHER_VENUE' | 'DISK_FULL';

/**
 * A run store (SQLite state file) problem; the message names the file. Never followed by a
 * silent reset: a store that cannot be read as ours is left exactly as it was.
 */
export class StoreError extends ClobotError {
  override readonly name: string = 'StoreError';
  constructor(
    message: string,
    readonly code: StoreErrorCode,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * An order post whose outcome is unknown: the bytes may have reached the venue but no answer
 * arrived. Carries the precomputed order hashes to reconcile by; never re-send blindly.
 */
export class OutcomeUnknownError extends ClobotError {
  override readonly name: string = 'OutcomeUnknownError';
  constructor(message: string, readonly orderHashes: readonly string[], options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Exit codes of a run beyond 0 (ok), 1 (runtime failure) and 2 (bad input, refused credentials):
 * 3, the stop could not verify that none of our orders is live at the venue (they are listed);
 * 4, the run failed closed on a fault in our own process (store, log sink, unexpected exception)
 * after a verified stop. Orders left live win over a fault: the operator must act on them first.
 */
export const EXIT_ORDERS_LIVE = 3;
export const EXIT_FAIL_CLOSED = 4;

/** A run that ended without the safety it promises; `exitCode` is one of the codes above. */
export class RunEndError extends ClobotError {
  override readonly name: string = 'RunEndError';
  constructor(message: string, readonly exitCode: number, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Reads may be retried after these; writes never are. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof RateLimitError) return true;
  if (err instanceof TransportError) return true;
  if (err instanceof VenueRejectError) return err.status >= 500 || err.status === 408;
  return false;
}

/**
 * True when a write may or may not have taken effect at the venue: the bytes left but no
 * answer came, or the venue answered with a fault (5xx other than 503, which means "paused,
 * not taken"). Meaningful for writes only.
 */
export function isOutcomeUnknown(err: unknown): boolean {
  if (err instanceof OutcomeUnknownError) return true;
  if (err instanceof TransportError) return err.requestSent;
  if (err instanceof VenueRejectError) return err.status >= 500 && err.status !== 503;
  return false;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  if (typeof value === 'symbol') return `symbol ${value.toString()}`;
  return typeof value; // a function: its source text would say nothing about the field
}

/** What a file system error's code means, for messages a newcomer reads. */
const FILE_ERROR_MEANINGS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * Why a file could not be read, in words and with the system's code (`no such file: ENOENT`), or
 * the code alone when it has no words here, or `unreadable` when the error has no code.
 */
export function fileErrorReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'unreadable';
  const meaning = FILE_ERROR_MEANINGS[code];
  return meaning === undefined ? code : `${meaning}: ${code}`;
}

