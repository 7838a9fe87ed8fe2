import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { IdAllocator } from '../../src/store/id-allocator.ts';
import { RunStore } from '../../src/store/run-store.ts';
import type { JournalInput } from '../../src/store/store-types.ts';
import { fill, order, request, storeError, tempDir, TOKEN_A, TOKEN_B } from './helpers.ts';

const tmp = tempDir();
let clockMs = 1_700_000_000_000;
const now = () => clockMs;

describe('RunStore round trip', () => {
  it('keeps every table across close and reopen', () => {
    const file = tmp.path('round-trip.db');
    const store = RunStore.open(file, { create: true, runName: 'mm-test', now });
    expect(store.runId).toMatch(/^[0-9a-f]{8}$/);
    const runId = store.runId;
    expect(store.reserveIds(100)).toEqual({ from: 1, to: 100 });
    store.setBalance(100_000_000, clockMs, 'start');

    // orders: one through its life, one cancelled, one rejected
    const a = request(runId, 1);
    const b = request(runId, 2, { side: 'SELL', price: 600_000, size: 4_000_000, tokenId: TOKEN_A, tag: undefined, postOnly: false, orderType: 'GTD', expiresAt: 1_700_000_100_000 });
    const c = request(runId, 3, { tokenId: TOKEN_B, price: 300_000, size: 5_000_000 });
    store.saveOrder(order(a), 10);
    store.updateOrder(a.clientOrderId, { status: 'PENDING_SUBMIT', orderId: '0xaaa', at: 11 });
    store.updateOrder(a.clientOrderId, { status: 'LIVE', at: 12 });
    store.updateOrder(a.clientOrderId, { status: 'PARTIALLY_FILLED', filled: 4_000_000, at: 13 });
    store.saveOrder(order(b, 'PENDING_SUBMIT', '0xbbb'), 20);
    store.updateOrder(b.clientOrderId, { status: 'LIVE', at: 21 });
    store.updateOrder(b.clientOrderId, { status: 'CANCEL_PENDING', at: 22 });
    store.updateOrder(b.clientOrderId, { status: 'CANCELED', at: 23, reason: 'cancelled' });
    store.saveOrder(order(c), 30);
    store.updateOrder(c.clientOrderId, { status: 'REJECTED', at: 31, reason: '400 not enough balance' });
    // re-saving the same request with its newest state is an upsert, not a new order
    store.saveOrder(order(a, 'PARTIALLY_FILLED', '0xaaa', 4_000_000), 14);

    // fills: a repeat is ignored, a confirmation upgrades the stored one
    const f1 = fill(a, 't-1', { orderId: '0xaaa', size: 4_000_000, fee: 10_000 });
    const f2 = fill(a, 't-2', { orderId: '0xaaa', side: 'SELL', price: 600_000, size: 1_000_000, liquidity: 'TAKER' });
    const f3 = fill(c, 't-3', { orderId: '0xccc', tokenId: TOKEN_B, price: 300_000, size: 5_000_000, confirmed: true });
    expect(store.saveFill(f1)).toBe(true);
    expect(store.saveFill(f1)).toBe(false);
    expect(store.saveFill(f2)).toBe(true);
    expect(store.saveFill({ ...f1, confirmed: true })).toBe(false);
    expect(store.saveFill(f3)).toBe(true);
    store.setBalance(98_000_000, 40, 'venue reconciliation');
    const f4 = fill(a, 't-4', { orderId: '0xaaa', price: 500_000, size: 2_000_000, fee: 5_000 });
    expect(store.saveFill(f4)).toBe(true);

    store.setHeartbeatId('hb-7', 50);
    store.setHeartbeatId('hb-8', 55);
    store.setCursor('trades.after', '1700000001005', 60);
    store.setCursor('orders.sync', 'abc', 61);
    expect(store.cursor('trades.after')).toBe('1700000001005');
    expect(store.cursor('none')).toBeUndefined();

    const events: JournalInput[] = [
      { type: 'run', at: 1, message: 'started', data: { markets: 2 } },
      { type: 'order', strategyId: 'mm', event: { type: 'OrderAccepted', clientOrderId: a.clientOrderId, orderId: '0xaaa', tsInit: 12 } },
      { type: 'order', strategyId: 'mm', event: { type: 'OrderDenied', clientOrderId: 'x', code: 'POSITION_LIMIT', reason: 'over', tsInit: 13 } },
      { type: 'fill', strategyId: 'mm', fill: f1 },
      { type: 'heartbeat', health: 'late', at: 14 },
      { type: 'fault', strategyId: 'mm', message: 'boom', at: 15 },
    ];
    const seqs = events.map((e) => store.journal(e));
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
    store.close();
    expect(store.closed).toBe(true);

    clockMs += 1_000;
    const again = RunStore.open(file, { now });
    expect(again.runId).toBe(runId);
    expect(again.runName).toBe('mm-test');
    const loaded = again.load();
    expect(loaded.runId).toBe(runId);
    expect(loaded.nextId).toBe(101);
    expect(loaded.heartbeatId).toBe('hb-8');
    expect(loaded.heartbeatAt).toBe(55);
    expect(loaded.cursors).toEqual({ 'orders.sync': 'abc', 'trades.after': '1700000001005' });
    expect(loaded.journalSeq).toBe(6);

    expect(loaded.orders.map((o) => o.request)).toEqual([a, b, c]);
    const [oa, ob, oc] = loaded.orders;
    expect(oa).toMatchObject({ orderId: '0xaaa', status: 'PARTIALLY_FILLED', filled: 4_000_000, createdAt: 10, updatedAt: 14 });
    expect(oa!.history).toEqual([
      { status: 'PENDING_SUBMIT', at: 10 },
      { status: 'LIVE', at: 12 },
      { status: 'PARTIALLY_FILLED', at: 13 },
    ]);
    expect(ob).toMatchObject({ orderId: '0xbbb', status: 'CANCELED', statusReason: 'cancelled' });
    expect(ob!.history.map((h) => h.status)).toEqual(['PENDING_SUBMIT', 'LIVE', 'CANCEL_PENDING', 'CANCELED']);
    expect(oc).toMatchObject({ orderId: undefined, status: 'REJECTED', statusReason: '400 not enough balance' });
    expect(again.load({ orders: 'open' }).orders.map((o) => o.request.clientOrderId)).toEqual([a.clientOrderId]);

    expect(loaded.fills).toEqual([
      { ...f1, seq: 1, confirmed: true },
      { ...f2, seq: 2 },
      { ...f3, seq: 3 },
      { ...f4, seq: 4 },
    ]);
    expect(loaded.balances.map((b) => [b.balance, b.afterFillSeq, b.reason])).toEqual([
      [100_000_000, 0, 'start'],
      [98_000_000, 3, 'venue reconciliation'],
    ]);

    // positions and balance are what the engine's Portfolio had from the same inputs
    const direct = new Portfolio(100_000_000);
    for (const f of [f1, f2, f3]) direct.applyFill(f);
    direct.setBalance(98_000_000);
    direct.applyFill(f4);
    expect(loaded.positions).toEqual(direct.positions());
    expect(loaded.balance).toBe(direct.balance());
    expect(loaded.balance).toBe(98_000_000 - 1_000_000 - 5_000);

    // the journal, from the start and from a sequence number
    const rows = [...again.journalEvents()];
    expect(rows.map((r) => r.event)).toEqual(events);
    expect(rows.map((r) => [r.seq, r.type, r.strategyId ?? null, r.at])).toEqual([
      [1, 'Run', null, 1],
      [2, 'OrderAccepted', 'mm', 12],
      [3, 'OrderDenied', 'mm', 13],
      [4, 'OrderFilled', 'mm', f1.tsInit],
      [5, 'Heartbeat', null, 14],
      [6, 'StrategyFaulted', 'mm', 15],
    ]);
    expect([...again.journalEvents(5)].map((r) => r.seq)).toEqual([5, 6]);
    again.close();
  });

  it('money lands in INTEGER columns only (never REAL)', () => {
    const file = tmp.path('types.db');
    const store = RunStore.open(file, { create: true, now });
    const a = request(store.runId, 1);
    store.saveOrder(order(a), 1);
    store.saveFill(fill(a, 't', { orderId: '0x1', fee: 1 }));
    store.setBalance(5, 1);
    store.close();
    const db = new Database(file, { readonly: true });
    const types = db
      .prepare(
        `SELECT typeof(price) || typeof(size) || typeof(filled) FROM orders
         UNION ALL SELECT typeof(price) || typeof(size) || typeof(fee) FROM fills
         UNION ALL SELECT typeof(balance) || typeof(balance) || typeof(after_fill_seq) FROM balances`,
      )
      .pluck()
      .all();
    db.close();
    expect(types).toEqual(['integerintegerinteger', 'integerintegerinteger', 'integerintegerinteger']);
  });

  it('refuses misuse with a StoreError and keeps the stored state', () => {
    const store = RunStore.open(tmp.path('misuse.db'), { create: true, now });
    const a = request(store.runId, 1);
    store.saveOrder(order(a), 1);
    const reused = storeError(() => store.saveOrder(order({ ...a, price: 530_000 }), 2));
    expect(reused.code).toBe('INVALID');
    expect(reused.message).toContain(`client order id ${a.clientOrderId} is already stored with a different request`);
    expect(storeError(() => store.updateOrder('nobody', { status: 'LIVE', at: 3 })).message).toContain('no stored order nobody');
    expect(storeError(() => store.saveOrder(order(request(store.runId, 2, { price: 0.52 })), 3)).message).toContain('price must be whole Micros, was 0.52');
    expect(storeError(() => store.saveFill(fill(a, 't', { size: Number.NaN }))).code).toBe('INVALID');
    expect(storeError(() => store.reserveIds(0)).code).toBe('INVALID');
    expect(store.load().orders).toHaveLength(1);
    expect(store.load().orders[0]!.request.price).toBe(520_000);
    store.close();
    expect(storeError(() => RunStore.open(tmp.path('misuse.db'), { runId: 'deadbeef' })).message).toContain('belongs to run');
    expect(storeError(() => RunStore.open(tmp.path('other.db'), { create: true, runId: 'XYZ' })).code).toBe('INVALID');
  });

  it('a transaction commits together or not at all', () => {
    const store = RunStore.open(tmp.path('tx.db'), { create: true, now });
    const a = request(store.runId, 1);
    const b = request(store.runId, 2);
    expect(() =>
      store.transaction(() => {
        store.saveOrder(order(a), 1);
        store.journal({ type: 'run', at: 1, message: 'inside' });
        throw new Error('tick failed');
      }),
    ).toThrow('tick failed');
    expect(store.load().orders).toHaveLength(0);
    expect([...store.journalEvents()]).toHaveLength(0);
    const seq = store.transaction(() => {
      store.saveOrder(order(b), 2);
      return store.journal({ type: 'run', at: 2, message: 'committed' });
    });
    expect(seq).toBe(1);
    expect(store.load().orders.map((o) => o.request.clientOrderId)).toEqual([b.clientOrderId]);
    store.close();
  });

  it('a nested level that throws undoes its own writes only, whether or not it wrote (savepoints opened at the first write)', () => {
    const store = RunStore.open(tmp.path('nested.db'), { create: true, now });
    const ids = [1, 2, 3, 4, 5].map((i) => request(store.runId, i));
    const caught = (fn: () => void) => {
      try {
        store.transaction(fn);
      } catch {
        // the level rolled back; the outer one goes on
      }
    };
    store.transaction(() => {
      store.saveOrder(order(ids[0]!), 1);
      caught(() => {
        throw new Error('wrote nothing');
      });
      caught(() => {
        store.saveOrder(order(ids[1]!), 2);
        store.setCursor('c', 'inner', 2);
        throw new Error('wrote, then failed');
      });
      store.transaction(() => {
        // nothing written here; only the level inside writes, and only it fails
        caught(() => {
          store.saveOrder(order(ids[2]!), 3);
          throw new Error('inner failed');
        });
        store.saveOrder(order(ids[3]!), 4);
      });
      caught(() => {
        store.transaction(() => store.saveOrder(order(ids[4]!), 5));
        throw new Error('the outer of two levels failed');
      });
    });
    expect(store.load().orders.map((o) => o.request.clientOrderId)).toEqual([ids[0]!.clientOrderId, ids[3]!.clientOrderId]);
    expect(store.cursor('c')).toBeUndefined();
    store.close();
  });

  it('afterCommit runs once the outermost transaction has committed, seen from another connection', () => {
    const file = tmp.path('after-commit.db');
    const store = RunStore.open(file, { create: true, now });
    const reader = new Database(file, { readonly: true });
    const stored = (): number => (reader.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number);
    const seen: { committed: boolean; rows: number }[] = [];
    store.afterCommit((committed) => seen.push({ committed, rows: stored() })); // outside: at once
    store.transaction(() => {
      store.transaction(() => {
        store.saveOrder(order(request(store.runId, 1)), 1);
        store.afterCommit((committed) => seen.push({ committed, rows: stored() }));
      });
      expect(seen).toHaveLength(1); // the inner end is not the commit
      store.saveOrder(order(request(store.runId, 2)), 2);
    });
    expect(seen).toEqual([
      { committed: true, rows: 0 },
      { committed: true, rows: 2 },
    ]);
    expect(() =>
      store.transaction(() => {
        store.saveOrder(order(request(store.runId, 3)), 3);
        store.afterCommit((committed) => seen.push({ committed, rows: stored() }));
        throw new Error('tick failed');
      }),
    ).toThrow('tick failed');
    expect(seen.at(-1)).toEqual({ committed: false, rows: 2 });
    reader.close();
    store.close();
  });
});

