import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FillBook } from '../../src/engine/fill-book.ts';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import type { OrderStatus } from '../../src/core/events.ts';
import type { OrderRequest } from '../../src/core/intents.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { FILLS_CURSOR, restoreFromStore } from '../../src/store/store-persistence.ts';
import { deskOn, M, request, T0, YES } from './parts.ts';

/**
 * The root cause of the crash loop's missing fills: a restarted run polled fills only from the
 * newest fill stored (or, with none, from its own start), so a fill matched in a life that was
 * killed before polling it was never fetched once the next life took longer than the poller's
 * margin to start; the restart's reconciliation then marked its order FILLED from the venue's
 * matched size, with no fill behind it.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function storeAt(): RunStore {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-restart-'));
  dirs.push(dir);
  return RunStore.open(join(dir, 'state.sqlite'), { create: true, runId: 'feedf00d', checkpoints: 'inline' });
}

function save(store: RunStore, r: OrderRequest, status: OrderStatus, orderId: string, filled: number, at: number): void {
  store.saveOrder({ request: r, status: 'PENDING_SUBMIT', orderId: undefined, filled: 0 }, r.createdAt);
  store.updateOrder(r.clientOrderId, { status, orderId, filled, at });
}

function fillOf(r: OrderRequest, orderId: string, tradeId: string, size: number, at: number) {
  return { type: 'OrderFilled', clientOrderId: r.clientOrderId, orderId, tradeId, tokenId: YES, side: 'BUY', price: 400_000, size, fee: 0, liquidity: 'MAKER', confirmed: true, tsEvent: at, tsInit: at } as const;
}

describe('restart: fills of a previous life', () => {
  it('with no fill stored, fills are asked for from the first order sent, not from the restart', () => {
    const store = storeAt();
    const first = request({ createdAt: T0 });
    save(store, first, 'FILLED', '0xa', 5 * M, T0 + 60_000); // FILLED by a restart's lookup, its fill never booked
    save(store, request({ createdAt: T0 + 500 }), 'CANCELED', '0xb', 0, T0 + 60_000);
    store.saveOrder({ request: request({ createdAt: T0 - 5_000 }), status: 'CANCELED', orderId: undefined, filled: 0 }, T0 - 5_000); // never sent
    expect(restoreFromStore(store).fillsSinceMs).toBe(T0);
    store.close();
  });

  it('from the newest fill stored, or earlier for an order still open or owed fills', () => {
    const store = storeAt();
    const done = request({ createdAt: T0 });
    save(store, done, 'FILLED', '0xa', 5 * M, T0 + 1_000);
    store.saveFill(fillOf(done, '0xa', 't1', 5 * M, T0 + 1_000));
    store.setCursor(FILLS_CURSOR, String(T0 + 1_000));
    expect(restoreFromStore(store).fillsSinceMs).toBe(T0 + 1_000);
    const later = request({ createdAt: T0 + 2_000 });
    save(store, later, 'LIVE', '0xc', 0, T0 + 2_000);
    const newer = request({ createdAt: T0 + 3_000 });
    save(store, newer, 'FILLED', '0xd', 5 * M, T0 + 40_000);
    store.saveFill(fillOf(newer, '0xd', 't2', 5 * M, T0 + 40_000));
    store.setCursor(FILLS_CURSOR, String(T0 + 40_000));
    // the newest fill is at +40 s, but the order sent at +2 s was open at the kill
    expect(restoreFromStore(store).fillsSinceMs).toBe(T0 + 2_000);
    const owed = request({ createdAt: T0 + 1_500 });
    save(store, owed, 'CANCELED', '0xe', 2 * M, T0 + 50_000);
    expect(restoreFromStore(store).fillsSinceMs).toBe(T0 + 1_500);
    store.close();
  });

  it('a fill polled after the restart lookup took the venue matched size is booked once and not counted twice', () => {
    const world = deskOn();
    const portfolio = new Portfolio(1_000 * M);
    const book = new FillBook(world.desk, portfolio);
    const reconciler = new Reconciler(world.desk, new OrderCanceller(world.desk), 'feedf00d');
    const record = world.desk.tracker.restore(request({ size: 10 * M }), { orderId: '0xr', status: 'LIVE', filled: 0, at: T0 });
    // the restart's lookup: 6 of 10 matched while the run was down
    reconciler.applyVenueState(record, { orderId: '0xr', status: 'LIVE', tokenId: YES, conditionId: record.request.conditionId, side: 'BUY', price: 400_000, originalSize: 10 * M, sizeMatched: 6 * M, clientOrderId: undefined });
    world.desk.tracker.setFilled(record, 6 * M, T0);
    const venueFill = { tradeId: 't9', orderId: '0xr', tokenId: YES, side: 'BUY', price: 400_000, size: 6 * M, fee: 0, liquidity: 'MAKER', status: 'MATCHED', tsEvent: T0, tsInit: T0 } as const;
    book.onVenueFill(venueFill);
    expect(record).toMatchObject({ status: 'PARTIALLY_FILLED', filled: 6 * M });
    book.onVenueFill({ ...venueFill, tradeId: 't10', size: 4 * M });
    expect(record).toMatchObject({ status: 'FILLED', filled: 10 * M });
    expect(portfolio.position(YES).size).toBe(10 * M);
    expect(world.fills.map((f) => f.tradeId)).toEqual(['t9', 't10']);
  });
});
