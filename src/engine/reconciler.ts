import { catchError, EMPTY, finalize, from, mergeMap, of, tap, timeout, timer, type Observable } from 'rxjs';
import type { FillsSnapshot, VenueOrderState } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import { OrderSync } from './order-sync.ts';
import { TradesReadGate } from './trades-read-gate.ts';
import { applyVenueState, LOOKUP_ATTEMPTS, LOOKUPS_IN_FLIGHT, lookupOrder$, SETTLE_LOOKUP_MS, settleWithVenue } from './venue-order-state.ts';

/** A lookup of a delayed order that failed: looked up again. */
const STILL_DELAYED: VenueOrderState = Object.freeze({
  orderId: '',
  status: 'DELAYED',
  tokenId: '',
  conditionId: '',
  side: 'BUY',
  price: 0,
  originalSize: 0,
  sizeMatched: 0,
  clientOrderId: undefined,
});
/** Lookups of an order the venue holds for a matching delay before following it is left to the syncs. */
const DELAYED_LOOKUPS = 120;

/**
 * Settles what the engine does not know for sure: orders whose post may or may not have reached
 * the venue (looked up by their precomputed hash), orders of a previous life of the run, orders
 * the venue cancelled when the heartbeat was lost, and, on every sync, our open orders against
 * the venue's (orphans of this run are cancelled). Markets with orders under reconciliation take
 * no new orders (the engine gate RECONCILING reads `markets`).
 *
 * Its parts: the wait for a complete read of our trades (trades-read-gate.ts), the sync of our open
 * orders with the venue's and the settling at stop (order-sync.ts), and how one order takes the
 * venue's state (venue-order-state.ts); this class keeps the orders of unknown outcome.
 */
