import type { Observable, Subscription } from 'rxjs';
import type { LifecycleEvent } from '../core/events.ts';
import type { VenueState } from '../core/types.ts';
import { venueRestrictionOf, type VenueRestriction } from '../venue/venue-state.ts';
import type { EngineDesk } from './engine-desk.ts';

/** First wait before the venue is looked at again, ms: drawn in [1 s, 2 s), doubled per look up to the next. */
export const VENUE_BACKOFF_FIRST_MS = 1_000;
export const VENUE_BACKOFF_MAX_MS = 30_000;
/** The venue's post-only phase after a restart, when it does not say how long (its docs: 2 minutes). */
export const DEFAULT_POST_ONLY_AFTER_RESTART_MS = 120_000;
/** A Retry-After longer than this is not believed (10 minutes): the backoff decides. */
const MAX_RETRY_AFTER_MS = 600_000;

export interface VenueStateSettings {
  /** How long the venue stays post-only after a restart when it does not say, ms. */
  readonly postOnlyAfterRestartMs?: number;
  /** Jitter of the backoff in [0, 1). Default Math.random. */
  readonly random?: () => number;
}

export interface VenueStateParts {
  readonly desk: EngineDesk;
  /** Tells the strategies (and the bus) of a change: a VenueStateChanged lifecycle event. */
  readonly tell: (event: LifecycleEvent) => void;
  /**
   * Asks the venue something harmless on an order route (a cancel of no order of ours): its
   * answer, or a 425, says whether the matching engine is back.
   */
  readonly probe: () => Observable<unknown>;
  /** The state changed (the health model's `venueRestricted` reason, the canceller's held cancels). */
  readonly changed?: (state: VenueState, retryAfterMs: number | undefined) => void;
  readonly settings?: VenueStateSettings;
}

/**
 * What the venue takes now, as its answers say (docs/venue-states.md). `restarting` (a 425, or
 * "trading disabled"): nothing goes out but a probe, on a backoff of 1-2 s doubling to 30 s (or the
 * venue's Retry-After); the first answer that is not a 425 means the matching engine is back, in
 * its post-only phase (the venue's documented 2 minutes, `postOnlyAfterRestartMs`, unless a 503
 * says how long). `postOnly` and `cancelOnly` (a 503 saying so) last the venue's Retry-After (else
 * the backoff), then orders go out again; a new 503 puts the state back. A taker order the venue
 * took means it is `open`. Every change is a VenueStateChanged event. Not a halt and not a
 * reject: the kill switch never counts it, and nothing is cancelled because of it.
 */
export class VenueStateTracker {
  readonly #p: VenueStateParts;
  readonly #postOnlyAfterRestartMs: number;
  readonly #random: () => number;
  #state: VenueState = 'open';
  #retryAfterMs: number | undefined;
  #since = 0;
  /** Looks at the venue made since it was last seen taking something: the backoff's exponent. */
  #looks = 0;
  #timer: Subscription | undefined;
  #probe: Subscription | undefined;
  #stopped = false;

  constructor(parts: VenueStateParts) {
    this.#p = parts;
    this.#postOnlyAfterRestartMs = parts.settings?.postOnlyAfterRestartMs ?? DEFAULT_POST_ONLY_AFTER_RESTART_MS;
    this.#random = parts.settings?.random ?? Math.random;
  }

  get state(): VenueState {
    return this.#state;
  }

  /** The venue's own estimate of the restriction's end when it gave one, ms from `since`. */
  get retryAfterMs(): number | undefined {
    return this.#retryAfterMs;
  }

  /** When the state began (the run's clock, epoch ms; 0 while it has always been open). */
  get since(): number {
    return this.#since;
  }

  /** Whether cancels go out (not while the matching engine restarts). */
  get cancels(): boolean {
    return this.#state !== 'restarting';
  }

  /**
   * An order-route call failed: when the answer is a restricted state, the state follows it and
   * true is returned (the caller then refuses its orders without counting a reject).
   */
  refused(err: unknown): boolean {
    const restriction = venueRestrictionOf(err);
    if (restriction === undefined) return false;
    this.restricted(restriction);
    return true;
  }

