import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/cli/commands/status.ts';
import { parseMicros } from '../../src/core/fixed.ts';
import { migrateStore } from '../../src/store/migrate.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from '../../src/store/schema.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { buildStatusReport } from '../../src/store/store-status.ts';
import { restoreFromStore } from '../../src/store/store-persistence.ts';
import { fill, order, request, TOKEN_A, TOKEN_B } from './fixtures.ts';
import { tempDir } from './helpers.ts';

const tmp = tempDir();

const sum = (values: readonly string[]) => values.reduce((s, v) => s + parseMicros(v), 0);

/** A store with orders of two strategies (refs on some, one batch staged) and their fills. */
function twoStrategyStore(name: string): string {
  const file = tmp.path(name);
  const store = RunStore.open(file, { create: true, runName: 'two', runId: 'c0ffee02', now: () => 1_700_000_000_000 });
  const runId = store.runId;
  store.reserveIds(10);
  const a1 = request(runId, 1, { strategyId: 'alpha', price: 400_000, ref: 'a-take', group: 'alpha' });
  const b1 = request(runId, 2, { strategyId: 'beta', price: 600_000 });
  const a2 = request(runId, 3, { strategyId: 'alpha', side: 'SELL', price: 500_000, ref: 'a-exit' });
  const b2 = request(runId, 4, { strategyId: 'beta', tokenId: TOKEN_B, price: 300_000, size: 5_000_000, ref: 'b-staged', group: 'g' });
  store.saveOrder(order(a1, 'FILLED', '0x01', 10_000_000), 1);
  store.saveOrder(order(b1, 'FILLED', '0x02', 10_000_000), 2);
  store.saveOrder(order(a2, 'FILLED', '0x03', 10_000_000), 3);
  // staged before its post (schema 3's order_batches): the views read its ref from the batch
  store.stageOrders([{ order: order(b2, 'LIVE', '0x04'), at: 4 }]);
  store.saveFill(fill(a1, 't1', { orderId: '0x01', fee: 10_000, confirmed: true }));
  store.saveFill(fill(b1, 't2', { orderId: '0x02', fee: 20_000, confirmed: true }));
  store.saveFill(fill(a2, 't3', { orderId: '0x03', fee: 5_000, confirmed: true }));
  store.close();
  return file;
}

describe("the store keeps refs and each strategy's share", () => {
  const file = twoStrategyStore('two.db');

  it('orders have their ref and group as columns (order_rows and staged orders alike)', () => {
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT strategy_id, ref, order_group FROM orders ORDER BY client_order_id').all();
      expect(rows).toEqual([
        { strategy_id: 'alpha', ref: 'a-take', order_group: 'alpha' },
        { strategy_id: 'beta', ref: null, order_group: null },
        { strategy_id: 'alpha', ref: 'a-exit', order_group: null },
        { strategy_id: 'beta', ref: 'b-staged', order_group: 'g' },
      ]);
      expect(db.prepare('SELECT * FROM strategy_positions ORDER BY strategy_id, token_id').all()).toEqual([
        { strategy_id: 'alpha', token_id: TOKEN_A, size: 0, bought: 10_000_000, sold: 10_000_000, turnover: 9_000_000, fees: 15_000, fills: 2 },
        { strategy_id: 'beta', token_id: TOKEN_A, size: 10_000_000, bought: 10_000_000, sold: 0, turnover: 6_000_000, fees: 20_000, fills: 1 },
      ]);
    } finally {
      db.close();
    }
  });

  it('a restarted run gets each order back with its ref', () => {
    const store = RunStore.open(file);
    try {
      const restore = restoreFromStore(store);
      expect(restore.orders.map((o) => [o.request.strategyId, o.request.ref, o.request.group])).toEqual([
        ['alpha', 'a-take', 'alpha'],
        ['beta', undefined, undefined],
        ['alpha', 'a-exit', undefined],
        ['beta', 'b-staged', 'g'],
      ]);
    } finally {
      store.close();
    }
  });

  it('clobot status gives each strategy its figures, adding up to the account', () => {
    const reader = StoreReader.open(file);
    const report = (() => {
      try {
        return buildStatusReport(reader.snapshot(0));
      } finally {
        reader.close();
      }
    })();
    // marks: the last fill price of the token (0.5)
    expect(report.strategies.map((s) => [s.strategyId, s.fills, s.turnover, s.fees, s.realized, s.pnl])).toEqual([
      ['alpha', 2, '9', '0.015', '1', '0.985'],
      ['beta', 1, '6', '0.02', '0', '-1.02'],
    ]);
    const a = report.account;
    expect(sum(report.strategies.map((s) => s.pnl))).toBe(parseMicros(a.realized) + parseMicros(a.unrealized) - parseMicros(a.fees));
    expect(sum(report.strategies.map((s) => s.fees))).toBe(parseMicros(a.fees));
    // the text form: a table of the strategies
    const text = formatStatus(report).split('\n');
    const head = text.findIndex((line) => line.startsWith('strategies ('));
    expect(text[head + 1]).toMatch(/^strategy\s+fills\s+turnover\s+fees\s+realized\s+unrealized\s+pnl$/);
    expect(text.slice(head + 3, head + 6).map((line) => line.trim().split(/\s+/))).toEqual([
      ['alpha', '2', '9', '0.015', '1', '0', '0.985'],
      ['beta', '1', '6', '0.02', '0', '-1', '-1.02'],
      [''],
    ]);
  });
});

describe('schema 4', () => {
  it('migrates a schema 3 store: its orders gain their ref and group columns', () => {
    const file = tmp.path('v3.db');
    const db = new Database(file);
    migrateStore(db, file, STORE_MIGRATIONS.slice(0, 3));
    db.prepare('INSERT INTO run (id, run_id, name, created_at, updated_at) VALUES (1, ?, ?, 1, 1)').run('c0ffee03', 'old');
    const req = request('c0ffee03', 1, { ref: 'kept-in-json' });
    db.prepare(
      `INSERT INTO order_rows (client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only, status, status_reason, filled, request, created_at, updated_at)
       VALUES (?, 'mm', NULL, ?, ?, 'BUY', 1, 1, 'GTC', 0, 'CANCELED', NULL, 0, ?, 1, 1)`,
    ).run(req.clientOrderId, req.tokenId, req.conditionId, JSON.stringify(req));
    db.close();
    const store = RunStore.open(file);
    store.close();
    const after = new Database(file, { readonly: true });
    try {
      expect(after.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").pluck().get()).toBe(String(STORE_SCHEMA_VERSION));
      expect(after.prepare('SELECT ref FROM orders').pluck().all()).toEqual(['kept-in-json']);
    } finally {
      after.close();
    }
  });
});
