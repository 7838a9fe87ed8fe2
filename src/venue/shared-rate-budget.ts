import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import { RateLimitError, TransportError } from '../core/errors.ts';
import type { RedisTarget } from '../core/redis-url.ts';
import { onAbort } from '../core/on-abort.ts';
import { ENDPOINTS, type RouteId } from './endpoints.ts';
import { RateBudget } from './rate-budget.ts';
import { windowsFor, type RateLimitConfig } from './rate-limits.ts';
import { RedisRateWindows, type SharedWindow } from './redis-rate-windows.ts';
import type { BudgetSnapshot, BudgetWindowState, RatePermit, RequestBudget } from './request-budget.ts';

export interface SharedRateBudgetOptions {
  readonly clock: Clock;
  /** The part 8 table as the venue applies it (the same `windowScale` as a lone bot's). */
  readonly limits: RateLimitConfig;
  readonly redis: RedisTarget;
  /** What the bots sharing the windows have in common (the key); part of every Redis key. */
  readonly scope: string;
  /** How many bots share the key: each one's share of the limits while Redis is away. */
  readonly bots: number;
  /** How long a request in flight counts if its bot never says it ended (it died). Default 60,000 ms. */
  readonly leaseMs?: number;
  /** While Redis is away, how often to look for it again. Default 1,000 ms. */
  readonly probeEveryMs?: number;
  /** Each change between the shared windows and the local share, with why. */
  readonly onModeChange?: (mode: 'shared' | 'fallback', detail: string) => void;
}

/** A request this bot sent in the last window: what it brings back to Redis when it rejoins. */
interface OwnEntry {
  readonly member: string;
  readonly route: RouteId;
  readonly cost: number;
  /** When it ended (this process's clock); undefined while in flight. */
  endedAt: number | undefined;
}

/**
 * The rate budget of a bot that shares its key with others (`venue.rateBudget`): every request
 * takes its place in the key's windows in Redis (redis-rate-windows.ts), so the bots together keep
 * within part 8. Requests of one route are admitted in arrival order, as in the local budget.
 *
 * When Redis does not answer, the bot budgets alone on its share: the local windows with every
 * limit divided by the bot count, starting with its share of what the shared windows held when it
 * last saw them (so the bots together never exceed a limit across the switch), and says so once
 * (`onModeChange('fallback')`). It looks for Redis every `probeEveryMs`; when Redis answers it
 * puts back the requests it sent in the last window (a restarted Redis knows none of them) and
 * draws from the shared windows again (`onModeChange('shared')`), for one longest window still
 * within its local share too (the other bots rejoin on their own probes, a little later).
 */