describe('client order ids', () => {
  it('a restart keeps the run id and never hands out a reserved id again', () => {
    const file = tmp.path('ids.db');
    const first = RunStore.open(file, { create: true, runId: '0badcafe', now });
    const ids1 = new IdAllocator(first, 10);
    const used1 = Array.from({ length: 25 }, () => ids1.next());
    expect(used1).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    first.close();
    const second = RunStore.open(file, { now });
    expect(second.runId).toBe('0badcafe');
    expect(second.load().nextId).toBe(31); // blocks 1-10, 11-20, 21-30 were reserved
    const ids2 = new IdAllocator(second, 10);
    const used2 = Array.from({ length: 5 }, () => ids2.next());
    expect(used2).toEqual([31, 32, 33, 34, 35]);
    second.close();
  });

  it('a reservation rolled back with its transaction is recorded again before the ids are handed out', () => {
    const file = tmp.path('ids-tx.db');
    const store = RunStore.open(file, { create: true, now });
    let block = { from: 0, to: 0 };
    expect(() =>
      store.transaction(() => {
        block = store.reserveIds(5);
        throw new Error('tick failed');
      }),
    ).toThrow('tick failed');
    expect(block).toEqual({ from: 1, to: 5 });
    // nested: the inner savepoint rolls back, the outer transaction commits
    store.transaction(() => {
      try {
        store.transaction(() => {
          block = store.reserveIds(5);
          throw new Error('inner');
        });
      } catch {
        // the caller goes on
      }
    });
    expect(block).toEqual({ from: 6, to: 10 });
    store.close();
    const again = RunStore.open(file, { now });
    expect(again.load().nextId).toBe(11);
    expect(again.reserveIds(1)).toEqual({ from: 11, to: 11 });
    again.close();
  });

  it('durability full works the same', () => {
    const file = tmp.path('full.db');
    const store = RunStore.open(file, { create: true, durability: 'full', now });
    expect(store.durability).toBe('full');
    store.reserveIds(3);
    store.transaction(() => store.reserveIds(3));
    store.saveOrder(order(request(store.runId, 1)), 1);
    store.close();
    const again = RunStore.open(file, { durability: 'full', now });
    expect(again.load()).toMatchObject({ nextId: 7 });
    expect(again.load().orders).toHaveLength(1);
    again.close();
  });
});