export class Reconciler {
  readonly #desk: EngineDesk;
  readonly #canceller: OrderCanceller;
  readonly #trades: TradesReadGate;
  readonly #orders: OrderSync;
  /** Markets (condition ids) with orders under reconciliation, with how many. */
  readonly #markets = new Map<string, number>();
  /** Outcome-unknown orders being looked up: each one's way out of the RECONCILING gate. */
  readonly #unknown = new Map<OrderRecord, () => void>();
  /**
   * The RECONCILING gate's view: a market with orders under reconciliation, or every market
   * while our trades at the venue have not been read in full since the start (or since the
   * heartbeat recovered).
   */
  readonly gate = {
    has: (conditionId: string): boolean => this.#trades.waiting !== undefined || this.#markets.has(conditionId),
    why: (conditionId: string): string | undefined => (this.#markets.has(conditionId) ? undefined : this.#trades.waiting),
  };

  constructor(desk: EngineDesk, canceller: OrderCanceller, runId: string) {
    this.#desk = desk;
    this.#canceller = canceller;
    this.#trades = new TradesReadGate(desk);
    this.#orders = new OrderSync(desk, canceller, runId);
  }

  /** No market is traded until a look at our trades reads every page (trades-read-gate.ts). */
  awaitSnapshot(why: string): void {
    this.#trades.awaitSnapshot(why);
  }

  /** One look at our trades: complete, it lifts the wait (trades-read-gate.ts). */
  snapshot(snapshot: FillsSnapshot): void {
    this.#trades.snapshot(snapshot);
  }

  /** Markets with orders under reconciliation (read by the RECONCILING gate). */
  get markets(): ReadonlyMap<string, number> {
    return this.#markets;
  }

  /**
   * Orders whose post may or may not have reached the venue: SUBMIT_UNKNOWN, their markets closed
   * to new orders, and a lookup by the precomputed hash after a delay. Found: adopted with the
   * venue's state. Not found: the venue never took it (REJECTED); the intent is not re-sent.
   */
  markUnknown(records: readonly OrderRecord[], reason: string): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    const looked: OrderRecord[] = [];
    for (const record of records) {
      desk.metrics.inc(ENGINE_METRICS.submitUnknown);
      desk.tracker.transition(record, 'SUBMIT_UNKNOWN', now, reason);
      desk.orderEvent(record.request.strategyId, { type: 'OrderSubmitUnknown', clientOrderId: record.request.clientOrderId, orderId: record.orderId ?? '', tsInit: now });
      // the venue already said it placed it (user channel): found without a lookup
      if (record.venuePlacedAt !== undefined && record.orderId !== undefined) {
        this.found(record, 0, 'the venue said it placed it (user channel)');
        continue;
      }
      this.#enter(record.request.conditionId);
      looked.push(record);
    }
    if (looked.length === 0) return;
    desk.log.warn('order outcome unknown; reconciling by hash', { orders: looked.length, reason });
    const lookups = looked.map((record) => {
      const market = record.request.conditionId;
      let left = false;
      // once: when the lookup ends, or when the venue says first that it has the order (found)
      const leave = (): void => {
        if (left) return;
        left = true;
        this.#unknown.delete(record);
        this.#leave(market);
      };
      this.#unknown.set(record, leave);
      return timer(desk.settings.reconcileDelayMs, desk.clock.scheduler).pipe(
        mergeMap(() => (record.status === 'SUBMIT_UNKNOWN' ? lookupOrder$(desk, record.orderId!, LOOKUP_ATTEMPTS) : EMPTY)),
        tap((state) => this.#adoptLookup(record, state)),
        catchError((err: unknown) => {
          desk.log.error('reconciliation failed; order left SUBMIT_UNKNOWN', { orderId: record.orderId, err: String(err) });
          return EMPTY;
        }),
        finalize(leave),
      );
    });
    desk.subs.add(from(lookups).pipe(mergeMap((l) => l, LOOKUPS_IN_FLIGHT)).subscribe());
  }

  /**
   * After a restart: every restored order that may still rest is looked up by its hash. Not at
   * the venue: it was never received (or is gone). At the venue and open: adopted or cancelled
   * as `policy` says. Nothing restored is ever posted again.
   */
  reconcileRestored(policy: 'cancel' | 'adopt'): void {
    const desk = this.#desk;
    const { tracker, clock } = desk;
    for (const record of tracker.open()) {
      if (!record.orderId) {
        tracker.transition(record, 'CANCELED', clock.now(), 'never sent before the restart');
        continue;
      }
      const market = record.request.conditionId;
      this.#enter(market);
      desk.subs.add(
        lookupOrder$(desk, record.orderId, LOOKUP_ATTEMPTS)
          .pipe(
            catchError((err: unknown) => {
              desk.log.error('restart reconciliation failed', { orderId: record.orderId, err: String(err) });
              return EMPTY;
            }),
            finalize(() => this.#leave(market)),
          )
          .subscribe((state) => {
            const now = clock.now();
            if (!state) {
              tracker.transition(record, 'REJECTED', now, 'not at the venue after the restart');
              return;
            }
            // a post whose outcome the previous life never learned: the venue took it
            if (record.status === 'SUBMIT_UNKNOWN') desk.metrics.inc(ENGINE_METRICS.accepted);
            this.applyVenueState(record, state);
            if (state.sizeMatched > record.filled) tracker.setFilled(record, state.sizeMatched, now);
            if (OPEN_STATUSES.has(record.status)) {
              desk.metrics.inc(ENGINE_METRICS.reconciledFound);
              if (policy === 'cancel') this.#canceller.request(record);
            }
          }),
      );
    }
  }

  /**
   * An order the venue answered DELAYED (its market's matching delay): tracked LIVE and looked up
   * every `reconcileDelayMs` until the venue says what became of it: matched (filled), resting,
   * or UNMATCHED / cancelled (the strategy hears OrderCanceled). The order is never sent again;
   * its fills arrive as any other's.
   */
  followDelayed(record: OrderRecord): void {
    const desk = this.#desk;
    const orderId = record.orderId;
    if (orderId === undefined) return;
    const look = (left: number): Observable<VenueOrderState | undefined> =>
      timer(desk.settings.reconcileDelayMs, desk.clock.scheduler).pipe(
        mergeMap(() => desk.execution.order(orderId).pipe(catchError(() => of(STILL_DELAYED)))),
        mergeMap((state) => (state?.status === 'DELAYED' && left > 1 && OPEN_STATUSES.has(record.status) && !desk.stopped ? look(left - 1) : of(state))),
      );
    desk.subs.add(
      look(DELAYED_LOOKUPS).subscribe((state) => {
        if (state?.status === 'DELAYED') {
          if (OPEN_STATUSES.has(record.status) && !desk.stopped) desk.log.warn('order still delayed at the venue; left to the order syncs', { orderId });
          return;
        }
        settleWithVenue(desk, record, state, 'unmatched after the matching delay');
      }),
    );
  }

  /**
   * An order the venue did not cancel when we asked (its reason: matched already, not found):
   * still CANCEL_PENDING, it is looked up and takes the venue's state: matched (FILLED, its fills
   * on their way), resting (LIVE again: a later diff may cancel it again), or gone. When the
   * lookup fails it goes back to LIVE (or PARTIALLY_FILLED) and the next sync settles it.
   */
  notCancelled(record: OrderRecord, reason: string): void {
    const desk = this.#desk;
    const orderId = record.orderId;
    const back = (why: string): void => {
      if (record.status === 'CANCEL_PENDING') desk.tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', desk.clock.now(), why);
    };
    if (orderId === undefined) return back(reason);
    desk.subs.add(
      lookupOrder$(desk, orderId, 2)
        .pipe(timeout({ first: SETTLE_LOOKUP_MS, scheduler: desk.clock.scheduler }))
        .subscribe({
          next: (state) => {
            if (record.status !== 'CANCEL_PENDING') return;
            desk.transaction(() => settleWithVenue(desk, record, state, `not cancelled (${reason}): venue state`));
          },
          error: (err: unknown) => {
            desk.log.warn('looking up an order the venue did not cancel failed; taken as live until the next sync', { orderId, reason, err: String(err) });
            desk.transaction(() => back(reason));
          },
        }),
    );
  }

  /** The venue cancels every open order when the heartbeat is lost: ours are taken as cancelled. */
  heartbeatLost(): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    desk.metrics.inc(ENGINE_METRICS.heartbeatLost);
    for (const record of desk.tracker.open()) {
      if (record.status === 'LIVE' || record.status === 'PARTIALLY_FILLED' || record.status === 'CANCEL_PENDING') {
        desk.tracker.transition(record, 'CANCELED', now, 'cancelled by the venue: heartbeat lost');
        desk.orderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: 'heartbeat lost', tsInit: now });
      }
    }
    desk.log.warn('heartbeat lost: open orders taken as cancelled by the venue');
  }

  /** Compares our open orders with the venue's; orphans of this run are cancelled (order-sync.ts). */
  sync(why: string): void {
    this.#orders.sync(why);
  }

  /** Settles, at stop, every order still open in our books against the venue (order-sync.ts). */
  settle$(): Observable<unknown> {
    return this.#orders.settle$();
  }

  /**
   * The venue cancelled one of our orders and the engine found no reason of its own for it
   * (venue-order-updates.ts): it takes the venue's state, the strategy hears OrderCanceled (`why`).
   */
  venueCancelled(record: OrderRecord, state: VenueOrderState, why: string): void {
    settleWithVenue(this.#desk, record, state, why);
  }

  /**
   * The venue says it has an order whose post had no answer (the user channel's PLACEMENT or
   * UPDATE): accepted now, its lookup dropped and its market open again. It is taken as resting
   * (partly filled when the venue says some matched): its fills book the rest, as a lookup's
   * adoption would. Returns whether the order was waiting for it.
   */
  found(record: OrderRecord, sizeMatched: number, why: string): boolean {
    const desk = this.#desk;
    if (record.status !== 'SUBMIT_UNKNOWN') return false;
    const now = desk.clock.now();
    desk.metrics.inc(ENGINE_METRICS.accepted);
    desk.metrics.inc(ENGINE_METRICS.reconciledFound);
    desk.tracker.transition(record, sizeMatched > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, why);
    desk.orderEvent(record.request.strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: record.orderId!, tsInit: now });
    this.#unknown.get(record)?.();
    if (record.cancelWhenLive) this.#canceller.request(record);
    return true;
  }

  /** Our record takes the venue's view of the order (venue-order-state.ts). */
  applyVenueState(record: OrderRecord, state: VenueOrderState): void {
    applyVenueState(this.#desk, record, state);
  }

  #adoptLookup(record: OrderRecord, state: VenueOrderState | undefined): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    const strategyId = record.request.strategyId;
    if (record.status !== 'SUBMIT_UNKNOWN') return;
    if (!state) {
      desk.tracker.transition(record, 'REJECTED', now, 'not found at the venue after an outcome-unknown post');
      desk.metrics.inc(ENGINE_METRICS.reconciledMissing);
      desk.orderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: 'not received by the venue', tsInit: now });
      return;
    }
    // the venue took it: an accepted order, found by reconciliation
    desk.metrics.inc(ENGINE_METRICS.accepted);
    desk.metrics.inc(ENGINE_METRICS.reconciledFound);
    this.applyVenueState(record, state);
    desk.orderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: state.orderId, tsInit: now });
    // a cancel asked for while the outcome was unknown is carried out now that the order is found
    if (record.cancelWhenLive) this.#canceller.request(record);
  }

  #enter(market: string): void {
    this.#markets.set(market, (this.#markets.get(market) ?? 0) + 1);
  }

  #leave(market: string): void {
    const left = (this.#markets.get(market) ?? 1) - 1;
    if (left <= 0) this.#markets.delete(market);
    else this.#markets.set(market, left);
  }
}
