import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/core/errors.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { order, request, tempDir } from './helpers.ts';

const tmp = tempDir();

describe('orders of a batch saved in one statement', () => {
  it('stores every order and its first history row, across statements of up to 32 orders', () => {
    const store = RunStore.open(tmp.path('many.sqlite'), { create: true, runName: 't' });
    const rows = Array.from({ length: 40 }, (_, i) => ({ order: order(request(store.runId, i + 1), 'PENDING_SUBMIT', `0x${(i + 1).toString(16).padStart(64, '0')}`), at: 5, updatedAt: 6 }));
    store.transaction(() => store.saveOrders(rows));
    const loaded = store.load().orders;
    expect(loaded).toHaveLength(40);
    expect(loaded.map((o) => o.request)).toEqual(rows.map((r) => r.order.request));
    expect(loaded.every((o, i) => o.orderId === rows[i]!.order.orderId && o.createdAt === 5 && o.updatedAt === 6)).toBe(true);
    expect(loaded.every((o) => o.history.length === 1 && o.history[0]!.status === 'PENDING_SUBMIT' && o.history[0]!.at === 6)).toBe(true);
    store.close();
  });

  it('refuses a stored client order id with another request, naming it, and the transaction writes nothing', () => {
    const store = RunStore.open(tmp.path('refused.sqlite'), { create: true, runName: 't' });
    store.saveOrder(order(request(store.runId, 2)), 1);
    const batch = [1, 2, 3].map((seq) => ({ order: order(request(store.runId, seq, seq === 2 ? { price: 530_000 } : {})), at: 2 }));
    let message = '';
    try {
      store.transaction(() => store.saveOrders(batch));
    } catch (err) {
      message = err instanceof StoreError ? err.message : String(err);
    }
    expect(message).toBe(`${store.file}: client order id ${batch[1]!.order.request.clientOrderId} is already stored with a different request`);
    const loaded = store.load().orders;
    expect(loaded.map((o) => o.request.clientOrderId)).toEqual([batch[1]!.order.request.clientOrderId]);
    expect(loaded[0]!.request.price).toBe(520_000);
    // the same request again is an upsert (a status change), as with saveOrder
    store.saveOrders([{ order: order(request(store.runId, 2), 'LIVE'), at: 3 }]);
    expect(store.load().orders[0]!.status).toBe('LIVE');
    store.close();
  });
});
