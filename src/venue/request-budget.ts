import type { RouteId } from './endpoints.ts';

/**
 * What the transport and the pollers ask of a rate budget (interface part 8): a permit per
 * request, taken before it is sent and handed back when it ends. `RateBudget` is this process's
 * own sliding windows; `SharedRateBudget` draws from windows in Redis shared by every bot on one
 * key, and falls back to a local share when Redis is away.
 */
export interface RequestBudget {
  /** Waits until every window of `route` has room for `cost` and takes it. */
  acquire(route: RouteId, cost?: number, signal?: AbortSignal): Promise<RatePermit>;
  /** Takes the permit only if it fits now without waiting (undefined otherwise, or when it cannot know without asking). */
  tryAcquire(route: RouteId, cost?: number): RatePermit | undefined;
  /** Requests `route` could start now without waiting (as far as this process knows). */
  remaining(route: RouteId): number;
  /** Milliseconds until a request of `cost` on `route` would be admitted (0 = now), as far as this process knows. */
  waitMs(route: RouteId, cost?: number): number;
  /** Holds every request of `route` until `untilMs` (epoch ms), e.g. after a 429 with Retry-After. */
  pause(route: RouteId, untilMs: number): void;
  /** A picture of the windows in use for pollers to plan with. */
  snapshot(routes?: readonly RouteId[]): BudgetSnapshot;
}

export interface RatePermit {
  /** Hands the permit back; call exactly once when the request has ended (in any way). */
  release(): void;
}

export interface BudgetWindowState {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Cost of requests finished inside the window. */
  readonly used: number;
  /** Cost of requests holding a permit now. */
  readonly inFlight: number;
  readonly remaining: number;
  /** Milliseconds until the oldest finished entry leaves the window (0 when empty). */
  readonly nextFreeInMs: number;
}

export interface BudgetSnapshot {
  readonly atMs: number;
  readonly windows: readonly BudgetWindowState[];
  /** Remaining requests per route asked about (the minimum over the route's windows). */
  readonly routes: Readonly<Partial<Record<RouteId, number>>>;
  /** Routes paused after a 429, with the epoch ms they resume at. */
  readonly pausedUntil: Readonly<Partial<Record<RouteId, number>>>;
}

