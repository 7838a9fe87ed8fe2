import type { MarketEvent } from '../core/events.ts';
import type { EngineEvent, EnginePersistence, EngineRestore } from '../engine/ports.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import type { FillEvent } from '../core/events.ts';
import { IdAllocator } from './id-allocator.ts';
import type { RunStore } from './run-store.ts';

/** Name of the cursor holding the newest fill time seen (the fills poller resumes there). */
export const FILLS_CURSOR = 'fills.newestTsEvent';

/**
 * The engine's persistence over a RunStore: orders written when created and on every change
 * (with their hash before the post), fills, the heartbeat chain, the journal of every engine
 * event and every market event that changed the engine's cache, and client order ids from durably reserved blocks.
 */
export function storePersistence(store: RunStore, blockSize = 1_000): EnginePersistence {
  const ids = new IdAllocator(store, blockSize);
  let newestFill = Number(store.cursor(FILLS_CURSOR) ?? 0);
  return {
    nextClientSeq: () => ids.next(),
    transaction: <T>(fn: () => T): T => store.transaction(fn),
    afterCommit: (callback: (committed: boolean) => void) => store.afterCommit(callback),
    orderCreated(record: OrderRecord, at: number) {
      store.saveOrder({ request: record.request, status: record.status, orderId: record.orderId, filled: record.filled }, at);
    },
    orderChanged(record: OrderRecord, at: number, reason?: string) {
      store.updateOrder(record.request.clientOrderId, { status: record.status, orderId: record.orderId, filled: record.filled, at, reason });
    },
    fill(fill: FillEvent) {
      store.saveFill(fill);
      if (fill.tsEvent > newestFill) {
        newestFill = fill.tsEvent;
        store.setCursor(FILLS_CURSOR, String(newestFill), fill.tsInit);
      }
    },
    heartbeatId(id: string, at: number) {
      store.setHeartbeatId(id, at);
    },
    journal(event: EngineEvent) {
      store.journal(event);
    },
    marketEvent(event: MarketEvent) {
      store.journal({ type: 'market', event });
    },
  };
}

/** What a restarted engine resumes from, out of a store's saved state. */
export function restoreFromStore(store: RunStore): EngineRestore & { readonly fillsSinceMs: number | undefined; readonly resumed: boolean } {
  const state = store.load({ orders: 'all' });
  const cursor = state.cursors[FILLS_CURSOR];
  return {
    orders: state.orders.map((o) => ({ request: o.request, orderId: o.orderId, status: o.status, filled: o.filled, updatedAt: o.updatedAt })),
    fills: state.fills,
    heartbeatId: state.heartbeatId,
    fillsSinceMs: cursor === undefined ? undefined : Number(cursor),
    resumed: state.orders.length > 0 || state.fills.length > 0,
  };
}
