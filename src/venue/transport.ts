import type { Clock } from '../core/clock.ts';
import {
  AuthError,
  ClobotError,
  RateLimitError,
  TimeoutError,
  TransportError,
  VenueRejectError,
  isRetryable,
} from '../core/errors.ts';
import { onAbort } from '../core/on-abort.ts';
import { delay } from './delay.ts';
import { ENDPOINTS, type RouteGroup, type RouteId } from './endpoints.ts';
import type { VenueLogger } from './logger.ts';
import type { RequestBudget } from './request-budget.ts';
import { parseRetryAfter } from './retry-after.ts';

/**
 * The HTTP edge of the venue client: Node's fetch (undici, keep-alive by default), one deadline
 * per attempt, retries with exponential backoff and jitter for idempotent routes only, 429 and
 * Retry-After honoured through the rate budget, and typed errors for everything else.
 *
 * A JSON body is serialised once; those exact bytes go to `beforeSend` (where L2 auth signs
 * them) and onto the wire. A write (non-idempotent route) is sent at most once: if it times out
 * or the connection drops after sending, the error has `requestSent = true`, so
 * `isOutcomeUnknown(err)` is true and the caller must reconcile rather than re-send.
 */

/**
 * Extra headers for one attempt, computed from exactly what is sent. `path` is the route's
 * filled path as the interface names it (no group prefix, no query string); `bodyText` is the
 * exact body text ('' when there is none).
 */
export type BeforeSend = (
  route: RouteId,
  method: string,
  path: string,
  bodyText: string,
) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;

export interface BackoffOptions {
  /** First retry waits about this long. Default 100. */
  readonly baseMs?: number;
  /** No single wait is longer. Default 5,000. */
  readonly maxMs?: number;
}

export interface TransportOptions {
  /** Base URL per route group, without a trailing slash. */
  readonly urls: Readonly<Record<RouteGroup, string>>;
  readonly clock: Clock;
  readonly budget: RequestBudget;
  /** Deadline of one attempt, from sending to the last byte of the answer. Default 10,000. */
  readonly timeoutMs?: number;
  /** Extra attempts for idempotent routes. Default 3. */
  readonly retries?: number;
  readonly backoff?: BackoffOptions;
  /** A Retry-After longer than this is not waited for: the error is thrown. Default 60,000. */
  readonly maxRetryAfterMs?: number;
  readonly beforeSend?: BeforeSend;
  readonly logger?: VenueLogger;
  /** Jitter source in [0, 1). Default Math.random. */
  readonly random?: () => number;
  /** Counters to add to; shared by every transport derived with `withBeforeSend`. */
  readonly counters?: TransportCounters;
}

/** What a transport has seen, for summaries (e.g. the engine's 429 count). */
export interface TransportCounters {
  /** HTTP attempts that got an answer or failed on the network. */
  attempts: number;
  /** Answers with status 429. */
  http429: number;
  /** Answers with status 401 (credentials refused). */
  http401?: number;
  /** When set: answers by route and status, keyed `route status` (`network` for a request that got none). */
  responses?: Map<string, number>;
}

