import { catchError, defer, EMPTY, finalize, from, map, mergeMap, of, tap, timeout, toArray, type Observable } from 'rxjs';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import { applyVenueState, LOOKUPS_IN_FLIGHT, SETTLE_LOOKUP_MS, settleWithVenue } from './venue-order-state.ts';

/**
 * Our open orders against the venue's: on every sync (periodic, after the heartbeat recovered, a
 * market cleared) the venue's listing is compared with our books, and at stop every order still
 * open in our books is looked up and settled. Orphans of this run are cancelled.
 */
export class OrderSync {
  readonly #desk: EngineDesk;
  readonly #canceller: OrderCanceller;
  readonly #runId: string;

  constructor(desk: EngineDesk, canceller: OrderCanceller, runId: string) {
    this.#desk = desk;
    this.#canceller = canceller;
    this.#runId = runId;
  }

  /**
   * Compares our open orders with the venue's: orders we think open but the venue does not list
   * take the venue's state; venue orders of this run that the engine does not track at all are
   * orphans and are cancelled. An order the engine tracks is never an orphan, whatever the
   * listing (taken before or after our own cancels) says of it: one we hold closed but the venue
   * lists live is looked up, and cancelled as ours if it still rests. A listing that comes back
   * once the engine began to stop is dropped (the stop cancels and checks everything itself).
   */
  sync(why: string): void {
    const desk = this.#desk;
    const { execution, tracker } = desk;
    if (desk.stopped) return;
    desk.subs.add(
      execution
        .openOrders()
        .pipe(
          tap((venueOrders) => {
            if (desk.stopped) return;
            const venueIds = new Set(venueOrders.map((o) => o.orderId));
            const orphans: string[] = [];
            for (const vo of venueOrders) {
              const record = tracker.byOrderId(vo.orderId);
              if (!record) {
                if (vo.clientOrderId?.startsWith(this.#runId)) orphans.push(vo.orderId);
              } else if (!OPEN_STATUSES.has(record.status)) {
                this.#recheckClosed(record);
              }
            }
            const gone: OrderRecord[] = [];
            for (const record of tracker.open()) {
              if (record.status !== 'LIVE' && record.status !== 'PARTIALLY_FILLED') continue;
              if (record.orderId && !venueIds.has(record.orderId)) gone.push(record);
            }
            if (gone.length > 0) this.#settleGone(gone, why);
            if (orphans.length > 0) {
              desk.metrics.inc(ENGINE_METRICS.orphansCancelled, undefined, orphans.length);
              desk.log.warn('cancelling orphan orders', { count: orphans.length, why });
              desk.subs.add(execution.cancel(orphans).pipe(catchError(() => EMPTY)).subscribe());
            }
          }),
          catchError((err: unknown) => {
            desk.log.warn('order sync failed', { err: String(err), why });
            return EMPTY;
          }),
        )
        .subscribe(),
    );
  }

  /**
   * Settles, at stop, every order still open in our books against the venue (after the stop's
   * cancel): each is looked up by its hash and takes the venue's state; one the venue never had
   * is rejected (never sent, or its post lost) or cancelled (it rested once). So no order is left
   * CANCEL_PENDING, SUBMIT_UNKNOWN or live in the store that the venue no longer holds; an
   * outcome-unknown order found counts as accepted. Emits once done (each lookup bounded on the
   * clock), never errors; orders whose lookup failed stay as they were, and are counted in the log.
   */
  settle$(): Observable<unknown> {
    const desk = this.#desk;
    return defer(() => {
      const open = desk.tracker.open().filter((r) => r.orderId !== undefined);
      if (open.length === 0) return of(undefined);
      return from(open).pipe(
        mergeMap(
          (record) =>
            defer(() => desk.execution.order(record.orderId!)).pipe(
              timeout({ first: SETTLE_LOOKUP_MS, scheduler: desk.clock.scheduler }),
              map((state) => {
                settleWithVenue(desk, record, state, 'at stop');
                return true;
              }),
              catchError(() => of(false)),
            ),
          LOOKUPS_IN_FLIGHT,
        ),
        toArray(),
        tap((done) => {
          const failed = done.filter((ok) => !ok).length;
          if (failed > 0) desk.log.warn('orders not settled with the venue at stop (lookup failed)', { count: failed });
        }),
      );
    });
  }

  /** An order the engine holds closed that the venue lists as open: looked up, cancelled if it rests. */
  #recheckClosed(record: OrderRecord): void {
    const desk = this.#desk;
    desk.subs.add(
      desk.execution
        .order(record.orderId!)
        .pipe(catchError(() => of(undefined)))
        .subscribe((state) => {
          if (!state || (state.status !== 'LIVE' && state.status !== 'DELAYED') || desk.stopped) return;
          desk.log.warn('an order closed in our books rests at the venue; cancelling it', { orderId: record.orderId, status: record.status });
          applyVenueState(desk, record, state);
          this.#canceller.request(record);
        }),
    );
  }

  /** Orders we hold live that the venue no longer lists: looked up and settled (warned: the venue cancelled them, not us). */
  #settleGone(records: readonly OrderRecord[], why: string): void {
    const desk = this.#desk;
    let cancelledByVenue = 0;
    desk.subs.add(
      from(records)
        .pipe(
          mergeMap((record) => desk.execution.order(record.orderId!).pipe(catchError(() => of(undefined)), map((state) => ({ record, state }))), LOOKUPS_IN_FLIGHT),
          tap(({ record, state }) => {
            if (!state || state.status === 'CANCELED' || state.status === 'UNMATCHED') cancelledByVenue++;
            settleWithVenue(desk, record, state, 'not at the venue');
          }),
          finalize(() => {
            if (cancelledByVenue > 0) desk.log.warn('orders cancelled at the venue without our cancel', { count: cancelledByVenue, why });
          }),
        )
        .subscribe(),
    );
  }
}
