import { concatMap, of, tap } from 'rxjs';
import type { EngineDesk } from './engine-desk.ts';
import type { StopReport } from './engine-summary.ts';
import type { FillBook } from './fill-book.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { OrderSubmitter } from './order-submitter.ts';
import type { EngineLogger } from './ports.ts';
import type { Reconciler } from './reconciler.ts';

/** Longest wait in `stop()` for order posts still in flight to be answered, ms (clock time). */
export const DEFAULT_DRAIN_MS = 10_000;
/** Default of `stop({ deadlineMs })`: how long the stop cancels and checks the venue, ms (clock time). */
export const DEFAULT_STOP_DEADLINE_MS = 30_000;

/** `TradingEngine.stop`'s options. */
export interface StopOptions {
  readonly keepOrders?: boolean;
  readonly drainMs?: number;
  readonly deadlineMs?: number;
}

/** The parts whose orders and fills a stop settles. */
export interface StopParts {
  readonly desk: EngineDesk;
  readonly submitter: OrderSubmitter;
  readonly canceller: OrderCanceller;
  readonly fills: FillBook;
  readonly reconciler: Reconciler;
  readonly log: EngineLogger;
}

/**
 * Our orders at a stop (the strategies stopped, the engine marked stopped): waits (up to
 * `drainMs` of clock time) for the order batches in flight to be answered, cancels our open
 * orders unless `keepOrders` (retried and checked against the venue's open orders for up to
 * `deadlineMs`; the outcome goes to `report`), takes a last look at our fills, and settles what is
 * still open in our books with the venue. Resolves when done, never rejects.
 */
export function settleOrdersAtStop(parts: StopParts, options: StopOptions, report: (report: StopReport) => void): Promise<void> {
  const { desk, submitter, canceller, fills, reconciler, log } = parts;
  if (!options.keepOrders) {
    // orders not answered yet are cancelled once the venue acknowledges them; orders waiting
    // to be posted again (after a 429) are not posted again
    for (const record of desk.tracker.open()) record.cancelWhenLive = true;
  }
  // one chain on the clock (no promise hop between the drain and the cancel-all, so a
  // simulated clock advanced by the caller runs both)
  return new Promise<void>((resolve) => {
    submitter
      .drain$(options.drainMs ?? DEFAULT_DRAIN_MS)
      .pipe(
        concatMap(() =>
          options.keepOrders
            ? of(undefined)
            : canceller.cancelAndVerify$(options.deadlineMs ?? DEFAULT_STOP_DEADLINE_MS).pipe(
                tap((outcome) => {
                  report(outcome);
                  if (!outcome.verified) log.error('orders still live at the venue after the stop', { count: outcome.live.length, orders: outcome.live });
                }),
              ),
        ),
        // a last look at our fills: one in the moments before the cancel-all is booked too
        concatMap(() => fills.flush$()),
        // what is still open in our books takes the venue's state (no CANCEL_PENDING or
        // SUBMIT_UNKNOWN left that the venue no longer holds)
        concatMap(() => reconciler.settle$()),
      )
      .subscribe({ complete: () => resolve(), error: () => resolve() });
  });
}

/** Orders still waiting in the batcher at the end of a stop (never prepared, so never sent): they will not go out now. */
export function cancelUnsent(desk: EngineDesk, now: number): void {
  for (const record of desk.tracker.open()) {
    if (record.status !== 'PENDING_SUBMIT' || record.orderId !== undefined) continue;
    desk.tracker.transition(record, 'CANCELED', now, 'not sent: the engine stopped');
    desk.orderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: undefined, reason: 'not sent: the engine stopped', tsInit: now });
  }
}
