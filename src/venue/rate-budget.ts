import type { Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { RateLimitError, TransportError } from '../core/errors.ts';
import { onAbort } from '../core/on-abort.ts';
import { ENDPOINTS, type RouteId } from './endpoints.ts';
import { windowsFor, type RateLimitConfig, type RateWindow } from './rate-limits.ts';
import type { BudgetSnapshot, BudgetWindowState, RatePermit, RequestBudget } from './request-budget.ts';

export type { BudgetSnapshot, BudgetWindowState, RatePermit, RequestBudget } from './request-budget.ts';

/**
 * Client-side sliding-window budgets (interface part 8, PROTOCOL "Rate limits"), so normal use
 * never draws a 429. Every request takes a permit for every window its route belongs to (its
 * own windows and its group's, from `windowsFor`) and hands it back when the exchange ends.
 *
 * Why a permit and not a timestamp at send time: the venue counts a request when it *receives*
 * it, which is after we send it. A request is therefore counted here as in flight from
 * `acquire` until `release`, and then as an entry stamped with the release time (never earlier
 * than the venue's receipt), kept while `now - stamp <= windowMs`. With that, whenever this
 * budget admits a request, the venue's window over the same requests is no fuller than ours.
 *
 * Waiting runs on the injected clock's scheduler, so the budget also works in virtual time.
 * Requests of one route are admitted in arrival order.
 */
/** One sliding window: finished entries (stamp, cost) in stamp order plus the in-flight cost. */
class SlidingWindow {
  readonly #stamps: number[] = [];
  readonly #costs: number[] = [];
  #head = 0;
  #used = 0;
  inFlight = 0;

  constructor(readonly spec: RateWindow) {}

  /** Drops entries that have left the window at `now`. */
  prune(now: number): void {
    const edge = now - this.spec.windowMs;
    while (this.#head < this.#stamps.length && (this.#stamps[this.#head] as number) < edge) {
      this.#used -= this.#costs[this.#head] as number;
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#stamps.length) {
      this.#stamps.splice(0, this.#head);
      this.#costs.splice(0, this.#head);
      this.#head = 0;
    }
  }

  used(): number {
    return this.#used;
  }

  record(stamp: number, cost: number): void {
    this.#stamps.push(stamp);
    this.#costs.push(cost);
    this.#used += cost;
  }

  /**
   * Milliseconds until `cost` more fits (after prune at `now`): 0 when it fits now, Infinity
   * when only in-flight requests could make room (their release re-checks).
   */
  waitFor(cost: number, now: number): number {
    const excess = this.#used + this.inFlight + cost - this.spec.limit;
    if (excess <= 0) return 0;
    let freed = 0;
    for (let i = this.#head; i < this.#stamps.length; i++) {
      freed += this.#costs[i] as number;
      if (freed >= excess) return (this.#stamps[i] as number) + this.spec.windowMs + 1 - now;
    }
    return Infinity;
  }

  nextFreeInMs(now: number): number {
    if (this.#head >= this.#stamps.length) return 0;
    return Math.max(0, (this.#stamps[this.#head] as number) + this.spec.windowMs + 1 - now);
  }
}

interface Waiter {
  readonly cost: number;
  readonly resolve: (permit: RatePermit) => void;
  readonly reject: (err: unknown) => void;
  /** Stops following the caller's signal (undefined without one). */
  detach: (() => void) | undefined;
}

interface RouteState {
  readonly windows: readonly SlidingWindow[];
  readonly queue: Waiter[];
  timer: { sub: Subscription; at: number } | undefined;
}

const NO_PERMIT: RatePermit = Object.freeze({ release: () => undefined });

export class RateBudget implements RequestBudget {
  readonly #clock: Clock;
  readonly #config: RateLimitConfig;
  readonly #enabled: boolean;
  /** Windows are shared between routes by name and length (group windows, listings). */
  readonly #windows = new Map<string, SlidingWindow>();
  readonly #routes = new Map<RouteId, RouteState>();
  readonly #pausedUntil = new Map<RouteId, number>();

  constructor(clock: Clock, config: RateLimitConfig = {}) {
    this.#clock = clock;
    this.#config = config;
    this.#enabled = config.enabled !== false;
  }

  /**
   * Waits until every window of `route` has room for `cost` and takes it. Rejects with a
   * RateLimitError when `cost` exceeds a window's whole limit (it could never fit), and with a
   * TransportError (not sent) when `signal` aborts while waiting.
   */
  acquire(route: RouteId, cost = 1, signal?: AbortSignal): Promise<RatePermit> {
    if (!this.#enabled) return Promise.resolve(NO_PERMIT);
    const state = this.#state(route);
    for (const win of state.windows) {
      if (cost > win.spec.limit) {
        return Promise.reject(
          new RateLimitError(`${route}: cost ${cost} exceeds the '${win.spec.name}' limit of ${win.spec.limit}`, undefined, route),
        );
      }
    }
    if (signal?.aborted) return Promise.reject(abortError(route, signal));
    return new Promise<RatePermit>((resolve, reject) => {
      const waiter: Waiter = { cost, resolve, reject, detach: undefined };
      // waiters under one signal share one listener on it (core/on-abort.ts)
      if (signal !== undefined) {
        waiter.detach = onAbort(signal, () => {
          const i = state.queue.indexOf(waiter);
          if (i >= 0) state.queue.splice(i, 1);
          reject(abortError(route, signal));
          // the next waiter may fit now (or none is left: the timer goes)
          this.#pump(route, state);
        });
      }
      state.queue.push(waiter);
      this.#pump(route, state);
    });
  }

  /** Takes the permit only if it fits now (no waiting); undefined otherwise. */
  tryAcquire(route: RouteId, cost = 1): RatePermit | undefined {
    if (!this.#enabled) return NO_PERMIT;
    const state = this.#state(route);
    if (state.queue.length > 0 || this.#waitMs(route, state, cost) > 0) return undefined;
    return this.#take(state, cost);
  }

  /** Requests `route` could start now without waiting (minimum over its windows; 0 when paused). */
  remaining(route: RouteId): number {
    if (!this.#enabled) return Infinity;
    const now = this.#clock.now();
    if ((this.#pausedUntil.get(route) ?? 0) > now) return 0;
    let min = Infinity;
    for (const win of this.#state(route).windows) {
      win.prune(now);
      min = Math.min(min, win.spec.limit - win.used() - win.inFlight);
    }
    return Math.max(0, min);
  }

  /** Milliseconds until a request of `cost` on `route` would be admitted (0 = now). */
  waitMs(route: RouteId, cost = 1): number {
    if (!this.#enabled) return 0;
    return this.#waitMs(route, this.#state(route), cost);
  }

  /** Holds every request of `route` until `untilMs` (epoch ms), e.g. after a 429 with Retry-After. */
  pause(route: RouteId, untilMs: number): void {
    if (!this.#enabled) return;
    if (untilMs <= (this.#pausedUntil.get(route) ?? 0)) return;
    this.#pausedUntil.set(route, untilMs);
    const state = this.#state(route);
    if (state.queue.length > 0) this.#pump(route, state);
  }

  /**
   * Counts `cost` as used now in the window of `route` named `windowName` (nothing sent): what a
   * bot that leaves a shared budget knows the others used (shared-rate-budget.ts).
   */
  charge(route: RouteId, windowName: string, cost: number): void {
    if (!this.#enabled || cost <= 0) return;
    const now = this.#clock.now();
    for (const win of this.#state(route).windows) if (win.spec.name === windowName) win.record(now, cost);
  }

  /** A picture of every window in use (and of `routes`, if given) for pollers to plan with. */
  snapshot(routes: readonly RouteId[] = []): BudgetSnapshot {
    const now = this.#clock.now();
    for (const route of routes) this.#state(route);
    const windows: BudgetWindowState[] = [];
    for (const win of this.#windows.values()) {
      win.prune(now);
      windows.push({
        name: win.spec.name,
        limit: win.spec.limit,
        windowMs: win.spec.windowMs,
        used: win.used(),
        inFlight: win.inFlight,
        remaining: Math.max(0, win.spec.limit - win.used() - win.inFlight),
        nextFreeInMs: win.nextFreeInMs(now),
      });
    }
    const routeRemaining: Partial<Record<RouteId, number>> = {};
    for (const route of routes) routeRemaining[route] = this.remaining(route);
    const pausedUntil: Partial<Record<RouteId, number>> = {};
    for (const [route, until] of this.#pausedUntil) if (until > now) pausedUntil[route] = until;
    return { atMs: now, windows, routes: routeRemaining, pausedUntil };
  }

  #state(route: RouteId): RouteState {
    let state = this.#routes.get(route);
    if (state === undefined) {
      const specs = windowsFor(route, ENDPOINTS[route].group, this.#config);
      const windows = specs.map((spec) => {
        const key = `${spec.name}|${spec.windowMs}|${spec.limit}`;
        let win = this.#windows.get(key);
        if (win === undefined) {
          win = new SlidingWindow(spec);
          this.#windows.set(key, win);
        }
        return win;
      });
      state = { windows, queue: [], timer: undefined };
      this.#routes.set(route, state);
    }
    return state;
  }

  #waitMs(route: RouteId, state: RouteState, cost: number): number {
    const now = this.#clock.now();
    let wait = Math.max(0, (this.#pausedUntil.get(route) ?? 0) - now);
    for (const win of state.windows) {
      win.prune(now);
      wait = Math.max(wait, win.waitFor(cost, now));
    }
    return wait;
  }

  #take(state: RouteState, cost: number): RatePermit {
    for (const win of state.windows) win.inFlight += cost;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const stamp = this.#clock.now();
        for (const win of state.windows) {
          win.inFlight -= cost;
          win.record(stamp, cost);
        }
        this.#pumpAll();
      },
    };
  }

  /**
   * Admits waiters of `route` in order while they fit; otherwise arms a timer for the head. With
   * no waiter left, no timer stays armed: a timer kept for a waiter that went (its call aborted
   * when the run stopped) would hold the process up to a whole window (10 minutes for the
   * sustained order budget) after everything else ended.
   */
  #pump(route: RouteId, state: RouteState): void {
    while (state.queue.length > 0) {
      const head = state.queue[0] as Waiter;
      const wait = this.#waitMs(route, state, head.cost);
      if (wait > 0) {
        if (Number.isFinite(wait)) this.#arm(route, state, wait);
        return;
      }
      state.queue.shift();
      head.detach?.();
      head.resolve(this.#take(state, head.cost));
    }
    if (state.timer !== undefined) {
      state.timer.sub.unsubscribe();
      state.timer = undefined;
    }
  }

  #pumpAll(): void {
    for (const [route, state] of this.#routes) if (state.queue.length > 0) this.#pump(route, state);
  }

  #arm(route: RouteId, state: RouteState, waitMs: number): void {
    const at = this.#clock.now() + waitMs;
    if (state.timer !== undefined) {
      if (state.timer.at <= at) return;
      state.timer.sub.unsubscribe();
    }
    const sub = this.#clock.scheduler.schedule(() => {
      state.timer = undefined;
      this.#pump(route, state);
    }, waitMs);
    state.timer = { sub, at };
  }
}

function abortError(route: RouteId, signal: AbortSignal): TransportError {
  return new TransportError(`${route}: aborted while waiting for rate budget`, false, { cause: signal.reason });
}
