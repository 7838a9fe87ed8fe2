import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportData, importExport } from '../../src/app/export-data.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { BacktestTables } from '../../src/backtest/result-tables.ts';
import { writeResults } from '../../src/backtest/write-results.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { formatMicros } from '../../src/core/fixed.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { fill, order, request } from '../store/fixtures.ts';
import { bandQuoterYaml, TempDir } from '../backtest/helpers.ts';

/** `clobot export` (Parquet and CSV) read by DuckDB, and `clobot import` of what export wrote. */

const tmp = new TempDir();
let db: DuckDBInstance;
let sql: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  sql = await db.connect();
});
afterAll(() => {
  sql.closeSync();
  db.closeSync();
  tmp.remove();
});

/** One row of a query, its values as DuckDB's JSON form gives them (decimals as exact strings). */
async function one(query: string): Promise<Record<string, unknown>> {
  const reader = await sql.runAndReadAll(query);
  return reader.getRowObjectsJson()[0] as Record<string, unknown>;
}

/** A table of an export, as DuckDB reads it (read_parquet or read_csv). */
function from(dir: string, table: string, csv: boolean): string {
  const path = join(dir, `${table}.${csv ? 'csv' : 'parquet'}`).replaceAll("'", "''");
  return csv ? `read_csv('${path}', header = true)` : `read_parquet('${path}')`;
}

const sum = (xs: readonly number[]): string => formatMicros(xs.reduce((a, b) => a + b, 0));
/** DuckDB prints DECIMAL(…,6) with six places; the shortest form to compare with formatMicros. */
const short = (v: unknown): string => formatMicros(Math.round(Number(String(v)) * 1e6));

const OPTIONS = { seed: 3, markets: 2, depth: 5, events: 1_500, meanGapMs: 300 };

const LEADER = '0x' + 'ab'.repeat(20);
const OTHER = '0x' + '0c'.repeat(20);

/** Followed wallets' trades from `at` on (`walletTrade` events, version 3). */
function walletTrades(tokenId: string, conditionId: string, at: number): MarketEvent[] {
  const t = (i: number, wallet: string, txHash: string, side: 'BUY' | 'SELL', price: number, size: number, token = tokenId, market = conditionId): MarketEvent => ({
    type: 'walletTrade',
    trade: { wallet, txHash, tokenId: token, conditionId: market, side, price, size, ts: at + i - 1_000 },
    tsEvent: at + i - 1_000,
    tsInit: at + i,
  });
  return [
    t(1, LEADER, '0xt1', 'BUY', 510_000, 40_000_000),
    t(1, LEADER, '0xt1', 'BUY', 520_000, 12_500_000),
    t(2, OTHER, '0xt2', 'BUY', 300_000, 7_000_000, '77', '0x' + 'dd'.repeat(32)),
    t(3, LEADER, '0xt3', 'SELL', 580_000, 52_500_000),
  ];
}

