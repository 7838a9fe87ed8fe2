import type { ConditionId } from '../core/types.ts';
import type { VenueOrderState, VenueOrderUpdate } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { MarketLook } from './ports.ts';
import type { Reconciler } from './reconciler.ts';

/** The label of a venue cancel the engine found no reason of its own for. */
export const VENUE_CANCEL_REASON = 'cancelled at the venue (user channel)';

/** What the engine made of the venue's order messages, for the summary and the tests. */
export interface VenueOrderUpdateCounts {
  /** PLACEMENT / UPDATE that found an order whose post had no answer (accepted without a lookup). */
  found: number;
  /** CANCELLATIONs the engine took under a reason of its own (our cancel, the stop, a clear, a close). */
  cancelsExplained: number;
  /** CANCELLATIONs taken as the venue's own (no reason of ours found): VENUE_CANCEL_REASON. */
  cancelsUnexplained: number;
}

interface Waiting {
  readonly record: OrderRecord;
  readonly state: VenueOrderState;
}

/**
 * What the engine makes of the venue's messages about our orders (the user channel's `order`
 * messages, docs/user-channel.md). Each is a venue fact written on the order's record; what it
 * means is the engine's to say:
 *
 * - `placed` (PLACEMENT) and `matched` (UPDATE) prove the venue has the order: one whose post
 *   had no answer (SUBMIT_UNKNOWN) is found at once, without its lookup; one whose answer is
 *   still out keeps the fact, so a lost answer finds it at once (Reconciler.markUnknown). The
 *   size an UPDATE says matched does not move the order's filled size: the trade messages of the
 *   same match book it (see docs/user-channel.md, "What drives state").
 * - `cancelled` (CANCELLATION): the engine takes it under its own reason when it has one: a
 *   cancel of ours is out (CANCEL_PENDING: the canceller's answer labels it; one held while the
 *   venue restarts is closed as ours), or the run is stopping (the stop's cancel-all labels it).
 *   Otherwise the order waits, open, while the engine looks for its reason: the market is looked
 *   at now (`look`: its close, its resolution, its game start, handled as if polled, each closing
 *   our orders there under its own label); once that look is done (or `reconcileDelayMs` passed)
 *   an order still open is taken as the venue's own cancel (VENUE_CANCEL_REASON). The wait keeps
 *   a strategy from quoting again into a market the venue has just closed or cleared.
 */
export class VenueOrderUpdates {
  readonly counts: VenueOrderUpdateCounts = { found: 0, cancelsExplained: 0, cancelsUnexplained: 0 };
  readonly #desk: EngineDesk;
  readonly #reconciler: Reconciler;
  readonly #canceller: OrderCanceller;
  readonly #look: MarketLook | undefined;
  /** Venue cancels waiting for the engine's own reason, by market (one look per market at a time). */
  readonly #waiting = new Map<ConditionId, Waiting[]>();

  constructor(desk: EngineDesk, reconciler: Reconciler, canceller: OrderCanceller, look?: MarketLook) {
    this.#desk = desk;
    this.#reconciler = reconciler;
    this.#canceller = canceller;
    this.#look = look;
  }

  /** One message of the venue about one of our orders (call inside a transaction). */
  heard(update: VenueOrderUpdate): void {
    const record = this.#desk.tracker.byOrderId(update.state.orderId);
    if (record === undefined) return; // not ours, or forgotten: the syncs settle the venue's orders
    if (update.event === 'cancelled') this.#cancelled(record, update);
    else this.#placed(record, update);
  }

  #placed(record: OrderRecord, update: VenueOrderUpdate): void {
    if (record.status === 'SUBMIT_UNKNOWN') {
      if (this.#reconciler.found(record, update.state.sizeMatched, `the venue said it ${update.event === 'placed' ? 'placed' : 'matched'} it (user channel)`)) this.counts.found++;
      return;
    }
    // the post's answer is still out: if it is lost, the order is found by this
    if (record.status === 'PENDING_SUBMIT') record.venuePlacedAt ??= update.at;
  }

  #cancelled(record: OrderRecord, update: VenueOrderUpdate): void {
    if (!OPEN_STATUSES.has(record.status)) return; // taken already, under the engine's own label
    record.venueCancelledAt = update.at;
    const desk = this.#desk;
    // ours: the canceller's answer (or the stop's cancel-all) labels it; a cancel of ours held
    // while the venue restarts is closed now as ours
    if (record.status === 'CANCEL_PENDING' || desk.stopped || this.#canceller.takeVenueCancel(record)) {
      this.counts.cancelsExplained++;
      return;
    }
    const market = record.request.conditionId;
    const waiting = this.#waiting.get(market);
    if (waiting !== undefined) {
      waiting.push({ record, state: update.state });
      return;
    }
    const group: Waiting[] = [{ record, state: update.state }];
    this.#waiting.set(market, group);
    let decided = false;
    const decide = (): void => {
      if (decided) return;
      decided = true;
      timer.unsubscribe();
      this.#waiting.delete(market);
      if (!desk.stopped) desk.transaction(() => this.#decide(group));
    };
    const timer = desk.clock.scheduler.schedule(decide, desk.settings.reconcileDelayMs);
    desk.subs.add(timer);
    if (this.#look === undefined) return;
    this.#look(market, update.at).then(decide, (err: unknown) => {
      desk.log.warn('looking at a market after a venue cancel failed', { conditionId: market, err: String(err) });
      decide();
    });
  }

  /** The look is done: each order still open (no reason of ours took it) is the venue's own cancel. */
  #decide(group: readonly Waiting[]): void {
    let unexplained = 0;
    for (const { record, state } of group) {
      if (record.status !== 'LIVE' && record.status !== 'PARTIALLY_FILLED') {
        if (!OPEN_STATUSES.has(record.status)) this.counts.cancelsExplained++;
        continue;
      }
      this.#reconciler.venueCancelled(record, state, VENUE_CANCEL_REASON);
      unexplained++;
    }
    this.counts.cancelsUnexplained += unexplained;
    if (unexplained > 0) this.#desk.log.warn('orders cancelled at the venue without a cancel of ours or a reason the engine knows', { count: unexplained, conditionId: group[0]!.record.request.conditionId });
  }
}
