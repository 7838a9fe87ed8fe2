import { describe, expect, it } from 'vitest';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import { request, tempDir } from './helpers.ts';

const { path } = tempDir();

function record(runId: string, seq: number): OrderRecord {
  return { request: request(runId, seq), status: 'PENDING_SUBMIT', orderId: undefined, filled: 0 } as OrderRecord;
}

describe('orders created inside a transaction (store persistence)', () => {
  it('writes the hash set in the same transaction into the insert: same row as insert + update', () => {
    const store = RunStore.open(path('merge.sqlite'), { create: true, runName: 't' });
    const p = storePersistence(store);
    const a = record(store.runId, 1);
    const b = record(store.runId, 2);
    let seenInside: number | undefined;
    p.transaction(() => {
      p.orderCreated(a, 10);
      p.orderCreated(b, 10);
      p.transaction(() => {
        a.orderId = '0xaaa';
        p.orderChanged(a, 11);
      });
      // a change of status writes the order first, then updates it
      b.status = 'REJECTED';
      p.orderChanged(b, 12, 'refused');
      seenInside = store.load().orders.length;
    });
    expect(seenInside).toBe(1);
    const [oa, ob] = store.load().orders;
    expect(oa).toMatchObject({ orderId: '0xaaa', status: 'PENDING_SUBMIT', createdAt: 10, updatedAt: 11 });
    expect(oa!.history.map((h) => h.status)).toEqual(['PENDING_SUBMIT']);
    expect(ob).toMatchObject({ orderId: undefined, status: 'REJECTED', statusReason: 'refused', createdAt: 10, updatedAt: 12 });
    expect(ob!.history).toEqual([
      { status: 'PENDING_SUBMIT', at: 10 },
      { status: 'REJECTED', at: 12, reason: 'refused' },
    ]);
    store.close();
  });

  it('forgets what a nested level that threw held or merged, as its savepoint does', () => {
    const store = RunStore.open(path('nested.sqlite'), { create: true, runName: 't' });
    const p = storePersistence(store);
    const a = record(store.runId, 1);
    const b = record(store.runId, 2);
    p.transaction(() => {
      p.orderCreated(a, 10);
      try {
        p.transaction(() => {
          p.orderCreated(b, 11);
          a.orderId = '0xaaa';
          p.orderChanged(a, 11);
          throw new Error('boom');
        });
      } catch {
        // the savepoint is rolled back, the outer transaction goes on
      }
    });
    expect(store.load().orders.map((o) => [o.request.clientOrderId, o.orderId, o.updatedAt])).toEqual([[a.request.clientOrderId, undefined, 10]]);
    store.close();
  });

  it('writes at once outside a transaction, and nothing when the transaction rolls back', () => {
    const store = RunStore.open(path('outside.sqlite'), { create: true, runName: 't' });
    const p = storePersistence(store);
    const a = record(store.runId, 1);
    p.orderCreated(a, 10);
    expect(store.load().orders).toHaveLength(1);
    expect(() =>
      p.transaction(() => {
        p.orderCreated(record(store.runId, 2), 11);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.load().orders).toHaveLength(1);
    store.close();
  });
});
