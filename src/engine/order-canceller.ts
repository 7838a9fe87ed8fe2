import { catchError, concatMap, defer, map, of, tap, timeout, timer, type Observable, type Observer, type Subscription } from 'rxjs';
import { formatMicros } from '../core/fixed.ts';
import { Outlet } from '../execution/batcher.ts';
import type { CancelOutcome, VenueOrderState } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { LiveOrder, StopReport } from './engine-summary.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import type { VenueStateTracker } from './venue-state-tracker.ts';

/** Most order ids in one cancel call of the engine. */
const CANCEL_BATCH = 100;
/** Cancel calls in flight at once. */
const CANCELS_IN_FLIGHT = 2;
/** First wait between two rounds of the verified stop, ms; doubled each round up to the next. */
const STOP_BACKOFF_MS = 250;
const STOP_BACKOFF_MAX_MS = 2_000;

interface CancelAnswers {
  applied(batch: readonly OrderRecord[], outcome: CancelOutcome): void;
  failed(batch: readonly OrderRecord[], err: unknown): void;
  ended(): void;
}

/**
 * One cancel call's answer: applied (what throws counts as a failed call, as a throwing tap
 * errors its chain), or a failure that puts the orders back; then the next call may start. A
 * class rather than an object literal of arrows: tsx keeps function names, so named arrows
 * made per call each cost a `__name` call.
 */
class CancelCall implements Observer<CancelOutcome> {
  ended = false;
  sub: Subscription | undefined;

  constructor(
    readonly batch: readonly OrderRecord[],
    readonly calls: Set<Subscription>,
    readonly answers: CancelAnswers,
  ) {}

  next(outcome: CancelOutcome): void {
    if (this.ended) return;
    try {
      this.answers.applied(this.batch, outcome);
    } catch (err) {
      this.error(err);
    }
  }

  error(err: unknown): void {
    if (this.ended) return;
    this.answers.failed(this.batch, err);
    this.complete();
  }

  complete(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.sub !== undefined) this.calls.delete(this.sub);
    this.answers.ended();
  }
}

/**
 * Cancels: requests are batched on the clock and sent to the edge; an order not yet at the venue
 * (waiting to be posted, or of unknown outcome) is marked to be cancelled once it is live. A
 * cancel the venue refuses puts the order back to what it was (the next sync settles it). While
 * the venue restarts, cancels are held (not sent) and go out once it answers again.
 */
