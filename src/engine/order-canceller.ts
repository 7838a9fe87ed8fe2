import { catchError, defer, EMPTY, mergeMap, of, Subject, tap, type Observable } from 'rxjs';
import { batchWithin } from '../execution/batcher.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';

/** Most order ids in one cancel call of the engine. */
const CANCEL_BATCH = 100;
/** Cancel calls in flight at once. */
const CANCELS_IN_FLIGHT = 2;

/**
 * Cancels: requests are batched on the clock and sent to the edge; an order not yet at the venue
 * (waiting to be posted, or of unknown outcome) is marked to be cancelled once it is live. A
 * cancel the venue refuses puts the order back to what it was (the next sync settles it).
 */
export class OrderCanceller {
  readonly #desk: EngineDesk;
  readonly #cancels$ = new Subject<OrderRecord>();

  constructor(desk: EngineDesk) {
    this.#desk = desk;
  }

  /** Starts the cancel stream (batched on the clock, at most two calls in flight). */
  start(): void {
    const desk = this.#desk;
    desk.subs.add(
      this.#cancels$
        .pipe(
          batchWithin(desk.settings.maxBatchWaitMs, CANCEL_BATCH, desk.clock.scheduler),
          mergeMap((batch) => this.#cancelBatch(batch), CANCELS_IN_FLIGHT),
        )
        .subscribe(),
    );
  }

  /** Asks for an order to be cancelled: now when it is live, once it is live otherwise. */
  request(record: OrderRecord): void {
    if (!OPEN_STATUSES.has(record.status) || record.status === 'CANCEL_PENDING') return;
    if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN' || !record.orderId) {
      record.cancelWhenLive = true;
      return;
    }
    this.#desk.tracker.transition(record, 'CANCEL_PENDING', this.#desk.clock.now());
    this.#cancels$.next(record);
  }

  /** Cancels every open order of the account (on stop); emits once done, never errors. */
  cancelEverything$(): Observable<unknown> {
    const { execution, clock, tracker, counters, log } = this.#desk;
    return defer(() => {
      for (const record of tracker.open()) record.cancelWhenLive = true;
      return execution.cancelAll();
    }).pipe(
      tap((outcome) => {
        const now = clock.now();
        for (const id of outcome.canceled) {
          const record = tracker.byOrderId(id);
          if (record && OPEN_STATUSES.has(record.status)) {
            counters.canceled++;
            tracker.transition(record, 'CANCELED', now, 'stop');
          }
        }
      }),
      catchError((err: unknown) => {
        log.error('cancel-all on stop failed', { err: String(err) });
        return of(undefined);
      }),
    );
  }

  /** Ends the cancel stream (what waits in the batcher is still sent). */
  complete(): void {
    this.#cancels$.complete();
  }

  #cancelBatch(batch: readonly OrderRecord[]): Observable<unknown> {
    const desk = this.#desk;
    const { tracker } = desk;
    const ids = batch.map((r) => r.orderId!).filter(Boolean);
    return desk.execution.cancel(ids).pipe(
      tap((outcome) => {
        const now = desk.clock.now();
        const canceled = new Set(outcome.canceled);
        for (const record of batch) {
          if (canceled.has(record.orderId!)) {
            desk.counters.canceled++;
            tracker.transition(record, 'CANCELED', now);
            desk.orderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: 'cancelled', tsInit: now });
          } else if (record.status === 'CANCEL_PENDING') {
            // not cancelled: already filled or gone; the sync settles its true state (a record
            // that a fill closed meanwhile stays closed)
            tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, outcome.notCanceled[record.orderId!] ?? 'not cancelled');
          }
        }
      }),
      catchError((err: unknown) => {
        const now = desk.clock.now();
        for (const record of batch) {
          if (record.status === 'CANCEL_PENDING') tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, 'cancel failed');
        }
        desk.log.warn('cancel failed; will retry on the next sync', { orders: batch.length, err: String(err) });
        return EMPTY;
      }),
    );
  }
}
