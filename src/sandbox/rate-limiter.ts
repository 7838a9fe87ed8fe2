import type { Clock } from '../core/clock.ts';
import { ENDPOINTS, type RouteId } from '../venue/endpoints.ts';
import { windowsFor, type RateLimitConfig, type RateWindow } from '../venue/rate-limits.ts';

/**
 * Part 8's limits on sliding windows, per client: a request must fit every window of its route
 * and group (`windowsFor`, the table the client budgets with too). Windows that share a name
 * share a count (the "combined listings" window, the order burst window of `POST /order` and
 * `POST /orders`). The client is whatever the caller names (the pipeline uses the API key or
 * address once authenticated, the IP address before). Requests that fail authentication are
 * charged apart, per IP address, to FAILED_AUTH_WINDOW only. Time is the injected clock's.
 */
export interface LimitRefusal {
  readonly window: RateWindow;
  /** When enough of the window has slid by for this request to fit, ms. */
  readonly retryAfterMs: number;
}

/**
 * What requests that fail authentication may cost one IP address: the sandbox's own budget (the
 * interface states none), scaled by `windowScale` like the others.
 */
export const FAILED_AUTH_WINDOW: RateWindow = Object.freeze({ name: 'failed auth', limit: 300, windowMs: 10_000 });

export class SandboxRateLimiter {
  readonly #config: RateLimitConfig;
  readonly #clock: Clock;
  readonly #logs = new Map<string, SlidingLog>();
  readonly #windows = new Map<RouteId, RateWindow[]>();
  #failedAuth: RateWindow[] | undefined;

  constructor(config: RateLimitConfig, clock: Clock) {
    this.#config = config;
    this.#clock = clock;
  }

  get enabled(): boolean {
    return this.#config.enabled !== false;
  }

  /** Admits a request of `cost` (recording it) or says which window refused it. */
  admit(client: string, route: RouteId, cost = 1): LimitRefusal | undefined {
    return this.#admit(client, this.#windowsOf(route), cost);
  }

  /** Charges one failed authentication to `ip`'s own bucket, or says it is full. */
  admitFailedAuth(ip: string): LimitRefusal | undefined {
    this.#failedAuth ??= [scaled(FAILED_AUTH_WINDOW, this.#config.windowScale ?? 1)];
    return this.#admit(`failed-auth:${ip}`, this.#failedAuth, 1);
  }

  #admit(client: string, windows: readonly RateWindow[], cost: number): LimitRefusal | undefined {
    if (!this.enabled) return undefined;
    const now = this.#clock.now();
    const logs: SlidingLog[] = [];
    for (const window of windows) {
      const key = `${client}\u0000${window.name}`;
      let log = this.#logs.get(key);
      if (!log) {
        log = new SlidingLog();
        this.#logs.set(key, log);
      }
      log.prune(now, window.windowMs);
      if (log.total + cost > window.limit) {
        return { window, retryAfterMs: log.waitFor(now, window.windowMs, window.limit, cost) };
      }
      logs.push(log);
    }
    for (const log of logs) log.add(now, cost);
    return undefined;
  }

  /** Forgets every count (tests). */
  clear(): void {
    this.#logs.clear();
  }

  #windowsOf(route: RouteId): RateWindow[] {
    let windows = this.#windows.get(route);
    if (!windows) {
      windows = windowsFor(route, ENDPOINTS[route].group, this.#config);
      this.#windows.set(route, windows);
    }
    return windows;
  }
}

function scaled(window: RateWindow, scale: number): RateWindow {
  return scale === 1 ? window : { ...window, windowMs: Math.max(1, Math.round(window.windowMs * scale)) };
}

/** Timestamps and costs of admitted requests, oldest first; a head index instead of shifting. */
class SlidingLog {
  #times: number[] = [];
  #costs: number[] = [];
  #head = 0;
  total = 0;

  add(now: number, cost: number): void {
    this.#times.push(now);
    this.#costs.push(cost);
    this.total += cost;
  }

  /** Drops entries at or before `now - windowMs`. */
  prune(now: number, windowMs: number): void {
    const edge = now - windowMs;
    while (this.#head < this.#times.length && (this.#times[this.#head] as number) <= edge) {
      this.total -= this.#costs[this.#head] as number;
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#costs = this.#costs.slice(this.#head);
      this.#head = 0;
    }
  }

  /** How long until `cost` more fits under `limit`. */
  waitFor(now: number, windowMs: number, limit: number, cost: number): number {
    if (cost > limit) return windowMs;
    let freed = 0;
    for (let i = this.#head; i < this.#times.length; i++) {
      freed += this.#costs[i] as number;
      if (this.total - freed + cost <= limit) return Math.max(1, (this.#times[i] as number) + windowMs - now);
    }
    return windowMs;
  }
}
