import { catchError, concatMap, EMPTY, finalize, merge, mergeMap, Observable, race, Subject, take, tap, timer, of, type Subscriber } from 'rxjs';
import { ClobotError, isOutcomeUnknown, RateLimitError, VenueRejectError } from '../core/errors.ts';
import { batchWithin } from '../execution/batcher.ts';
import type { PreparedOrder, SubmitResult } from '../execution/execution-client.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { Reconciler } from './reconciler.ts';

/** How often a throttled (429) or paused (503) batch is posted before its orders count as rejected. */
export const MAX_SUBMIT_ATTEMPTS = 6;

/** Retry-After of a definite, retryable refusal (429, 503), else undefined. */
function retryableRefusal(err: unknown): number | undefined {
  if (err instanceof RateLimitError) return Math.max(100, err.retryAfterMs ?? 1_000);
  if (err instanceof VenueRejectError && (err.status === 429 || err.status === 503)) return Math.max(100, err.retryAfterMs ?? 1_000);
  return undefined;
}

/**
 * Lets the post go once the hashes are committed; errors when they were rolled back. A module
 * function, not a named arrow per batch (each costs a property definition: tsx keeps names).
 */
function goOnCommit(subscriber: Subscriber<void>, committed: boolean): void {
  if (!committed) {
    subscriber.error(new ClobotError('the order hashes were not committed to the store; the orders were not sent'));
    return;
  }
  subscriber.next();
  subscriber.complete();
}

/**
 * The order path out: approved orders are batched on the clock (at most MAX_ORDERS_PER_BATCH, or
 * posted at once when maxBatchWaitMs is 0), prepared (hashed, signed), their hashes stored and
 * committed BEFORE the post, then posted with at most maxInFlightBatches in flight. A 429 or 503
 * posts the same signed orders again after Retry-After; an outcome-unknown post goes to the
 * reconciler; every answer is applied to the order records.
 */
export class OrderSubmitter {
  readonly #desk: EngineDesk;
  readonly #canceller: OrderCanceller;
  readonly #reconciler: Reconciler;
  readonly #orders$ = new Subject<OrderRecord>();
  /** Whole batches that skip the batcher's timer (maxBatchWaitMs 0: one strategy call, one post). */
  readonly #batches$ = new Subject<OrderRecord[]>();
  /** Emits when the last in-flight order batch is answered. */
  readonly #settled$ = new Subject<void>();
  readonly #batchSize: number;
  #inFlight = 0;

  constructor(desk: EngineDesk, canceller: OrderCanceller, reconciler: Reconciler) {
    this.#desk = desk;
    this.#canceller = canceller;
    this.#reconciler = reconciler;
    this.#batchSize = Math.max(1, Math.min(desk.settings.maxBatchSize, MAX_ORDERS_PER_BATCH));
  }