  /** The venue answered with a restriction (a whole request, or an item of a batch). */
  restricted(r: VenueRestriction): void {
    if (this.#stopped) return;
    const retryAfterMs = r.retryAfterMs !== undefined && r.retryAfterMs <= MAX_RETRY_AFTER_MS ? r.retryAfterMs : undefined;
    if (this.#state !== r.state) this.#p.desk.log.warn('venue restricted', { state: r.state, status: r.status, retryAfterMs, message: r.message });
    this.#set(r.state, retryAfterMs);
    const wait = r.state === 'restarting' ? Math.min(retryAfterMs ?? this.#backoff(), VENUE_BACKOFF_MAX_MS) : (retryAfterMs ?? this.#backoff());
    this.#looks++;
    this.#after(wait, () => (r.state === 'restarting' ? this.#lookAgain() : this.#reopen()));
  }

  /** An order post was answered (its items taken or refused one by one): `taker` when a non-post-only order was taken. */
  posted(taken: boolean, taker: boolean): void {
    if (!taken || this.#stopped) return;
    this.#looks = 0;
    if (taker) this.#open();
    else if (this.#state === 'restarting') this.#back();
  }

  /** A cancel was answered: the matching engine takes calls again. */
  cancelled(): void {
    if (this.#stopped) return;
    this.#looks = 0;
    if (this.#state === 'restarting') this.#back();
  }

  /** The engine stops: no more looks. */
  stop(): void {
    this.#stopped = true;
    this.#timer?.unsubscribe();
    this.#probe?.unsubscribe();
  }

  /** Backoff of the next look: 1-2 s, doubled per look, at most 30 s. */
  #backoff(): number {
    const first = VENUE_BACKOFF_FIRST_MS * (1 + this.#random());
    return Math.round(Math.min(VENUE_BACKOFF_MAX_MS, first * 2 ** this.#looks));
  }

  /** The matching engine answers again after a restart: its post-only phase. */
  #back(): void {
    this.#p.desk.log.info('venue back after its restart: post-only phase', { forMs: this.#postOnlyAfterRestartMs });
    this.#set('postOnly', this.#postOnlyAfterRestartMs);
    this.#after(this.#postOnlyAfterRestartMs, () => this.#reopen());
  }

  /** A restricted mode's time is up: orders go out again (a new 503 restricts again). */
  #reopen(): void {
    this.#open();
  }

  #open(): void {
    if (this.#state === 'open') return;
    this.#timer?.unsubscribe();
    this.#timer = undefined;
    this.#p.desk.log.info('venue open', { after: this.#state });
    this.#set('open', undefined);
  }

  /** Restarting: a harmless call on an order route; a 425 (or any failure) looks again later. */
  #lookAgain(): void {
    if (this.#stopped || this.#state !== 'restarting') return;
    this.#probe?.unsubscribe();
    this.#probe = this.#p.probe().subscribe({
      next: () => this.cancelled(),
      error: (err: unknown) => {
        if (this.refused(err)) return;
        // not a state (the network, a 5xx): look again after the next backoff
        this.#looks++;
        this.#after(this.#backoff(), () => this.#lookAgain());
      },
    });
  }

  #after(ms: number, then: () => void): void {
    this.#timer?.unsubscribe();
    if (this.#stopped) return;
    this.#timer = this.#p.desk.clock.scheduler.schedule(() => {
      this.#timer = undefined;
      then();
    }, Math.max(0, ms));
  }

  #set(state: VenueState, retryAfterMs: number | undefined): void {
    const changed = state !== this.#state;
    this.#retryAfterMs = retryAfterMs;
    if (!changed) return;
    const now = this.#p.desk.clock.now();
    this.#state = state;
    this.#since = now;
    this.#p.tell({ type: 'VenueStateChanged', state, ...(retryAfterMs === undefined ? {} : { retryAfterMs }), tsInit: now });
    this.#p.changed?.(state, retryAfterMs);
  }
}