export interface TransportRequest {
  readonly route: RouteId;
  /** Values of the path template's `{name}` parts. */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** Query in its string form (see `toQuery`). */
  readonly query?: Readonly<Record<string, string>>;
  /** JSON body; serialised once. */
  readonly body?: unknown;
  /** The body already serialised as JSON text (sent as is, `body` is then ignored). */
  readonly bodyText?: string;
  /** Budget cost (a batch costs `requestCost`). Default 1. */
  readonly cost?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface TransportResponse {
  readonly status: number;
  /** The answer body as text (decoders take it from here). */
  readonly text: string;
  readonly headers: Headers;
  /** Receipt time of the complete answer, epoch ms from the injected clock. */
  readonly tsInit: number;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 3;
const DEFAULT_BASE_MS = 100;
const DEFAULT_MAX_MS = 5_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Socket error codes that mean the request never left this machine. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

export class Transport {
  readonly #opts: TransportOptions;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #random: () => number;
  /**
   * The deadline of the next attempt, made ahead: in Node 20 an AbortSignal costs tens of µs on
   * a cold round (it is made transferable, natively), so the order post takes this one and the
   * next is made once the answer is in, off the tick-to-trade path. Never handed out twice: an
   * attempt that finds none makes its own.
   */
  #spareDeadline: Deadline | undefined = newDeadline();
  /** Live counts of this transport and of those derived from it with `withBeforeSend`. */
  readonly counters: TransportCounters;
  /** `logging.level: trace`: a line per request (route, method, status, ms), decided once. */
  readonly #trace: boolean;

  constructor(options: TransportOptions) {
    this.counters = options.counters ?? { attempts: 0, http429: 0 };
    this.#opts = options;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retries = options.retries ?? DEFAULT_RETRIES;
    this.#baseMs = options.backoff?.baseMs ?? DEFAULT_BASE_MS;
    this.#maxMs = options.backoff?.maxMs ?? DEFAULT_MAX_MS;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#random = options.random ?? Math.random;
    this.#trace = options.logger?.isLevelEnabled?.('trace') === true && options.logger.trace !== undefined;
  }

  get options(): TransportOptions {
    return this.#opts;
  }

  /** A transport sharing everything with this one but with another `beforeSend` hook. */
  withBeforeSend(beforeSend: BeforeSend | undefined): Transport {
    return new Transport({ ...this.#opts, beforeSend, counters: this.counters });
  }

  /** The full URL of a request (group base URL + filled path + query). */
  url(route: RouteId, path: string, query?: Readonly<Record<string, string>>): string {
    const base = this.#opts.urls[ENDPOINTS[route].group];
    const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
    return `${base}${path}${search}`;
  }

  /**
   * Sends a request (retrying reads) and returns the 2xx answer. Throws TransportError,
   * TimeoutError, RateLimitError, AuthError (401) or VenueRejectError.
   */
  async send(request: TransportRequest, path: string): Promise<TransportResponse> {
    const endpoint = ENDPOINTS[request.route];
    const bodyText = request.bodyText ?? (request.body === undefined ? '' : JSON.stringify(request.body));
    const url = this.url(request.route, path, request.query);
    const maxAttempts = endpoint.idempotent ? this.#retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.#attempt(request, path, url, bodyText);
        return { ...response, attempts: attempt };
      } catch (err) {
        if (err instanceof RateLimitError && err.retryAfterMs !== undefined) {
          this.#opts.budget.pause(request.route, this.#opts.clock.now() + err.retryAfterMs);
        }
        if (attempt >= maxAttempts || !isRetryable(err) || request.signal?.aborted) throw err;
        const retryAfterMs = retryAfterOf(err);
        if (retryAfterMs !== undefined && retryAfterMs > this.#maxRetryAfterMs) throw err;
        const waitMs = retryAfterMs ?? this.#backoffMs(attempt);
        this.#opts.logger?.warn(
          { route: request.route, attempt, waitMs, err: err instanceof Error ? err.message : String(err) },
          'venue request failed, retrying',
        );
        try {
          await delay(this.#opts.clock, waitMs, request.signal);
        } catch {
          throw err;
        }
      }
    }
  }

  /** Exponential backoff with jitter: attempt n waits between half and all of base * 2^(n-1). */
  #backoffMs(attempt: number): number {
    const ceiling = Math.min(this.#maxMs, this.#baseMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (ceiling / 2) * this.#random());
  }

  async #attempt(
    request: TransportRequest,
    path: string,
    url: string,
    bodyText: string,
  ): Promise<Omit<TransportResponse, 'attempts'>> {
    const { route } = request;
    const method = ENDPOINTS[route].method;
    // no await before fetch when nothing has to wait: the bytes leave in the caller's own turn
    // (an order post is handed to the socket before the engine's call returns)
    const cost = request.cost ?? 1;
    const permit = (request.signal?.aborted ? undefined : this.#opts.budget.tryAcquire(route, cost)) ?? (await this.#opts.budget.acquire(route, cost, request.signal));
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (bodyText !== '') headers['content-type'] = 'application/json';
      if (this.#opts.beforeSend) {
        const extra = this.#opts.beforeSend(route, method, path, bodyText);
        Object.assign(headers, extra instanceof Promise ? await extra : extra);
      }
      const timeoutMs = request.timeoutMs ?? this.#timeoutMs;
      // a controller and a timer, not AbortSignal.timeout: that one costs about 10 µs more per
      // request in Node 20 (its signal is made transferable), on every order post
      const deadline = this.#spareDeadline ?? newDeadline();
      this.#spareDeadline = undefined;
      const timer = setTimeout(abortOnDeadline, timeoutMs, deadline);
      timer.unref();
      // the caller's signal aborts the deadline's controller (with the caller's reason), so fetch
      // takes one signal: AbortSignal.any made a new one per request, tens of µs on every order
      // post in Node 20 (the signal is made transferable, natively); every attempt in flight under
      // one caller's signal shares one listener on it (core/on-abort.ts)
      const caller = request.signal;
      const unfollow = caller === undefined ? undefined : onAbort(caller, () => deadline.controller.abort(caller.reason));
      let status: number;
      let text: string;
      let responseHeaders: Headers;
      this.counters.attempts++;
      try {
        const response = await fetch(url, { method, headers, body: bodyText === '' ? undefined : bodyText, signal: deadline.signal });
        status = response.status;
        responseHeaders = response.headers;
        text = await response.text();
      } catch (err) {
        this.#count(route, 'network');
        throw this.#networkError(route, method, err, deadline.timedOut, timeoutMs, caller);
      } finally {
        clearTimeout(timer);
        unfollow?.();
        this.#spareDeadline ??= newDeadline();
      }
      const tsInit = this.#opts.clock.now();
      if (this.counters.responses !== undefined) this.#count(route, status);
      if (this.#trace) this.#opts.logger?.trace?.({ route, method, path, status, bytes: text.length }, 'venue request');
      if (status >= 200 && status < 300) return { status, text, headers: responseHeaders, tsInit };
      if (status === 429) this.counters.http429++;
      else if (status === 401) this.counters.http401 = (this.counters.http401 ?? 0) + 1;
      throw this.#statusError(route, method, status, text, responseHeaders, tsInit);
    } finally {
      permit.release();
    }
  }

  #count(route: RouteId, status: number | 'network'): void {
    const responses = this.counters.responses;
    if (responses === undefined) return;
    const key = `${route} ${status}`;
    responses.set(key, (responses.get(key) ?? 0) + 1);
  }

  #networkError(
    route: RouteId,
    method: string,
    err: unknown,
    timedOut: boolean,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): ClobotError {
    const where = `${method} ${ENDPOINTS[route].path}`;
    if (timedOut) {
      // The bytes may well have reached the venue: for a write the outcome is unknown.
      return new TimeoutError(`${where}: no complete answer within ${timeoutMs} ms`, timeoutMs, true);
    }
    if (callerSignal?.aborted) {
      return new TransportError(`${where}: aborted by the caller`, true, { cause: callerSignal.reason });
    }
    const code = errorCode(err);
    const sent = code === undefined || !NOT_SENT_CODES.has(code);
    return new TransportError(`${where}: ${code ?? (err instanceof Error ? err.message : 'network failure')}`, sent, {
      cause: err,
    });
  }

  #statusError(route: RouteId, method: string, status: number, text: string, headers: Headers, nowMs: number): ClobotError {
    const where = `${method} ${ENDPOINTS[route].path}`;
    const body = parseJsonOrUndefined(text);
    const venueMessage = errorMessageOf(body, text);
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'), nowMs) ?? retryAfterFromBody(body);
    if (status === 429) {
      return new RateLimitError(`${where}: throttled (429)${venueMessage ? `: ${venueMessage}` : ''}`, retryAfterMs, route);
    }
    if (status === 401) return new AuthError(`${where}: credentials refused (401)${venueMessage ? `: ${venueMessage}` : ''}`);
    return new VenueRejectError(`${where}: ${status}${venueMessage ? ` ${venueMessage}` : ''}`, status, route, venueMessage, body, retryAfterMs);
  }
}