describe('export and import', async () => {
  // a recording with every kind of event: books (one empty), trades, prices, the lifecycle and followed wallets' trades (version 3)
  const header = { ...syntheticHeader(OPTIONS), version: 3 };
  const base = [...syntheticEvents(OPTIONS)];
  const last = base[base.length - 1]!.tsInit;
  const [m1, m2] = header.markets;
  const extra: MarketEvent[] = [
    { type: 'prices', prices: [{ tokenId: m1!.tokens[0]!.tokenId, buy: 400_000, sell: undefined, tsInit: last + 1 }, { tokenId: m1!.tokens[1]!.tokenId, buy: 550_000, sell: 570_000, tsInit: last + 1 }], tsEvent: last, tsInit: last + 1 },
    { type: 'tickSize', tokenId: m2!.tokens[0]!.tokenId, tickSize: 1_000, tsEvent: last + 1, tsInit: last + 2 },
    { type: 'book', book: { tokenId: m2!.tokens[0]!.tokenId, conditionId: m2!.conditionId, tsEvent: last + 2, tsInit: last + 3, hash: 'empty', bids: [], asks: [], tickSize: undefined, minOrderSize: undefined, negRisk: undefined, lastTradePrice: undefined }, tsEvent: last + 2, tsInit: last + 3 },
    { type: 'marketAdded', market: { ...m2!, conditionId: '0x' + 'ee'.repeat(32), slug: 'late', tokens: [{ tokenId: '9', outcome: 'Yes' }, { tokenId: '10', outcome: 'No' }] }, tsEvent: last + 3, tsInit: last + 4 },
    { type: 'marketClosed', conditionId: m1!.conditionId, tokenIds: m1!.tokens.map((t) => t.tokenId), tsEvent: last + 4, tsInit: last + 5 },
    { type: 'marketResolved', conditionId: m1!.conditionId, tokenIds: m1!.tokens.map((t) => t.tokenId), winnerTokenId: m1!.tokens[0]!.tokenId, tsEvent: last + 5, tsInit: last + 6 },
    // two fills of one transaction, a sell, and a trade in a market the recording does not hold
    ...walletTrades(m2!.tokens[0]!.tokenId, m2!.conditionId, last + 6),
  ];
  const recording = tmp.path('rec.bin');
  const writer = createRecordingWriter(recording, header, { form: 'binary' });
  for (const e of [...base, ...extra]) writer.write(e);
  await writer.close();
  const source = readRecordingSync(recording);

  for (const csv of [false, true]) {
    it(`a recording as ${csv ? 'CSV' : 'Parquet'}: DuckDB reads the same rows and sums; import gives the recording back`, async () => {
      const out = tmp.path(csv ? 'rec-csv' : 'rec-parquet');
      const { manifest } = await exportData(recording, out, csv ? 'csv' : 'parquet');
      const books = source.events.filter((e) => e.type === 'book');
      const levels = books.flatMap((e) => (e.type === 'book' ? [...e.book.bids, ...e.book.asks] : []));
      const trades = source.events.flatMap((e) => (e.type === 'trade' ? [e] : []));
      expect(manifest.tables['books']!.rows).toBe(levels.length + 1); // the empty book is one row
      const b = await one(`SELECT count(*)::INT AS n, count(DISTINCT seq)::INT AS books, sum(size::DECIMAL(18,6))::VARCHAR AS size FROM ${from(out, 'books', csv)}`);
      expect(b).toEqual({ n: levels.length + 1, books: books.length, size: expect.any(String) });
      expect(short(b['size'])).toBe(sum(levels.map((l) => l.size)));
      const t = await one(`SELECT count(*)::INT AS n, sum(size::DECIMAL(18,6))::VARCHAR AS size, sum((price * size)::DECIMAL(18,6))::VARCHAR AS notional FROM ${from(out, 'trades', csv)}`);
      expect(t['n']).toBe(trades.length);
      expect(short(t['size'])).toBe(sum(trades.map((x) => x.size)));
      expect((await one(`SELECT count(*)::INT AS n FROM ${from(out, 'prices', csv)}`))['n']).toBe(2);
      expect((await one(`SELECT string_agg(type, ',' ORDER BY seq) AS types FROM ${from(out, 'lifecycle', csv)}`))['types']).toBe('tickSize,marketAdded,marketClosed,marketResolved');
      expect((await one(`SELECT count(*)::INT AS n FROM ${from(out, 'markets', csv)}`))['n']).toBe(4);
      // followed wallets' trades: one row per fill, the leader's buys and sells summed per transaction
      const wallet = source.events.flatMap((e) => (e.type === 'walletTrade' ? [e.trade] : []));
      expect(manifest.tables['wallet_trades']!.rows).toBe(wallet.length);
      const w = await one(
        `SELECT count(*)::INT AS n, count(DISTINCT tx_hash)::INT AS txs, sum(size::DECIMAL(18,6)) FILTER (WHERE side = 'BUY' AND wallet = '${LEADER}')::VARCHAR AS bought, ` +
          `sum((price * size)::DECIMAL(18,6))::VARCHAR AS notional, epoch_ms(min(ts_event))::BIGINT::VARCHAR AS first FROM ${from(out, 'wallet_trades', csv)}`,
      );
      expect(w['n']).toBe(4);
      expect(w['txs']).toBe(3);
      expect(short(w['bought'])).toBe('52.5');
      expect(short(w['notional'])).toBe(formatMicros(wallet.reduce((a, x) => a + Math.round((x.price * x.size) / 1e6), 0)));
      expect(Number(w['first'])).toBe(wallet[0]!.ts);
      // back to a recording: the same header and events
      const back = tmp.path(csv ? 'back-csv.jsonl' : 'back.bin');
      const r = await importExport(out, back, csv ? 'text' : 'binary');
      expect(r.events).toBe(source.events.length);
      const again = readRecordingSync(back);
      expect(again.header).toEqual(source.header);
      expect(again.events).toEqual(source.events);
    });
  }

  it("a backtest writes its fills, orders and equity beside summary.json; DuckDB's counts and sums are the summary's; export to CSV keeps them", async () => {
    const text = bandQuoterYaml('tables', '{ makerBps: 20, takerBps: 20 }');
    const config = parseConfig(text, tmp.write('tables.yaml', text), {}, { cwd: tmp.dir });
    const dir = tmp.path('bt');
    const tables = new BacktestTables(dir);
    const result = await runBacktest({ config, data: await openBacktestData(recording), onBuilt: tables.onBuilt, onEvent: tables.onEvent, onStopped: tables.onStopped });
    writeResults(result, dir);
    const written = tables.finish(result.curve);
    const s = result.summary;
    expect(s.metrics.fills).toBeGreaterThan(5);
    expect(written.fills.rows).toBe(s.metrics.fills);
    for (const csv of [false, true]) {
      let at = dir;
      if (csv) {
        at = tmp.path('bt-csv');
        const { manifest } = await exportData(dir, at, 'csv');
        expect(manifest.kind).toBe('backtest');
        expect(manifest.tables['fills']!.rows).toBe(s.metrics.fills);
      }
      const f = await one(`SELECT count(*)::INT AS n, sum(fee::DECIMAL(18,6))::VARCHAR AS fees, sum(size::DECIMAL(18,6))::VARCHAR AS size, count(DISTINCT client_order_id)::INT AS orders FROM ${from(at, 'fills', csv)}`);
      expect(f['n']).toBe(s.metrics.fills);
      expect(short(f['fees'])).toBe(formatMicros(Math.round(Number(s.metrics.fees) * 1e6)));
      expect(short(f['size'])).toBe(sum(result.fills.map((x) => x.size)));
      const o = await one(`SELECT count(*)::INT AS n, count(DISTINCT client_order_id)::INT AS ids, sum(filled::DECIMAL(18,6))::VARCHAR AS filled, count(*) FILTER (status = 'FILLED')::INT AS done FROM ${from(at, 'orders', csv)}`);
      expect(o['n']).toBe(o['ids']); // one row per order
      // every order the engine made: those sent, and the few a stop cancelled before they were sent
      expect(o['n']).toBeGreaterThanOrEqual(s.orders.submitted);
      const orphan = await one(`SELECT count(*)::INT AS n FROM ${from(at, 'fills', csv)} f ANTI JOIN ${from(at, 'orders', csv)} o USING (client_order_id)`);
      expect(orphan['n']).toBe(0);
      expect(short(o['filled'])).toBe(short(f['size'])); // every fill is on an order of the table
      const e = await one(`SELECT count(*)::INT AS n, arg_max(equity, ts)::VARCHAR AS last FROM ${from(at, 'equity', csv)}`);
      expect(e['n']).toBe(result.curve.t.length);
      expect(short(e['last'])).toBe(formatMicros(result.curve.equity[result.curve.equity.length - 1]!));
    }
  });

  it('a run store: fills, orders and the journal; import gives back the market data it journaled', async () => {
    const file = tmp.path('run.sqlite');
    let clock = 1_700_000_000_000;
    const store = RunStore.open(file, { create: true, runName: 'export', now: () => clock });
    const runId = store.runId;
    const a = request(runId, 1);
    const b = request(runId, 2, { side: 'SELL', price: 600_000, size: 4_000_000 });
    store.saveOrder(order(a), 10);
    store.updateOrder(a.clientOrderId, { status: 'LIVE', orderId: '0xaaa', at: 11 });
    store.updateOrder(a.clientOrderId, { status: 'PARTIALLY_FILLED', filled: 4_000_000, at: 13 });
    store.saveOrder(order(b), 20);
    store.updateOrder(b.clientOrderId, { status: 'CANCELED', at: 23, reason: 'cancelled' });
    store.saveFill(fill(a, 't-1', { orderId: '0xaaa', size: 4_000_000, fee: 10_000 }));
    store.saveFill(fill(a, 't-2', { orderId: '0xaaa', size: 1_500_000, fee: 2_500 }));
    store.journal({ type: 'markets', at: clock, source: 'test', markets: header.markets });
    const journaled = base.slice(0, 50);
    for (const event of journaled) store.journal({ type: 'market', event });
    clock += 1_000;
    store.close();
    const out = tmp.path('store-parquet');
    const { manifest } = await exportData(file, out, 'parquet');
    expect(manifest.kind).toBe('store');
    const f = await one(`SELECT count(*)::INT AS n, sum(fee)::VARCHAR AS fees, sum(size)::VARCHAR AS size, min(strategy_id) AS strategy FROM ${from(out, 'fills', false)}`);
    expect({ ...f, fees: short(f['fees']), size: short(f['size']) }).toEqual({ n: 2, fees: '0.0125', size: '5.5', strategy: 'mm' });
    const o = await one(`SELECT count(*)::INT AS n, string_agg(status, ',' ORDER BY created_at) AS statuses, max(status_reason) AS reason FROM ${from(out, 'orders', false)}`);
    expect(o).toEqual({ n: 2, statuses: 'PARTIALLY_FILLED,CANCELED', reason: 'cancelled' });
    const j = await one(`SELECT count(*)::INT AS n, count(*) FILTER (type = 'Market')::INT AS market FROM ${from(out, 'journal', false)}`);
    expect(j['market']).toBe(50);
    expect(j['n']).toBe(manifest.tables['journal']!.rows);
    const back = tmp.path('from-store.jsonl');
    await importExport(out, back, 'text');
    const again = readRecordingSync(back);
    expect(again.header.markets).toEqual(header.markets);
    expect(again.events).toEqual(journaled);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ format: 'clobot-export', version: 1, kind: 'store', tableFormat: 'parquet' });
  });
});
