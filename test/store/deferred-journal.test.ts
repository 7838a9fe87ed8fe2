import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../src/core/events.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import { JOURNAL_MARKET } from '../../src/store/store-types.ts';
import { order, request, storeError, tempDir, TOKEN_A } from './helpers.ts';

const tmp = tempDir();

function trade(i: number): Extract<MarketEvent, { type: 'trade' }> {
  return { type: 'trade', tokenId: TOKEN_A, side: 'BUY', price: 500_000 + i, size: 1_000_000, tsEvent: 1_000 + i, tsInit: 1_001 + i };
}

/** Market rows as another connection sees them (what is committed). */
function committedMarketRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM journal WHERE type = ?').pluck().get(JOURNAL_MARKET) as number;
  } finally {
    db.close();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('market events journaled off the order path', () => {
  it('commits the orders of a tick without its market events; those follow on the next turn, in order', async () => {
    const file = tmp.path('later.sqlite');
    const store = RunStore.open(file, { create: true, runName: 't' });
    const p = storePersistence(store);
    const record = { request: request(store.runId, 1), status: 'PENDING_SUBMIT', orderId: undefined, filled: 0 } as OrderRecord;
    let committed: boolean | undefined;
    p.transaction(() => {
      p.marketEvent!(trade(1));
      p.marketEvent!(trade(2));
      p.orderCreated(record, 10);
      p.afterCommit!((ok) => (committed = ok));
    });
    // the order is committed (it may be posted now); the market events are not written yet
    expect(committed).toBe(true);
    expect(store.load().orders).toHaveLength(1);
    await nextTurn();
    expect(committedMarketRows(file)).toBe(2);
    const rows = [...store.journalEvents()].filter((r) => r.type === JOURNAL_MARKET);
    expect(rows.map((r) => (r.event.type === 'market' && r.event.event.type === 'trade' ? r.event.event.price : -1))).toEqual([500_001, 500_002]);
    store.close();
  });

  it('writes what is queued before a read and at close', () => {
    const file = tmp.path('flush.sqlite');
    const store = RunStore.open(file, { create: true, runName: 't' });
    store.journalLater({ type: 'market', event: trade(1) });
    expect(committedMarketRows(file)).toBe(0);
    expect([...store.journalEvents()]).toHaveLength(1);
    store.journalLater({ type: 'market', event: trade(2) });
    store.journalLater({ type: 'market', event: trade(3) });
    store.close();
    expect(committedMarketRows(file)).toBe(3);
  });

  it('a deferred write that failed is thrown by the next write of the store, naming the file', async () => {
    const file = tmp.path('failed.sqlite');
    const store = RunStore.open(file, { create: true, runName: 't' });
    // an event that cannot be written (JSON has no BigInt)
    store.journalLater({ type: 'market', event: { ...trade(1), size: 10n as unknown as number } });
    await nextTurn();
    const err = storeError(() => store.saveOrder(order(request(store.runId, 1)), 1));
    expect(err.message).toContain(file);
    expect(err.message).toContain('journal');
    expect(storeError(() => store.journalLater({ type: 'market', event: trade(2) })).message).toBe(err.message);
    // close still closes the file (the lock released), then reports the failure
    expect(storeError(() => store.close()).message).toBe(err.message);
    expect(store.closed).toBe(true);
    const again = RunStore.open(file);
    expect(again.load().orders).toHaveLength(0);
    again.close();
  });
});
