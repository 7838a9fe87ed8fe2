import { catchError, defer, mergeMap, timer, type Observable } from 'rxjs';
import type { VenueOrderState } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';

/**
 * How one of our orders takes the venue's word on it: the lookup by its hash (retried on the
 * clock), the venue's status mapped onto ours, and the settling of an open order with what the
 * venue says (filled size, status, the strategy's event). Shared by the reconciler (orders of
 * unknown outcome) and the order sync (our open orders against the venue's).
 */

/** Lookups of one order before reconciliation gives up on it. */
export const LOOKUP_ATTEMPTS = 5;
/** Orders looked up at once. */
export const LOOKUPS_IN_FLIGHT = 4;
/** Longest a bounded lookup (at stop, of an order not cancelled) waits, ms (clock time). */
export const SETTLE_LOOKUP_MS = 5_000;

/** Looks one order up by its hash; a failed lookup is tried again after `reconcileDelayMs`, `attempts` times in all. */
export function lookupOrder$(desk: EngineDesk, orderId: string, attempts: number): Observable<VenueOrderState | undefined> {
  return defer(() => desk.execution.order(orderId)).pipe(
    catchError((err: unknown) => {
      if (attempts <= 1) throw err;
      return timer(desk.settings.reconcileDelayMs, desk.clock.scheduler).pipe(mergeMap(() => lookupOrder$(desk, orderId, attempts - 1)));
    }),
  );
}

/** Our record takes the venue's view of the order. */
export function applyVenueState(desk: EngineDesk, record: OrderRecord, state: VenueOrderState): void {
  const { tracker, clock } = desk;
  const now = clock.now();
  switch (state.status) {
    case 'LIVE':
    case 'DELAYED':
      tracker.transition(record, state.sizeMatched > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, 'venue state');
      break;
    case 'MATCHED':
      tracker.transition(record, 'FILLED', now, 'venue state');
      break;
    case 'CANCELED':
    case 'UNMATCHED':
      tracker.transition(record, 'CANCELED', now, 'venue state');
      break;
  }
}

/** One open order takes what the venue says of it (undefined: the venue does not have it). */
export function settleWithVenue(desk: EngineDesk, record: OrderRecord, state: VenueOrderState | undefined, why: string): void {
  const { tracker } = desk;
  if (!OPEN_STATUSES.has(record.status)) return;
  const now = desk.clock.now();
  const strategyId = record.request.strategyId;
  const unknown = record.status === 'SUBMIT_UNKNOWN' || record.status === 'PENDING_SUBMIT';
  if (!state) {
    tracker.transition(record, unknown ? 'REJECTED' : 'CANCELED', now, why);
    if (unknown) {
      desk.metrics.inc(ENGINE_METRICS.reconciledMissing);
      desk.orderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: `not received by the venue (${why})`, tsInit: now });
    } else {
      desk.orderEvent(strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: why, tsInit: now });
    }
    return;
  }
  if (unknown) {
    desk.metrics.inc(ENGINE_METRICS.accepted);
    desk.metrics.inc(ENGINE_METRICS.reconciledFound);
    desk.orderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: state.orderId, tsInit: now });
  }
  if (state.sizeMatched > record.filled) tracker.setFilled(record, Math.min(record.request.size, state.sizeMatched), now);
  applyVenueState(desk, record, state);
  if (!OPEN_STATUSES.has(record.status) && (state.status === 'CANCELED' || state.status === 'UNMATCHED')) {
    desk.orderEvent(strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: why, tsInit: now });
  }
}
