import { writeFileSync } from 'node:fs';
import { STORE_SCHEMA_VERSION } from '../../src/store/schema.ts';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/run-store.ts';
import { clobot, fill, order, request, sha256, tempDir, TOKEN_A, TOKEN_B } from './helpers.ts';

const tmp = tempDir();
const file = tmp.path('status.db');
const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
let runId = '';
/** A cursor as long as a run's account note with marks of a hundred tokens. */
const LONG_CURSOR = JSON.stringify({ marks: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${i}`.padStart(77, '7'), 500_000])) });

beforeAll(() => {
  const store = RunStore.open(file, { create: true, runName: 'mm-demo', runId: 'c0ffee01', now: () => T0 });
  runId = store.runId;
  store.reserveIds(50);
  store.setBalance(100_000_000, T0, 'start');
  const buy = request(runId, 1, { price: 500_000, size: 10_000_000 });
  const sell = request(runId, 2, { side: 'SELL', price: 600_000, size: 4_000_000 });
  const other = request(runId, 3, { tokenId: TOKEN_B, price: 300_000, size: 5_000_000 });
  const resting = request(runId, 4, { price: 450_000, size: 2_000_000, strategyId: 'mm2' });
  const gone = request(runId, 5, { price: 440_000, size: 2_000_000 });
  store.saveOrder(order(buy, 'LIVE', '0x01'), T0 + 1);
  store.updateOrder(buy.clientOrderId, { status: 'FILLED', filled: 10_000_000, at: T0 + 2 });
  store.saveOrder(order(sell, 'LIVE', '0x02'), T0 + 3);
  store.updateOrder(sell.clientOrderId, { status: 'FILLED', filled: 4_000_000, at: T0 + 4 });
  store.saveOrder(order(other, 'LIVE', '0x03'), T0 + 5);
  store.updateOrder(other.clientOrderId, { status: 'FILLED', filled: 5_000_000, at: T0 + 6 });
  store.saveOrder(order(resting, 'LIVE', `0x${'4'.repeat(64)}`), T0 + 7);
  store.saveOrder(order(gone, 'LIVE', '0x05'), T0 + 8);
  store.updateOrder(gone.clientOrderId, { status: 'CANCELED', at: T0 + 9, reason: 'cancelled' });
  store.saveFill(fill(buy, 't1', { orderId: '0x01', fee: 10_000, tsInit: T0 + 2 }));
  store.saveFill(fill(sell, 't2', { orderId: '0x02', tsInit: T0 + 4 }));
  store.saveFill(fill(other, 't3', { orderId: '0x03', tsInit: T0 + 6 }));
  store.setHeartbeatId('hb-42', T0 + 10);
  store.setCursor('trades.after', '1735787045006', T0 + 10);
  store.setCursor('note.long', LONG_CURSOR, T0 + 10);
  store.journal({ type: 'run', at: T0, message: 'run started' });
  store.journal({ type: 'order', strategyId: 'mm', event: { type: 'OrderAccepted', clientOrderId: buy.clientOrderId, orderId: '0x01', tsInit: T0 + 1 } });
  store.journal({ type: 'fill', strategyId: 'mm', fill: fill(buy, 't1', { orderId: '0x01', fee: 10_000, tsInit: T0 + 2 }) });
  store.journal({ type: 'order', strategyId: 'mm', event: { type: 'OrderDenied', clientOrderId: `${runId}x`, code: 'POSITION_LIMIT', reason: 'position limit reached', tsInit: T0 + 11 } });
  store.close();
});

describe('clobot status', () => {
  it('--json: positions, open orders, PnL from fills, the newest events', () => {
    const before = sha256(file);
    const r = clobot(['status', file, '--json', '--events', '2']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      store: file,
      schemaVersion: STORE_SCHEMA_VERSION,
      run: { id: 'c0ffee01', name: 'mm-demo', createdAt: '2025-01-02T03:04:05.000Z' },
      lock: null,
      nextClientOrderSeq: 51,
      heartbeat: { id: 'hb-42', at: '2025-01-02T03:04:05.010Z' },
      counts: { orders: 5, openOrders: 1, fills: 3, journal: 4 },
      // 100 - 5 - 0.01 (buy 10 @ 0.50, fee) + 2.4 (sell 4 @ 0.60) - 1.5 (buy 5 @ 0.30)
      // the run summary's names: reserved = the open BUY 2 @ 0.45; position value 6 × 0.6 + 5 × 0.3
      account: {
        cash: '95.89',
        reserved: '0.9',
        free: '94.99',
        positionValue: '5.1',
        equity: '100.99',
        realized: '0.4',
        unrealized: '0.6',
        fees: '0.01',
        source: 'unknown',
        marks: 'last fill price',
        outside: [],
      },
      cursors: { 'trades.after': '1735787045006', 'note.long': LONG_CURSOR },
    });
    expect(report.positions).toEqual([
      { tokenId: TOKEN_A, size: '6', avgPrice: '0.5', realizedPnl: '0.4', mark: '0.6', unrealizedPnl: '0.6' },
      { tokenId: TOKEN_B, size: '5', avgPrice: '0.3', realizedPnl: '0', mark: '0.3', unrealizedPnl: '0' },
    ]);
    expect(report.openOrders).toEqual([
      {
        clientOrderId: `${runId}${'4'.padStart(24, '0')}`,
        orderId: `0x${'4'.repeat(64)}`,
        strategyId: 'mm2',
        tokenId: TOKEN_A,
        side: 'BUY',
        price: '0.45',
        size: '2',
        filled: '0',
        status: 'LIVE',
        updatedAt: '2025-01-02T03:04:05.007Z',
      },
    ]);
    expect(report.events.map((e: { seq: number; type: string; text: string }) => [e.seq, e.type, e.text])).toEqual([
      [3, 'OrderFilled', `${runId}${'1'.padStart(24, '0')} BUY 10 @ 0.5 fee 0.01 MAKER (trade t1)`],
      [4, 'OrderDenied', `${runId}x denied POSITION_LIMIT: position limit reached`],
    ]);
    expect(sha256(file)).toBe(before);
  });

  it('tables by default', () => {
    const r = clobot(['status', file, '--events', '3']);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`run c0ffee01 (mm-demo)  store ${file}  schema ${STORE_SCHEMA_VERSION}`);
    expect(lines).toContain('lock: none (no run has it open)');
    expect(lines).toContain('heartbeat: hb-42 at 2025-01-02T03:04:05.010Z  next client order seq 51');
    expect(lines).toContain('orders 5 (open 1)  fills 3  journal 4');
    expect(lines).toContain('cash 95.89  reserved 0.9  free 94.99  position value 5.1  equity 100.99  (cash: unknown)');
    expect(lines).toContain('realized 0.4  unrealized 0.6 (marked at last fill price)  fees 0.01');
    const pos = lines.indexOf('positions');
    expect(lines[pos + 1]).toMatch(/^token\s+size\s+avg price\s+realized\s+mark\s+unrealized$/);
    expect(lines[pos + 3]).toMatch(/^713210456…583992563\s+6\s+0\.5\s+0\.4\s+0\.6\s+0\.6$/);
    expect(lines[pos + 4]).toMatch(/^521143195…813222426\s+5\s+0\.3\s+0\s+0\.3\s+0$/);
    const open = lines.indexOf('open orders');
    expect(lines[open + 3]).toMatch(new RegExp(`^${runId}0{23}4\\s+mm2\\s+713210456…583992563\\s+BUY\\s+0\\.45\\s+2\\s+0\\s+LIVE\\s+0x4444…444444$`));
    // a cursor is one table line, clipped (--json has it whole)
    const cursors = lines.indexOf('cursors (values clipped; --json shows them whole)');
    expect(cursors).toBeGreaterThan(open);
    const long = lines.slice(cursors).find((l) => l.startsWith('note.long'))!;
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long).toContain('…');
    const ev = lines.indexOf('last 3 events');
    expect(ev).toBeGreaterThan(open);
    expect(lines[ev + 3]).toMatch(/^\s*2\s+2025-01-02T03:04:05\.001Z\s+OrderAccepted\s+mm\s+c0ffee01\S+ accepted as 0x01$/);
    expect(lines[ev + 5]).toContain('denied POSITION_LIMIT: position limit reached');
  });

  it('bad input is one line on stderr and exit 2', () => {
    const missing = tmp.path('nope.db');
    let r = clobot(['status', missing]);
    expect(r).toMatchObject({ status: 2, stdout: '', stderr: `clobot: ${missing}: no store there (a run keeps one only when given --store <file> or store.path in its config)\n` });

    const junk = tmp.path('junk.db');
    writeFileSync(junk, 'this is not a database, just some text that is long enough '.repeat(10));
    r = clobot(['status', junk]);
    expect(r).toMatchObject({ status: 2, stdout: '', stderr: `clobot: ${junk}: not a SQLite database (no SQLite header)\n` });

    const newer = tmp.path('newer.db');
    RunStore.open(newer, { create: true }).close();
    const db = new Database(newer);
    db.prepare("UPDATE meta SET value = '99' WHERE key = 'schemaVersion'").run();
    db.close();
    r = clobot(['status', newer]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`clobot: ${newer}: written by a newer clobot (store schema 99; this build reads up to ${STORE_SCHEMA_VERSION}); left untouched\n`);

    r = clobot(['status', file, '--events', 'many']);
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
