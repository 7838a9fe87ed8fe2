import type { MarketEvent } from '../core/events.ts';
import type { JournaledEvent, EnginePersistence, EngineRestore } from '../engine/ports.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { FillEvent } from '../core/events.ts';
import { IdAllocator } from './id-allocator.ts';
import { PendingCreations } from './pending-creations.ts';
import type { RunStore } from './run-store.ts';
import type { LoadedRun } from './store-types.ts';
import { ACCOUNT_CURSOR, REWARDS_CURSOR } from './store-status.ts';
import { parseRewardsNote } from '../engine/reward-accrual.ts';
import { settlementNote, settlementsOf } from './settlements.ts';

/** Name of the cursor holding the newest fill time seen (the fills poller resumes there). */
export const FILLS_CURSOR = 'fills.newestTsEvent';

/**
 * The engine's persistence over a RunStore: orders written when created and on every change
 * (with their hash before the post), fills, the heartbeat chain, the journal of every engine
 * event and every market event that changed the engine's cache (those on a later turn of the
 * event loop, not in the tick's commit: see deferred-journal.ts), and client order ids from
 * durably reserved blocks.
 * Inside a transaction an order created is written once, when the transaction ends, with what
 * changed since that left its status alone (the hash set before the post): one INSERT instead of
 * an INSERT and an UPDATE per order, and the same rows once committed (pending-creations.ts).
 */
export function storePersistence(store: RunStore, blockSize = 1_000): EnginePersistence {
  const ids = new IdAllocator(store, blockSize);
  const creations = new PendingCreations(store);
  let newestFill = Number(store.cursor(FILLS_CURSOR) ?? 0);
  return {
    nextClientSeq: () => ids.next(),
    transaction: <T>(fn: () => T): T => store.transaction(() => creations.within(fn)),
    afterCommit: (callback: (committed: boolean) => void) => store.afterCommit(callback),
    orderCreated(record: OrderRecord, at: number) {
      if (!creations.hold(record, at)) store.saveOrder({ request: record.request, status: record.status, orderId: record.orderId, filled: record.filled }, at);
    },
    orderChanged(record: OrderRecord, at: number, reason?: string) {
      if (creations.merge(record, at, reason)) return;
      store.updateOrder(record.request.clientOrderId, { status: record.status, orderId: record.orderId, filled: record.filled, at, reason });
    },
    fill(fill: FillEvent) {
      store.saveFill(fill);
      if (fill.tsEvent > newestFill) {
        newestFill = fill.tsEvent;
        store.setCursor(FILLS_CURSOR, String(newestFill), fill.tsInit);
      }
    },
    voidFill(fill: FillEvent, at: number) {
      store.voidFill(fill, at);
    },
    heartbeatId(id: string, at: number) {
      store.setHeartbeatId(id, at);
    },
    account(note) {
      // the cash as a balance anchor (fills stored later move it), the rest for `clobot status`
      if (note.cash !== undefined) store.setBalance(note.cash, note.at, note.source === 'venue' ? 'venue balance' : 'configured start');
      store.setCursor(ACCOUNT_CURSOR, JSON.stringify({ at: note.at, source: note.source, marks: note.marks, outside: note.outside, ...(note.sets === undefined ? {} : { sets: note.sets }) }), note.at);
    },
    journal(event: JournaledEvent) {
      store.journal(event);
    },
    rewards(note) {
      store.setCursor(REWARDS_CURSOR, JSON.stringify(note), note.at);
    },
    settlement(s) {
      const note = settlementNote(s);
      store.setCursor(note.name, note.value, s.at);
    },
    marketEvent(event: MarketEvent) {
      // off the order path: written on a later turn, with the others of that turn, in one commit
      store.journalLater({ type: 'market', event });
    },
  };
}

/** What a restarted engine resumes from, out of a store's saved state. */
export function restoreFromStore(store: RunStore): EngineRestore & { readonly fillsSinceMs: number | undefined; readonly resumed: boolean } {
  const state = store.load({ orders: 'all' });
  return {
    orders: state.orders.map((o) => ({ request: o.request, orderId: o.orderId, status: o.status, filled: o.filled, updatedAt: o.updatedAt })),
    fills: state.fills,
    heartbeatId: state.heartbeatId,
    settlements: settlementsOf(state.cursors),
    rewards: parseRewardsNote(state.cursors[REWARDS_CURSOR]),
    fillsSinceMs: fillsResumeMs(state),
    resumed: state.orders.length > 0 || state.fills.length > 0,
  };
}

/**
 * Where the fills poller of a restarted run starts: early enough for every fill a previous life
 * may not have booked. That is the newest fill stored (fills before it were booked), but never
 * later than the creation of an order that was still open at the kill or whose venue-reported
 * filled size exceeds the fills stored for it, nor than a fill stored unconfirmed (its trade may
 * still confirm or fail); with no fill stored, the first order sent. (Starting
 * at the restarted process's own clock lost the fills matched in the seconds before a kill once
 * the next life took longer than the poller's margin to start.)
 */
export function fillsResumeMs(state: Pick<LoadedRun, 'orders' | 'fills' | 'cursors'>): number | undefined {
  const cursor = state.cursors[FILLS_CURSOR];
  const booked = new Map<string, number>();
  let since = cursor === undefined ? undefined : Number(cursor);
  for (const fill of state.fills) {
    booked.set(fill.orderId, (booked.get(fill.orderId) ?? 0) + fill.size);
    // a fill not confirmed yet: its trade's next status (CONFIRMED or FAILED) must be polled again
    if (!fill.confirmed && since !== undefined && fill.tsEvent < since) since = fill.tsEvent;
  }
  let firstSent: number | undefined;
  for (const order of state.orders) {
    if (order.orderId === undefined) continue;
    if (firstSent === undefined || order.createdAt < firstSent) firstSent = order.createdAt;
    const owed = OPEN_STATUSES.has(order.status) || order.filled > (booked.get(order.orderId) ?? 0);
    if (owed && (since === undefined || order.createdAt < since)) since = order.createdAt;
  }
  return cursor === undefined ? firstSent : since;
}