/** Polls `done` until it holds; fails after `timeoutMs` (a wait for an event, not a speed check). */
async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('checkpoints', () => {
  const fillUp = (store: RunStore) =>
    store.transaction(() => {
      for (let i = 0; i < 3_000; i++) store.journal({ type: 'run', at: i, message: `${i} ${'x'.repeat(300)}` });
    });

  it('background: a worker copies the WAL into the database file while the owner writes; close leaves one complete file', async () => {
    const file = tmp.path('checkpoint-bg.db');
    const store = RunStore.open(file, { create: true, now });
    expect(store.checkpoints).toBe('background');
    const before = statSync(file).size;
    fillUp(store);
    // the owner never checkpoints in this mode: only the worker can grow the database file
    await until(() => statSync(file).size > before + 500_000, 20_000);
    expect(store.checkpointFailure).toBeUndefined();
    store.close();
    expect(existsSync(file + '-wal')).toBe(false);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM journal').pluck().get()).toBe(3_000);
    db.close();
  });

  it('inline: SQLite checkpoints in the committing call; close leaves one complete file', () => {
    const file = tmp.path('checkpoint-inline.db');
    const store = RunStore.open(file, { create: true, checkpoints: 'inline', now });
    expect(store.checkpoints).toBe('inline');
    const before = statSync(file).size;
    for (let i = 0; i < 5; i++) fillUp(store); // ~1 MB of WAL each: the commit crossing ~4 MB checkpoints
    expect(statSync(file).size).toBeGreaterThan(before + 500_000);
    store.close();
    expect(existsSync(file + '-wal')).toBe(false);
  });
});