/**
 * An attempt's deadline: a controller and its signal, which Node makes lazily on first read;
 * aborted by its timer (`timedOut`) or by the caller's signal.
 */
interface Deadline {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  timedOut: boolean;
}

function newDeadline(): Deadline {
  const controller = new AbortController();
  return { controller, signal: controller.signal, timedOut: false };
}

/** Ends an attempt at its deadline, with the reason AbortSignal.timeout gives (unless the caller aborted it first). */
function abortOnDeadline(deadline: Deadline): void {
  if (deadline.signal.aborted) return;
  deadline.timedOut = true;
  deadline.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
}

function retryAfterOf(err: unknown): number | undefined {
  if (err instanceof RateLimitError) return err.retryAfterMs;
  if (err instanceof VenueRejectError) return err.retryAfterMs;
  return undefined;
}

function parseJsonOrUndefined(text: string): unknown {
  const first = text.trimStart().charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */ && first !== 34 /* " */) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The venue's `error` string, or a short plain-text excerpt of a non-JSON (HTML) body. */
function errorMessageOf(body: unknown, text: string): string {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const error = (body as Record<string, unknown>)['error'] ?? (body as Record<string, unknown>)['errorMsg'];
    if (typeof error === 'string') return error;
  }
  if (typeof body === 'string') return body;
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 120 ? `${plain.slice(0, 120)}…` : plain;
}

/** PROTOCOL's 503 body may carry `retry_after_seconds` besides the header. */
function retryAfterFromBody(body: unknown): number | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const seconds = (body as Record<string, unknown>)['retry_after_seconds'];
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