export class OrderCanceller {
  readonly #desk: EngineDesk;
  /** The venue's state (venue-state-tracker.ts), when the run follows it. */
  venue: VenueStateTracker | undefined;
  /**
   * Orders the venue did not cancel (matched already, or not found), still CANCEL_PENDING, with
   * its reason: looked up, each takes the venue's state (the reconciler's `notCancelled`).
   * Without it, they go back to LIVE (or PARTIALLY_FILLED) and the next sync settles them.
   */
  notCancelled: ((record: OrderRecord, reason: string) => void) | undefined;
  /** Cancels held while the venue restarts, sent when it answers again. */
  readonly #held = new Set<OrderRecord>();
  /** Cancels batched on the clock, at most CANCELS_IN_FLIGHT calls started and not answered. */
  readonly #out: Outlet<OrderRecord>;
  /** The calls in flight, unsubscribed when the engine's subscriptions end. */
  readonly #calls = new Set<Subscription>();
  /** What a cancel call's answer does (made once: see CancelCall). */
  readonly #answers: CancelAnswers = {
    applied: (batch, outcome) => this.#applied(batch, outcome),
    failed: (batch, err) => this.#failed(batch, err),
    ended: () => this.#out.done(),
  };

  constructor(desk: EngineDesk) {
    this.#desk = desk;
    this.#out = new Outlet(desk.settings.maxBatchWaitMs, CANCEL_BATCH, CANCELS_IN_FLIGHT, desk.clock.scheduler, (batch) => this.#cancelBatch(batch));
  }

  /** Starts the cancel stream (batched on the clock, at most two calls in flight). */
  start(): void {
    this.#out.open();
    this.#desk.subs.add(() => this.#tearDown());
  }

  /**
   * Asks for an order to be cancelled: now when it is live, once it is live otherwise. One the
   * venue already said it cancelled (the user channel, not yet taken: venue-order-updates.ts) is
   * closed at once under `reason` (default `cancelled`), with no call.
   */
  request(record: OrderRecord, reason?: string): void {
    if (!OPEN_STATUSES.has(record.status) || record.status === 'CANCEL_PENDING') return;
    if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN' || !record.orderId) {
      record.cancelWhenLive = true;
      return;
    }
    if (record.venueCancelledAt !== undefined) {
      this.#held.delete(record);
      this.#closeCancelled(record, this.#desk.clock.now(), reason ?? 'cancelled');
      return;
    }
    if (this.venue !== undefined && !this.venue.cancels) {
      this.#held.add(record);
      return;
    }
    this.#desk.tracker.transition(record, 'CANCEL_PENDING', this.#desk.clock.now());
    this.#out.push(record);
  }

  /**
   * The verified stop: cancels every open order of the account, then lists the account's open
   * orders at the venue, and goes round again (after a growing wait, cancel-all and the orders'
   * own cancel in turn) until the venue lists none or `deadlineMs` of clock time has passed.
   * Emits once what it found, never errors: verified only when the last listing held no live order.
   */
  cancelAndVerify$(deadlineMs: number): Observable<StopReport> {
    const { clock, log } = this.#desk;
    const deadline = clock.now() + deadlineMs;
    let last: readonly VenueOrderState[] | undefined;
    const round = (attempt: number): Observable<StopReport> => {
      const remaining = (): number => Math.max(1, deadline - clock.now());
      const ids = last?.map((o) => o.orderId) ?? [];
      const cancel$ = attempt % 2 === 1 && ids.length > 0 ? this.#desk.execution.cancel(ids) : this.#cancelAll$();
      return cancel$.pipe(
        timeout({ first: remaining(), scheduler: clock.scheduler }),
        tap((outcome) => this.#booked(outcome)),
        catchError((err: unknown) => {
          log.warn('cancel on stop failed; retrying within the stop deadline', { attempt: attempt + 1, err: String(err) });
          return of(undefined);
        }),
        concatMap(() => this.#desk.execution.openOrders().pipe(timeout({ first: remaining(), scheduler: clock.scheduler }))),
        map((orders): readonly VenueOrderState[] | undefined => orders.filter((o) => o.status !== 'MATCHED' && o.status !== 'CANCELED')),
        catchError((err: unknown) => {
          log.warn('listing open orders on stop failed; retrying within the stop deadline', { attempt: attempt + 1, err: String(err) });
          return of(undefined);
        }),
        concatMap((live) => {
          if (live !== undefined) last = live;
          if (live !== undefined && live.length === 0) return of<StopReport>({ verified: true, rounds: attempt + 1, live: [] });
          const wait = Math.min(STOP_BACKOFF_MS * 2 ** attempt, STOP_BACKOFF_MAX_MS);
          if (clock.now() + wait >= deadline) {
            return of<StopReport>({ verified: false, rounds: attempt + 1, live: this.#stillLive(last), ...(last === undefined ? { unlisted: true as const } : {}) });
          }
          return timer(wait, clock.scheduler).pipe(concatMap(() => round(attempt + 1)));
        }),
      );
    };
    return defer(() => {
      for (const record of this.#desk.tracker.open()) record.cancelWhenLive = true;
      return round(0);
    });
  }

  /**
   * The venue says it cancelled an order whose cancel of ours is held (the venue restarting): it is
   * ours, closed now. Returns whether it was held.
   */
  takeVenueCancel(record: OrderRecord): boolean {
    if (!this.#held.delete(record)) return false;
    this.#closeCancelled(record, this.#desk.clock.now(), 'cancelled');
    return true;
  }

  /** The venue's state changed: cancels held while it restarted go out when it takes cancels again. */
  venueChanged(): void {
    if (this.venue !== undefined && !this.venue.cancels) return;
    const held = [...this.#held];
    this.#held.clear();
    for (const record of held) this.request(record);
  }

  /** Ends the cancel stream (what waits in the batcher is still sent). */
  complete(): void {
    this.#out.complete();
  }

  /** The engine's subscriptions ended: nothing more is sent, calls waiting on an answer forget it. */
  #tearDown(): void {
    this.#out.close();
    for (const call of [...this.#calls]) call.unsubscribe();
    this.#calls.clear();
  }

  #cancelAll$(): Observable<CancelOutcome> {
    return defer(() => this.#desk.execution.cancelAll());
  }

  /** Books the orders a cancel on stop took out. */
  #booked(outcome: CancelOutcome): void {
    const { clock, tracker, metrics } = this.#desk;
    const now = clock.now();
    for (const id of outcome.canceled) {
      const record = tracker.byOrderId(id);
      if (record && OPEN_STATUSES.has(record.status)) {
        // an outcome-unknown order the venue cancelled was at the venue: found, so accepted
        if (record.status === 'SUBMIT_UNKNOWN') {
          metrics.inc(ENGINE_METRICS.accepted);
          metrics.inc(ENGINE_METRICS.reconciledFound);
        }
        metrics.inc(ENGINE_METRICS.canceled);
        tracker.transition(record, 'CANCELED', now, 'stop');
      }
    }
  }

  /**
   * What is still live after the stop: the venue's last listing, or, when no listing ever came,
   * the orders we hold open (the venue may hold them, nobody could say otherwise).
   */
  #stillLive(listed: readonly VenueOrderState[] | undefined): LiveOrder[] {
    if (listed) return listed.map((o) => ({ orderId: o.orderId, clientOrderId: o.clientOrderId, tokenId: o.tokenId, side: o.side, price: formatMicros(o.price), size: formatMicros(o.originalSize - o.sizeMatched) }));
    return this.#desk.tracker.open().map((r) => ({
      orderId: r.orderId,
      clientOrderId: r.request.clientOrderId,
      tokenId: r.request.tokenId,
      side: r.request.side,
      price: formatMicros(r.request.price),
      size: formatMicros(r.request.size - r.filled),
    }));
  }

  /**
   * One cancel call, its answer applied (the edge's Observable subscribed directly, not through
   * operators: every cancel of a quoting strategy passes here). A refused or failed cancel puts
   * the order back to what it was.
   */
  #cancelBatch(batch: readonly OrderRecord[]): void {
    const ids: string[] = [];
    for (const r of batch) if (r.orderId) ids.push(r.orderId);
    const call = new CancelCall(batch, this.#calls, this.#answers);
    const sub = this.#desk.execution.cancel(ids).subscribe(call);
    if (!call.ended && !sub.closed) {
      call.sub = sub;
      this.#calls.add(sub);
    }
  }

  #applied(batch: readonly OrderRecord[], outcome: CancelOutcome): void {
    const desk = this.#desk;
    this.venue?.cancelled();
    const tracker = desk.tracker;
    const now = desk.clock.now();
    const canceled = new Set(outcome.canceled);
    for (const record of batch) {
      // not in the answer but the venue said it cancelled it (the user channel): cancelled, as we asked
      if (canceled.has(record.orderId!) || (record.status === 'CANCEL_PENDING' && record.venueCancelledAt !== undefined)) {
        this.#closeCancelled(record, now, 'cancelled');
      } else if (record.status === 'CANCEL_PENDING') {
        // not cancelled: already matched or gone; its true state is asked for (a record that a
        // fill closed meanwhile stays closed). Taken back as live, a matched order would be
        // cancelled again and again until its fill came, and its shares offered again.
        const reason = outcome.notCanceled[record.orderId!] ?? 'not cancelled';
        if (this.notCancelled !== undefined) this.notCancelled(record, reason);
        else tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, reason);
      }
    }
  }

  /** A cancel of ours done: the record closed, the strategy told (`reason`). */
  #closeCancelled(record: OrderRecord, now: number, reason: string): void {
    const desk = this.#desk;
    desk.metrics.inc(ENGINE_METRICS.canceled);
    desk.tracker.transition(record, 'CANCELED', now, reason === 'cancelled' ? undefined : reason);
    desk.orderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason, tsInit: now });
  }

  #failed(batch: readonly OrderRecord[], err: unknown): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    // the venue restarts: these cancels go out again once it answers (venueChanged)
    const hold = this.venue?.refused(err) === true;
    for (const record of batch) {
      if (record.status !== 'CANCEL_PENDING') continue;
      if (record.venueCancelledAt !== undefined) {
        // the call failed, but the venue said it cancelled the order (the user channel)
        this.#closeCancelled(record, now, 'cancelled');
        continue;
      }
      desk.tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, 'cancel failed');
      if (hold) this.#held.add(record);
    }
    if (hold) {
      desk.log.warn('cancel refused by the venue\'s state; held until it answers again', { orders: batch.length, err: String(err) });
      this.venueChanged();
      return;
    }
    desk.log.warn('cancel failed; will retry on the next sync', { orders: batch.length, err: String(err) });
  }
}