  /** Number of order batches still waiting for an answer. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts the order path: batch on the clock, prepare, commit, post, apply the results. */
  start(): void {
    const { settings, clock, subs } = this.#desk;
    subs.add(
      merge(this.#orders$.pipe(batchWithin(settings.maxBatchWaitMs, this.#batchSize, clock.scheduler)), this.#batches$)
        .pipe(mergeMap((batch) => this.#submitBatch(batch), settings.maxInFlightBatches))
        .subscribe(),
    );
  }

  /** Queues approved orders (one strategy call's worth) for posting. */
  submit(approved: readonly OrderRecord[]): void {
    if (this.#desk.settings.maxBatchWaitMs <= 0) {
      // no waiting for more: what this call produced goes out now, in posts of at most 15
      const size = this.#batchSize;
      for (let i = 0; i < approved.length; i += size) this.#batches$.next(approved.slice(i, i + size));
    } else {
      for (const record of approved) this.#orders$.next(record);
    }
  }

  /** Emits once no order batch is in flight (at once when none is), or after `maxMs` on the clock. */
  drain$(maxMs: number): Observable<unknown> {
    if (this.#inFlight === 0) return of(undefined);
    return race(this.#settled$, timer(maxMs, this.#desk.clock.scheduler)).pipe(take(1));
  }

  /** Ends the order streams (a batch waiting in the batcher is flushed, then dropped as cancelled). */
  complete(): void {
    this.#orders$.complete();
    this.#batches$.complete();
  }

  #submitBatch(batch: readonly OrderRecord[]): Observable<unknown> {
    const desk = this.#desk;
    const live = this.#dropCancelled(batch);
    if (live.length === 0) return EMPTY;
    this.#inFlight++;
    return desk.execution.prepare(live.map((r) => r.request)).pipe(
      tap((orders) => {
        // the hash is stored BEFORE the post: a restart finds and reconciles it by that hash
        const at = desk.clock.now();
        desk.transaction(() => orders.forEach((p, i) => desk.tracker.setOrderId(live[i]!, p.orderId, at)));
        desk.counters.batches++;
      }),
      // the hashes are committed before the post (the tick's transaction may still be open)
      concatMap((orders) => this.#committed().pipe(concatMap(() => this.#send(live, orders, 1)))),
      catchError((err: unknown) => {
        // preparing (building, signing) or storing the hashes failed: nothing left the process
        this.#refuse(live, err);
        return EMPTY;
      }),
      finalize(() => {
        this.#inFlight--;
        if (this.#inFlight === 0) this.#settled$.next();
      }),
    );
  }

  /** Emits once what the engine wrote so far is committed; errors when it was rolled back. */
  #committed(): Observable<void> {
    return new Observable<void>((subscriber) => {
      const persistence = this.#desk.persistence;
      if (persistence?.afterCommit) persistence.afterCommit((committed) => goOnCommit(subscriber, committed));
      else goOnCommit(subscriber, true);
    });
  }

  /** Orders cancelled while they waited (in the batcher or for a retry) never leave. */
  #dropCancelled(batch: readonly OrderRecord[]): OrderRecord[] {
    const desk = this.#desk;
    const now = desk.clock.now();
    return batch.filter((r) => {
      if (!r.cancelWhenLive) return true;
      desk.tracker.transition(r, 'CANCELED', now, 'cancelled before submission');
      desk.orderEvent(r.request.strategyId, { type: 'OrderCanceled', clientOrderId: r.request.clientOrderId, orderId: undefined, reason: 'cancelled before submission', tsInit: now });
      return false;
    });
  }

  /**
   * Posts prepared orders. A 429 or a 503 (trading paused) is a definite "not taken": the same
   * signed orders (same hashes, so never a duplicate) are posted again after the venue's
   * Retry-After, up to MAX_SUBMIT_ATTEMPTS, so a throttling storm loses no intent.
   */
  #send(records: readonly OrderRecord[], prepared: readonly PreparedOrder[], attempt: number): Observable<unknown> {
    const desk = this.#desk;
    if (attempt === 1) desk.counters.submitted += prepared.length;
    return desk.execution.submit(prepared).pipe(
      tap((results) => desk.transaction(() => this.#applyResults(records, results))),
      catchError((err: unknown) => {
        const retryAfterMs = retryableRefusal(err);
        if (retryAfterMs !== undefined && attempt < MAX_SUBMIT_ATTEMPTS && !desk.stopped) {
          desk.counters.resubmitted += prepared.length;
          desk.log.warn('batch throttled; posting the same orders again', { orders: prepared.length, retryAfterMs, attempt });
          return timer(retryAfterMs, desk.clock.scheduler).pipe(
            concatMap(() => {
              const still = this.#dropCancelled(records);
              if (still.length === 0) return EMPTY;
              const keep = new Set(still);
              return this.#send(still, prepared.filter((_, i) => keep.has(records[i]!)), attempt + 1);
            }),
          );
        }
        if (prepared.length > 0 && isOutcomeUnknown(err)) this.#reconciler.markUnknown(records, err instanceof Error ? err.message : String(err));
        else this.#refuse(records, err);
        return EMPTY;
      }),
    );
  }

  #applyResults(records: readonly OrderRecord[], results: readonly SubmitResult[]): void {
    const desk = this.#desk;
    const { tracker, counters } = desk;
    const now = desk.clock.now();
    records.forEach((record, i) => {
      const result = results[i];
      const strategyId = record.request.strategyId;
      if (!result) {
        this.#reconciler.markUnknown([record], 'no result for this item');
        return;
      }
      if (result.ok) {
        counters.accepted++;
        desk.consecutiveRejects = 0;
        if (record.orderId !== result.orderId && result.orderId) tracker.setOrderId(record, result.orderId, now);
        // a matched order may already be filled; fills arrive through fills$
        if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN') {
          const next = result.status === 'MATCHED' && record.filled >= record.request.size ? 'FILLED' : record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE';
          tracker.transition(record, next, now, result.status === 'DELAYED' ? 'delayed by the venue (matching delay)' : undefined);
        }
        // held for the market's matching delay: followed until it matched or ended, never sent again
        if (result.status === 'DELAYED') this.#reconciler.followDelayed(record);
        else if ((record.request.orderType === 'FAK' || record.request.orderType === 'FOK') && record.status !== 'FILLED') {
          // FAK/FOK never rest: once the venue has answered, what did not fill is gone (its
          // fills still arrive through fills$ and are booked on this record)
          tracker.transition(record, 'CANCELED', now, 'FAK/FOK: unfilled remainder killed at the venue');
        }
        desk.orderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: result.orderId, tsInit: now });
        if (record.cancelWhenLive) this.#canceller.request(record);
      } else {
        counters.rejected++;
        desk.consecutiveRejects++;
        tracker.transition(record, 'REJECTED', now, result.errorMsg);
        desk.orderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: result.errorMsg, tsInit: now });
      }
    });
  }

  /** The batch was refused as a whole (4xx, 503 or 429 past the retries) or never sent. */
  #refuse(records: readonly OrderRecord[], err: unknown): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    const reason = err instanceof VenueRejectError ? `${err.status} ${err.venueMessage}` : err instanceof RateLimitError ? `429 ${err.message}` : err instanceof Error ? err.message : String(err);
    for (const record of records) {
      desk.counters.rejected++;
      desk.tracker.transition(record, 'REJECTED', now, reason);
      desk.orderEvent(record.request.strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason, tsInit: now });
    }
    if (!(err instanceof RateLimitError)) desk.consecutiveRejects += records.length;
    desk.log.warn('batch refused', { orders: records.length, reason });
  }
}
