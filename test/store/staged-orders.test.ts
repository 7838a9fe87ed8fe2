import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateStore } from '../../src/store/migrate.ts';
import type { OrderSave } from '../../src/store/order-writes.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { STORE_MIGRATIONS } from '../../src/store/schema.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { order, request, spawnChild, storeError, tempDir } from './helpers.ts';

const { path } = tempDir();

/** A batch as the engine writes it before its post: new orders with their hashes. */
function batch(runId: string, from: number, n: number, over: { reason?: string; status?: 'PENDING_SUBMIT' | 'REJECTED' } = {}): OrderSave[] {
  return Array.from({ length: n }, (_, i) => {
    const req = request(runId, from + i, i % 2 === 0 ? { tag: undefined, postOnly: false, side: 'SELL', orderType: 'FAK' } : { expiresAt: 1_700_000_100_000 + i });
    return { order: order(req, over.status ?? 'PENDING_SUBMIT', `0x${(from + i).toString(16).padStart(64, '0')}`, i * 1_000), at: 100 + i, updatedAt: 200 + i, reason: over.reason };
  });
}

/** Every row of the orders (their table or view) and of the history, as SQL sees them. */
function rows(file: string, table = 'orders'): { orders: unknown[]; history: unknown[] } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      orders: db.prepare(`SELECT *, typeof(price) || typeof(size) || typeof(filled) || typeof(post_only) AS types FROM ${table} ORDER BY client_order_id`).all(),
      history: db.prepare('SELECT * FROM order_history ORDER BY client_order_id, n').all(),
    };
  } finally {
    db.close();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('orders staged before their post (stageOrders)', () => {
  it('once folded, the rows and history are those saveOrders writes; before, the view orders shows them as such', async () => {
    const upserted = RunStore.open(path('upsert.sqlite'), { create: true, runId: 'aaaaaaaa' });
    const staged = RunStore.open(path('staged.sqlite'), { create: true, runId: 'aaaaaaaa' });
    upserted.transaction(() => upserted.saveOrders(batch('aaaaaaaa', 1, 15, { reason: 'why' })));
    staged.transaction(() => staged.stageOrders(batch('aaaaaaaa', 1, 15, { reason: 'why' })));
    const expected = rows(path('upsert.sqlite'));
    const before = rows(path('staged.sqlite'));
    expect(before.orders).toEqual(expected.orders);
    expect(rows(path('staged.sqlite'), 'order_rows').orders).toEqual([]);
    await nextTurn();
    expect(rows(path('staged.sqlite'), 'order_rows')).toEqual(expected);
    expect(staged.load().orders).toEqual(upserted.load().orders);
    // the stored request text is the one an upsert compares: the same request is taken again
    staged.saveOrders(batch('aaaaaaaa', 1, 15, { reason: 'why' }));
    upserted.close();
    staged.close();
  });

  it('is read by the owner and by a reader before its fold; a later write of the order folds it first', () => {
    const file = path('read.sqlite');
    const store = RunStore.open(file, { create: true });
    const saves = batch(store.runId, 1, 3);
    store.transaction(() => store.stageOrders(saves));
    const reader = StoreReader.open(file);
    const snap = reader.snapshot(0);
    expect(snap.counts.orders).toBe(3);
    expect(snap.openOrders.map((o) => [o.request.clientOrderId, o.orderId, o.history])).toEqual(
      saves.map((s) => [s.order.request.clientOrderId, s.order.orderId, [{ status: 'PENDING_SUBMIT', at: s.updatedAt }]]),
    );
    reader.close();
    // an update on the same turn (nothing folded yet) finds the order
    store.updateOrder(saves[0]!.order.request.clientOrderId, { status: 'LIVE', at: 300 });
    const first = store.load().orders[0]!;
    expect(first).toMatchObject({ status: 'LIVE', orderId: saves[0]!.order.orderId, createdAt: 100, updatedAt: 300 });
    expect(first.history).toEqual([
      { status: 'PENDING_SUBMIT', at: 200 },
      { status: 'LIVE', at: 300 },
    ]);
    store.close();
  });

  it('a batch with an order already stored (or staged) is upserted at once: another request under its id is refused before the post', () => {
    const store = RunStore.open(path('known.sqlite'), { create: true });
    store.stageOrders(batch(store.runId, 1, 2));
    // staged, not folded: the same orders again take the upsert path (same request: accepted)
    store.stageOrders(batch(store.runId, 1, 2, { status: 'REJECTED' }));
    expect(store.load().orders.map((o) => o.status)).toEqual(['REJECTED', 'REJECTED']);
    const other = batch(store.runId, 2, 2).map((s) => ({ ...s, order: { ...s.order, request: { ...s.order.request, price: 1_000 } } }));
    const err = storeError(() => store.transaction(() => store.stageOrders(other)));
    expect(err.message).toContain('is already stored with a different request');
    expect(store.load().orders).toHaveLength(2);
    store.close();
  });

  it('tells new ids without a read, across a reopen: below the greatest id of the run, or of another run, is upserted', () => {
    const file = path('greatest.sqlite');
    const first = RunStore.open(file, { create: true, runId: 'bbbbbbbb' });
    first.saveOrders(batch('bbbbbbbb', 10, 2));
    first.close();
    const store = RunStore.open(file);
    const staged = (): number => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM order_batches').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    // id 5 is below the stored 11: not known new, so upserted (and not staged)
    store.stageOrders(batch('bbbbbbbb', 5, 1));
    expect(staged()).toBe(0);
    // an id of another run: upserted
    store.stageOrders(batch('cccccccc', 50, 1));
    expect(staged()).toBe(0);
    // another request under the stored id 11 is refused before any post
    const changed = batch('bbbbbbbb', 11, 1).map((s) => ({ ...s, order: { ...s.order, request: { ...s.order.request, size: 1 } } }));
    expect(storeError(() => store.stageOrders(changed)).message).toContain('already stored with a different request');
    store.stageOrders(batch('bbbbbbbb', 12, 3));
    expect(staged()).toBe(1);
    expect(store.load().orders.map((o) => o.request.clientOrderId.slice(-2)).sort()).toEqual(['05', '0a', '0b', '0c', '0d', '0e', '32']);
    store.close();
  });

  it('a staging rolled back with its transaction leaves nothing, and the ids can be saved again', async () => {
    const store = RunStore.open(path('rollback.sqlite'), { create: true });
    expect(() =>
      store.transaction(() => {
        store.stageOrders(batch(store.runId, 1, 3));
        throw new Error('tick failed');
      }),
    ).toThrow('tick failed');
    await nextTurn();
    expect(store.load().orders).toHaveLength(0);
    store.transaction(() => store.stageOrders(batch(store.runId, 1, 3)));
    expect(store.load().orders).toHaveLength(3);
    store.close();
  });

  it('a process killed right after the commit: the next open folds the staged orders, with their hashes', async () => {
    const file = path('killed.sqlite');
    const child = spawnChild(['stage', file]);
    await child.waitFor((l) => l === 'staged');
    expect((await child.exited).signal).toBe('SIGKILL');
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM order_batches').pluck().get()).toBe(1);
    db.close();
    const reader = StoreReader.open(file);
    expect(reader.snapshot(0).openOrders).toHaveLength(15);
    reader.close();
    const store = RunStore.open(file);
    const orders = store.load().orders;
    expect(orders).toHaveLength(15);
    expect(orders.every((o) => o.orderId?.startsWith('0x') && o.status === 'PENDING_SUBMIT' && o.history.length === 1)).toBe(true);
    store.close();
    const after = new Database(file, { readonly: true });
    expect(after.prepare('SELECT count(*) FROM order_batches').pluck().get()).toBe(0);
    expect(after.prepare('SELECT count(*) FROM order_rows').pluck().get()).toBe(15);
    after.close();
  });

  it('a store of schema 2 opens (its orders kept, their table renamed order_rows) and stages', () => {
    const file = path('v2.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrateStore(db, file, STORE_MIGRATIONS.slice(0, 2));
    db.prepare("INSERT INTO run (id, run_id, name, created_at, updated_at) VALUES (1, 'cafe0001', 'v2', 1, 1)").run();
    const req = request('cafe0001', 1);
    db.prepare(
      `INSERT INTO orders (client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only, status, status_reason, filled, request, created_at, updated_at)
       VALUES (?, 'mm', '0xold', ?, ?, 'BUY', ?, ?, 'GTC', 1, 'LIVE', NULL, 0, ?, 5, 5)`,
    ).run(req.clientOrderId, req.tokenId, req.conditionId, req.price, req.size, JSON.stringify(req));
    db.close();
    const store = RunStore.open(file);
    store.stageOrders(batch('cafe0001', 2, 2));
    const orders = store.load().orders;
    expect(orders.map((o) => [o.request.clientOrderId.slice(-1), o.orderId?.slice(0, 5), o.history.length])).toEqual([
      ['1', '0xold', 1],
      ['2', '0x000', 1],
      ['3', '0x000', 1],
    ]);
    store.close();
  });
  it('a new store has 8 KB pages: a staged batch of 15 orders fits one page, so its commit appends one WAL frame', () => {
    const file = path('pages.sqlite');
    // inline checkpoints: none runs below ~4 MB of WAL, so the WAL only grows here
    const store = RunStore.open(file, { create: true, checkpoints: 'inline' });
    const db = new Database(file, { readonly: true });
    expect(db.pragma('page_size', { simple: true })).toBe(8_192);
    db.close();
    store.transaction(() => store.stageOrders(batch(store.runId, 1, 15)));
    // the first staged row of a store also creates the table's first page: measure the next one
    store.load();
    const before = statSync(`${file}-wal`).size;
    store.transaction(() => store.stageOrders(batch(store.runId, 100, 15)));
    const row = new Database(file, { readonly: true });
    expect(row.prepare('SELECT length(orders) FROM order_batches').pluck().get()).toBeGreaterThan(4_096);
    row.close();
    // a frame: its 24-byte header and the page (with 4 KB pages: an overflow page and page 1 too)
    expect(statSync(`${file}-wal`).size - before).toBe(24 + 8_192);
    store.close();
  });
});