describe('client order ids, reserved ahead', () => {
  it('reserves the next block on a later turn once half the block is used, so next() does not reserve in a tick', () => {
    const store = RunStore.open(tmp.path('ids-ahead.db'), { create: true, now });
    const inNext: boolean[] = [];
    let inside = false;
    const counting = {
      reserveIds: (n: number) => {
        inNext.push(inside);
        return store.reserveIds(n);
      },
    };
    const deferred: (() => void)[] = [];
    const ids = new IdAllocator(counting, 10, (task) => deferred.push(task));
    const take = (): number => {
      inside = true;
      try {
        return ids.next();
      } finally {
        inside = false;
      }
    };
    const used: number[] = [];
    for (let i = 0; i < 35; i++) {
      used.push(take());
      // the event loop turns between ticks
      while (deferred.length > 0) deferred.shift()!();
    }
    expect(used).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    // only the very first block was reserved inside next(); every later one on a turn of its own
    expect(inNext).toEqual([true, false, false, false, false]); // 1-10 in next(); 11-20 ... 41-50 ahead
    store.close();
  });

  it('when ids run out before the deferred reservation ran, next() reserves itself; a late or failed one is harmless', () => {
    const file = tmp.path('ids-burst.db');
    const store = RunStore.open(file, { create: true, now });
    const deferred: (() => void)[] = [];
    const ids = new IdAllocator(store, 10, (task) => deferred.push(task));
    const used = Array.from({ length: 25 }, () => ids.next()); // a burst: no turn in between
    expect(used).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(deferred.length).toBe(1); // one pending, never more
    deferred.shift()!(); // runs late: reserves 31-40 as the spare
    expect(ids.next()).toBe(26);
    store.close();
    for (const task of deferred.splice(0)) task(); // a reservation after close is dropped, not thrown
    const reopened = RunStore.open(file, { now });
    expect(reopened.load().nextId).toBe(41);
    reopened.close();
  });
});
