import { BehaviorSubject, type Observable, type Subscription, interval, exhaustMap, catchError, EMPTY, defer, tap, distinctUntilChanged, type SchedulerLike } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { VenueRejectError } from '../core/errors.ts';

import type { HeartbeatHealth } from '../core/types.ts';

export type { HeartbeatHealth };

/** Sends one beat carrying the previous id ('' starts a chain) and emits the venue's next id. */
export type BeatFn = (previousId: string) => Observable<string>;

export interface HeartbeatOptions {
  readonly clock: Clock;
  readonly beat: BeatFn;
  /** Venue rule: send every 5 s (PROTOCOL "Heartbeats"). */
  readonly intervalMs?: number;
  /** No ack for this long: `late` (no new orders). Default 1.5 × interval. */
  readonly lateAfterMs?: number;
  /** No ack for this long: `lost` (the venue has cancelled every open order). Default 10 s. */
  readonly lostAfterMs?: number;
  /** How often health is re-evaluated between beats. Default 250 ms. */
  readonly checkEveryMs?: number;
  /** Chain id to resume (from the store after a restart). */
  readonly initialId?: string;
  /** Told of every acknowledged id (the store keeps the chain across restarts) and the beat's round trip (clock ms). */
  readonly onAck?: (id: string, at: number, latencyMs: number) => void;
}

export interface HeartbeatStats {
  sent: number;
  acknowledged: number;
  missed: number;
}

/**
 * Keeps the trading session alive: beats every `intervalMs` on the clock, chains the id (adopting
 * the venue's expected id from an "Invalid Heartbeat ID" 400), and reports health. `lost` means
 * the venue has cancelled our orders; health returns to `healthy` only after a fresh
 * acknowledged beat, and subscribers do the reconciliation on that transition.
 */
export class HeartbeatSupervisor {
  readonly #opts: Required<Omit<HeartbeatOptions, 'initialId' | 'onAck'>>;
  readonly #onAck: ((id: string, at: number, latencyMs: number) => void) | undefined;
  readonly #health = new BehaviorSubject<HeartbeatHealth>('idle');
  readonly health$: Observable<HeartbeatHealth>;
  readonly stats: HeartbeatStats = { sent: 0, acknowledged: 0, missed: 0 };
  #chainId: string;
  #lastAckAt: number | undefined;
  #subs: Subscription[] = [];

  constructor(options: HeartbeatOptions) {
    const intervalMs = options.intervalMs ?? 5_000;
    this.#opts = {
      clock: options.clock,
      beat: options.beat,
      intervalMs,
      lateAfterMs: options.lateAfterMs ?? Math.round(intervalMs * 1.5),
      lostAfterMs: options.lostAfterMs ?? 10_000,
      checkEveryMs: options.checkEveryMs ?? 250,
    };
    this.#chainId = options.initialId ?? '';
    this.#onAck = options.onAck;
    this.health$ = this.#health.pipe(distinctUntilChanged());
  }

  get health(): HeartbeatHealth {
    return this.#health.value;
  }

  get chainId(): string {
    return this.#chainId;
  }

  start(): void {
    if (this.#subs.length > 0) return;
    const scheduler: SchedulerLike = this.#opts.clock.scheduler;
    this.#subs.push(this.#beatOnce().subscribe());
    this.#subs.push(
      interval(this.#opts.intervalMs, scheduler)
        .pipe(exhaustMap(() => this.#beatOnce()))
        .subscribe(),
    );
    this.#subs.push(interval(this.#opts.checkEveryMs, scheduler).subscribe(() => this.#evaluate()));
  }

  stop(): void {
    for (const sub of this.#subs) sub.unsubscribe();
    this.#subs = [];
  }

  #beatOnce(): Observable<string> {
    let sentAt = 0;
    return defer(() => {
      this.stats.sent++;
      sentAt = this.#opts.clock.now();
      return this.#opts.beat(this.#chainId);
    }).pipe(
      tap((id) => {
        this.stats.acknowledged++;
        this.#chainId = id;
        this.#lastAckAt = this.#opts.clock.now();
        this.#onAck?.(id, this.#lastAckAt, this.#lastAckAt - sentAt);
        this.#health.next('healthy');
      }),
      catchError((err: unknown) => {
        this.stats.missed++;
        if (err instanceof VenueRejectError && err.status === 400) {
          const expected = (err.body as { heartbeat_id?: unknown } | undefined)?.heartbeat_id;
          if (typeof expected === 'string') this.#chainId = expected;
        }
        this.#evaluate();
        return EMPTY;
      }),
    );
  }

  #evaluate(): void {
    if (this.#lastAckAt === undefined) {
      // Before the first ack nothing has started at the venue: no dead-man switch yet.
      return;
    }
    const silentMs = this.#opts.clock.now() - this.#lastAckAt;
    const current = this.#health.value;
    if (silentMs >= this.#opts.lostAfterMs) {
      this.#health.next('lost');
    } else if (silentMs >= this.#opts.lateAfterMs) {
      if (current !== 'lost') this.#health.next('late');
    } else if (current === 'late') {
      this.#health.next('healthy');
    }
  }
}