export class SharedRateBudget implements RequestBudget {
  readonly #opts: SharedRateBudgetOptions;
  readonly #clock: Clock;
  readonly #redis: RedisRateWindows;
  readonly #local: RateBudget;
  readonly #bot = randomUUID().slice(0, 8);
  readonly #windows = new Map<RouteId, SharedWindow[]>();
  /** Each shared window's count when last seen, and when (this clock). */
  readonly #seen = new Map<string, { used: number; at: number; route: RouteId; name: string }>();
  readonly #queues = new Map<RouteId, Promise<unknown>>();
  readonly #pausedUntil = new Map<RouteId, number>();
  readonly #own: OwnEntry[] = [];
  readonly #longestWindowMs: number;
  #seq = 0;
  #mode: 'shared' | 'fallback' = 'shared';
  /** Until then (a longest window of the routes used, after a rejoin) a request also needs the local share: the other bots may not have rejoined yet. */
  #bothUntil = 0;
  #probe: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: SharedRateBudgetOptions) {
    this.#opts = options;
    this.#clock = options.clock;
    this.#redis = new RedisRateWindows(options.redis);
    this.#local = new RateBudget(options.clock, { ...options.limits, limitDivisor: options.bots });
    const all = (Object.keys(ENDPOINTS) as RouteId[]).flatMap((r) => windowsFor(r, ENDPOINTS[r].group, options.limits));
    this.#longestWindowMs = Math.max(...all.map((w) => w.windowMs));
  }

  /** 'shared' while Redis answers; 'fallback' while this bot budgets alone on its share. */
  get mode(): 'shared' | 'fallback' {
    return this.#mode;
  }

  acquire(route: RouteId, cost = 1, signal?: AbortSignal): Promise<RatePermit> {
    for (const w of this.#windowsOf(route)) {
      if (cost > w.spec.limit) return Promise.reject(new RateLimitError(`${route}: cost ${cost} exceeds the '${w.spec.name}' limit of ${w.spec.limit}`, undefined, route));
    }
    // one route's requests are admitted in arrival order: each waits for the one before it
    const before = this.#queues.get(route) ?? Promise.resolve();
    const mine = before.then(() => this.#admit(route, cost, signal));
    this.#queues.set(
      route,
      mine.catch(() => undefined),
    );
    return mine;
  }

  tryAcquire(route: RouteId, cost = 1): RatePermit | undefined {
    if (this.#mode === 'shared') return undefined; // only Redis knows; acquire asks it
    const permit = this.#local.tryAcquire(route, cost);
    return permit === undefined ? undefined : this.#track(route, cost, `${this.#bot}:${++this.#seq}`, permit);
  }

  remaining(route: RouteId): number {
    if (this.#mode === 'fallback') return this.#local.remaining(route);
    const now = this.#clock.now();
    if ((this.#pausedUntil.get(route) ?? 0) > now) return 0;
    let min = Infinity;
    for (const w of this.#windowsOf(route)) {
      const seen = this.#seen.get(w.key);
      const used = seen !== undefined && now - seen.at <= w.spec.windowMs ? seen.used : 0;
      min = Math.min(min, w.spec.limit - used);
    }
    return Math.max(0, min);
  }

  waitMs(route: RouteId, cost = 1): number {
    if (this.#mode === 'fallback') return this.#local.waitMs(route, cost);
    const paused = Math.max(0, (this.#pausedUntil.get(route) ?? 0) - this.#clock.now());
    return paused > 0 ? paused : this.remaining(route) >= cost ? 0 : 1;
  }

  pause(route: RouteId, untilMs: number): void {
    if (untilMs > (this.#pausedUntil.get(route) ?? 0)) this.#pausedUntil.set(route, untilMs);
    this.#local.pause(route, untilMs);
  }

  snapshot(routes: readonly RouteId[] = []): BudgetSnapshot {
    if (this.#mode === 'fallback') return this.#local.snapshot(routes);
    const now = this.#clock.now();
    const windows: BudgetWindowState[] = [];
    for (const [key, seen] of this.#seen) {
      const w = this.#windowsOf(seen.route).find((x) => x.key === key);
      if (w === undefined) continue;
      const used = now - seen.at <= w.spec.windowMs ? seen.used : 0;
      windows.push({ name: w.spec.name, limit: w.spec.limit, windowMs: w.spec.windowMs, used, inFlight: 0, remaining: Math.max(0, w.spec.limit - used), nextFreeInMs: 0 });
    }
    const remaining: Partial<Record<RouteId, number>> = {};
    for (const route of routes) remaining[route] = this.remaining(route);
    const pausedUntil: Partial<Record<RouteId, number>> = {};
    for (const [route, until] of this.#pausedUntil) if (until > now) pausedUntil[route] = until;
    return { atMs: now, windows, routes: remaining, pausedUntil };
  }

  /** Stops looking for Redis and disconnects (the end of the run). */
  close(): void {
    this.#closed = true;
    if (this.#probe !== undefined) clearTimeout(this.#probe);
    this.#redis.close();
  }

  async #admit(route: RouteId, cost: number, signal: AbortSignal | undefined): Promise<RatePermit> {
    for (;;) {
      if (signal?.aborted) throw abortError(route, signal);
      const paused = (this.#pausedUntil.get(route) ?? 0) - this.#clock.now();
      if (paused > 0) {
        await this.#sleep(paused, route, signal);
        continue;
      }
      if (this.#mode === 'fallback') {
        const permit = await this.#local.acquire(route, cost, signal);
        return this.#track(route, cost, `${this.#bot}:${++this.#seq}`, permit);
      }
      const windows = this.#windowsOf(route);
      const member = `${this.#bot}:${++this.#seq}`;
      const local = this.#clock.now() < this.#bothUntil ? await this.#local.acquire(route, cost, signal) : undefined;
      let admission;
      try {
        admission = await this.#redis.admit(windows, cost, member, this.#opts.leaseMs ?? 60_000);
      } catch (err) {
        local?.release();
        this.#fallBack(err);
        continue;
      }
      const at = this.#clock.now();
      windows.forEach((w, i) => this.#seen.set(w.key, { used: admission.used[i] ?? 0, at, route, name: w.spec.name }));
      if (admission.ok) {
        return this.#track(route, cost, member, {
          release: () => {
            local?.release();
            this.#redis.release(windows, cost, member).catch((err: unknown) => this.#fallBack(err));
          },
        });
      }
      local?.release();
      await this.#sleep(admission.waitMs, route, signal);
    }
  }

  /** Keeps the request in the bot's own log (for a rejoin) until it has left every window. */
  #track(route: RouteId, cost: number, member: string, permit: RatePermit): RatePermit {
    const entry: OwnEntry = { member, route, cost, endedAt: undefined };
    this.#own.push(entry);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        entry.endedAt = this.#clock.now();
        permit.release();
        this.#pruneOwn();
      },
    };
  }

  #pruneOwn(): void {
    const edge = this.#clock.now() - this.#longestWindowMs;
    let drop = 0;
    while (drop < this.#own.length && (this.#own[drop]!.endedAt ?? Infinity) < edge) drop++;
    if (drop > 0) this.#own.splice(0, drop);
  }

  /** Redis did not answer: budget alone on this bot's share, charged with its share of what the windows held. */
  #fallBack(err: unknown): void {
    if (this.#mode === 'fallback' || this.#closed) return;
    this.#mode = 'fallback';
    const now = this.#clock.now();
    for (const seen of this.#seen.values()) {
      const w = this.#windowsOf(seen.route).find((x) => x.spec.name === seen.name);
      if (w !== undefined && now - seen.at <= w.spec.windowMs) this.#local.charge(seen.route, seen.name, Math.ceil(seen.used / this.#opts.bots));
    }
    this.#seen.clear();
    const why = err instanceof Error ? err.message : String(err);
    this.#opts.onModeChange?.('fallback', `shared rate budget at ${this.#opts.redis.display} unreachable (${why}): budgeting alone on 1/${this.#opts.bots} of the limits`);
    this.#scheduleProbe();
  }

  #scheduleProbe(): void {
    if (this.#closed) return;
    this.#probe = setTimeout(() => {
      this.#probe = undefined;
      this.#rejoin().catch(() => this.#scheduleProbe());
    }, this.#opts.probeEveryMs ?? 1_000);
    this.#probe.unref();
  }

  /** Redis answers again: bring back the requests of the last window, then share again. */
  async #rejoin(): Promise<void> {
    await this.#redis.ping();
    this.#pruneOwn();
    const now = this.#clock.now();
    for (const entry of [...this.#own]) await this.#redis.restore(this.#windowsOf(entry.route), entry.cost, entry.member, now - (entry.endedAt ?? now));
    if (this.#closed) return;
    // the others rejoin within about a probe of this one; until each window has slid past, keep to the local share too
    const used = [...this.#windows.values()].flat().map((w) => w.spec.windowMs);
    this.#bothUntil = this.#clock.now() + Math.max(0, ...used);
    this.#mode = 'shared';
    this.#opts.onModeChange?.('shared', `shared rate budget at ${this.#opts.redis.display} reachable again: drawing from the shared windows`);
  }

  #windowsOf(route: RouteId): SharedWindow[] {
    let windows = this.#windows.get(route);
    if (windows === undefined) {
      windows = windowsFor(route, ENDPOINTS[route].group, this.#opts.limits).map((spec) => ({
        key: `clobot:rate:${this.#opts.scope}:${spec.name}:${spec.windowMs}:${spec.limit}`,
        spec,
      }));
      this.#windows.set(route, windows);
    }
    return windows;
  }

  #sleep(ms: number, route: RouteId, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let detach: (() => void) | undefined;
      const sub = this.#clock.scheduler.schedule(() => {
        detach?.();
        resolve();
      }, Math.max(1, ms));
      // sleeps under one signal share one listener on it (core/on-abort.ts)
      if (signal !== undefined) {
        detach = onAbort(signal, () => {
          sub.unsubscribe();
          reject(abortError(route, signal));
        });
      }
    });
  }
}

function abortError(route: RouteId, signal: AbortSignal): TransportError {
  return new TransportError(`${route}: aborted while waiting for rate budget`, false, { cause: signal.reason });
}
