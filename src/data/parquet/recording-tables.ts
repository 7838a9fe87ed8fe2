import { join } from 'node:path';
import { DecodeError } from '../../core/errors.ts';
import type { ListedMarket, MarketEvent } from '../../core/events.ts';
import { formatMicros, parseMicros } from '../../core/fixed.ts';
import type { BookLevel, Side } from '../../core/types.ts';
import type { RecordedMarket, RecordingHeader } from '../recording/format.ts';
import type { ExportManifest } from './export-manifest.ts';
import { readTable } from './table-reader.ts';
import { openTableWriter } from './table-writer.ts';
import { tableFileName, type Cell, type TableFormat, type TableSpec } from './table.ts';

/**
 * A recording as tables (`clobot export <recording>`), one row per thing a quant queries:
 * - `markets`: one row per token of each market the recording starts with;
 * - `books`: one row per price level of each book (`side` bid/ask, `level` 0 = the touch); a book
 *   with no level at all is one row with `side`, `level`, `price` and `size` null;
 * - `trades`: one row per trade print; `prices`: one row per token of each best-prices event;
 * - `wallet_trades`: one row per trade of a followed wallet (`data.wallets`, what `onWalletTrade`
 *   hears): `wallet`, `tx_hash` (shared by the fills of one transaction), the token and market,
 *   the wallet's side, price and size, `ts_event` the trade's venue time;
 * - `lifecycle`: tick size changes, markets closed, resolved and joined (`market` as JSON), fee
 *   rates changed (`market` holds `{"takerBps", "makerBps"}`) and books cleared at a game start.
 * Every event row carries `seq`, the event's index in the recording, so the tables put back
 * together (`clobot import <folder>`) give the recording's events in their order.
 */
export const MARKETS_TABLE: TableSpec = {
  name: 'markets',
  columns: [
    { name: 'condition_id', kind: 'text' },
    { name: 'question', kind: 'text' },
    { name: 'slug', kind: 'text' },
    { name: 'neg_risk', kind: 'bool' },
    { name: 'neg_risk_market_id', kind: 'text', nullable: true },
    { name: 'tick_size', kind: 'micros' },
    { name: 'min_order_size', kind: 'micros' },
    { name: 'maker_base_fee_bps', kind: 'int' },
    { name: 'taker_base_fee_bps', kind: 'int' },
    { name: 'token_id', kind: 'text' },
    { name: 'outcome', kind: 'text' },
  ],
};

const EVENT_COLUMNS = [
  { name: 'seq', kind: 'int' },
  { name: 'ts_init', kind: 'time' },
  { name: 'ts_event', kind: 'time' },
] as const;

export const BOOKS_TABLE: TableSpec = {
  name: 'books',
  columns: [
    ...EVENT_COLUMNS,
    { name: 'token_id', kind: 'text' },
    { name: 'condition_id', kind: 'text' },
    { name: 'hash', kind: 'text' },
    { name: 'side', kind: 'text', nullable: true },
    { name: 'level', kind: 'int', nullable: true },
    { name: 'price', kind: 'micros', nullable: true },
    { name: 'size', kind: 'micros', nullable: true },
    { name: 'tick_size', kind: 'micros', nullable: true },
    { name: 'min_order_size', kind: 'micros', nullable: true },
    { name: 'neg_risk', kind: 'bool', nullable: true },
    { name: 'last_trade_price', kind: 'micros', nullable: true },
  ],
};

export const TRADES_TABLE: TableSpec = {
  name: 'trades',
  columns: [...EVENT_COLUMNS, { name: 'token_id', kind: 'text' }, { name: 'side', kind: 'text' }, { name: 'price', kind: 'micros' }, { name: 'size', kind: 'micros' }],
};

export const WALLET_TRADES_TABLE: TableSpec = {
  name: 'wallet_trades',
  columns: [
    ...EVENT_COLUMNS,
    { name: 'wallet', kind: 'text' },
    { name: 'tx_hash', kind: 'text' },
    { name: 'token_id', kind: 'text' },
    { name: 'condition_id', kind: 'text' },
    { name: 'side', kind: 'text' },
    { name: 'price', kind: 'micros' },
    { name: 'size', kind: 'micros' },
  ],
};

export const PRICES_TABLE: TableSpec = {
  name: 'prices',
  columns: [...EVENT_COLUMNS, { name: 'token_id', kind: 'text' }, { name: 'buy', kind: 'micros', nullable: true }, { name: 'sell', kind: 'micros', nullable: true }],
};

export const LIFECYCLE_TABLE: TableSpec = {
  name: 'lifecycle',
  columns: [
    ...EVENT_COLUMNS,
    { name: 'type', kind: 'text' },
    { name: 'condition_id', kind: 'text', nullable: true },
    { name: 'token_id', kind: 'text', nullable: true },
    { name: 'token_ids', kind: 'text', nullable: true },
    { name: 'tick_size', kind: 'micros', nullable: true },
    { name: 'winner_token_id', kind: 'text', nullable: true },
    { name: 'market', kind: 'text', nullable: true },
  ],
};

export const RECORDING_TABLES: readonly TableSpec[] = [MARKETS_TABLE, BOOKS_TABLE, TRADES_TABLE, PRICES_TABLE, LIFECYCLE_TABLE, WALLET_TRADES_TABLE];

const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

function marketRows(m: RecordedMarket): Cell[][] {
  return m.tokens.map((t) => [
    m.conditionId,
    m.question,
    m.slug,
    m.negRisk,
    opt(m.negRiskMarketId),
    parseMicros(m.tickSize),
    parseMicros(m.minOrderSize),
    m.makerBaseFeeBps,
    m.takerBaseFeeBps,
    t.tokenId,
    t.outcome,
  ]);
}

/** Writes a recording's header and events as the recording tables in `dir`; returns the manifest's tables. */
export async function writeRecordingTables(
  header: RecordingHeader,
  events: AsyncIterable<readonly MarketEvent[]>,
  dir: string,
  format: TableFormat,
): Promise<ExportManifest['tables']> {
  const w = Object.fromEntries(RECORDING_TABLES.map((t) => [t.name, openTableWriter(join(dir, tableFileName(t, format)), t, format)]));
  const markets = w['markets']!;
  const books = w['books']!;
  const trades = w['trades']!;
  const prices = w['prices']!;
  const lifecycle = w['lifecycle']!;
  const walletTrades = w['wallet_trades']!;
  for (const m of header.markets) for (const row of marketRows(m)) markets.add(row);
  let seq = 0;
  for await (const batch of events) {
    for (const e of batch) {
      const head: Cell[] = [seq++, e.tsInit, e.tsEvent];
      switch (e.type) {
        case 'book': {
          const b = e.book;
          const tail = (side: string | null, level: number | null, l: BookLevel | null): Cell[] => [
            ...head,
            b.tokenId,
            b.conditionId,
            b.hash,
            side,
            level,
            l?.price ?? null,
            l?.size ?? null,
            opt(b.tickSize),
            opt(b.minOrderSize),
            opt(b.negRisk),
            opt(b.lastTradePrice),
          ];
          b.bids.forEach((l, i) => books.add(tail('bid', i, l)));
          b.asks.forEach((l, i) => books.add(tail('ask', i, l)));
          if (b.bids.length === 0 && b.asks.length === 0) books.add(tail(null, null, null));
          break;
        }
        case 'trade':
          trades.add([...head, e.tokenId, e.side, e.price, e.size]);
          break;
        case 'walletTrade': {
          const t = e.trade;
          walletTrades.add([...head, t.wallet, t.txHash, t.tokenId, t.conditionId, t.side, t.price, t.size]);
          break;
        }
        case 'prices':
          for (const p of e.prices) prices.add([...head, p.tokenId, opt(p.buy), opt(p.sell)]);
          break;
        case 'tickSize':
          lifecycle.add([...head, 'tickSize', null, e.tokenId, null, e.tickSize, null, null]);
          break;
        case 'marketClosed':
          lifecycle.add([...head, 'marketClosed', e.conditionId, null, JSON.stringify(e.tokenIds), null, null, null]);
          break;
        case 'marketResolved':
          lifecycle.add([...head, 'marketResolved', e.conditionId, null, JSON.stringify(e.tokenIds), null, opt(e.winnerTokenId), null]);
          break;
        case 'marketAdded':
          lifecycle.add([...head, 'marketAdded', e.market.conditionId, null, null, null, null, JSON.stringify(e.market)]);
          break;
        case 'feeRate':
          lifecycle.add([...head, 'feeRate', null, e.tokenId, null, null, null, JSON.stringify({ takerBps: e.takerBps, makerBps: e.makerBps })]);
          break;
        case 'marketCleared':
          lifecycle.add([...head, 'marketCleared', e.conditionId, null, JSON.stringify(e.tokenIds), null, null, null]);
          break;
      }
    }
  }
  const out: Record<string, { file: string; rows: number }> = {};
  for (const t of RECORDING_TABLES) out[t.name] = { file: tableFileName(t, format), rows: w[t.name]!.close() };
  return out;
}

/** An event of a table with its `seq`. */
interface Sequenced {
  readonly seq: number;
  readonly event: MarketEvent;
}

async function* rowsOf(dir: string, manifest: ExportManifest, table: TableSpec): AsyncGenerator<Cell[]> {
  const entry = manifest.tables[table.name];
  if (entry === undefined) throw new DecodeError(`${join(dir, 'manifest.json')}: tables`, `a ${table.name} table`, 'none');
  for await (const batch of readTable(join(dir, entry.file), table, manifest.tableFormat)) yield* batch;
}

const num = (c: Cell): number => c as number;
const numOr = (c: Cell): number | undefined => (c === null ? undefined : (c as number));

async function* bookEvents(rows: AsyncIterable<Cell[]>): AsyncGenerator<Sequenced> {
  let current: { seq: number; row: Cell[]; bids: BookLevel[]; asks: BookLevel[] } | undefined;
  const finish = (c: NonNullable<typeof current>): Sequenced => {
    const r = c.row;
    const book = {
      tokenId: r[3] as string,
      conditionId: r[4] as string,
      tsEvent: num(r[2]!),
      tsInit: num(r[1]!),
      hash: r[5] as string,
      bids: c.bids,
      asks: c.asks,
      tickSize: numOr(r[10]!),
      minOrderSize: numOr(r[11]!),
      negRisk: r[12] === null ? undefined : (r[12] as boolean),
      lastTradePrice: numOr(r[13]!),
    };
    return { seq: c.seq, event: { type: 'book', book, tsEvent: book.tsEvent, tsInit: book.tsInit } };
  };
  for await (const r of rows) {
    const seq = num(r[0]!);
    if (current !== undefined && current.seq !== seq) {
      yield finish(current);
      current = undefined;
    }
    current ??= { seq, row: r, bids: [], asks: [] };
    if (r[6] === 'bid') current.bids.push({ price: num(r[8]!), size: num(r[9]!) });
    else if (r[6] === 'ask') current.asks.push({ price: num(r[8]!), size: num(r[9]!) });
  }
  if (current !== undefined) yield finish(current);
}

async function* tradeEvents(rows: AsyncIterable<Cell[]>): AsyncGenerator<Sequenced> {
  for await (const r of rows) {
    yield { seq: num(r[0]!), event: { type: 'trade', tokenId: r[3] as string, side: r[4] as Side, price: num(r[5]!), size: num(r[6]!), tsInit: num(r[1]!), tsEvent: num(r[2]!) } };
  }
}

async function* walletTradeEvents(rows: AsyncIterable<Cell[]>): AsyncGenerator<Sequenced> {
  for await (const r of rows) {
    const tsEvent = num(r[2]!);
    const trade = { wallet: r[3] as string, txHash: r[4] as string, tokenId: r[5] as string, conditionId: r[6] as string, side: r[7] as Side, price: num(r[8]!), size: num(r[9]!), ts: tsEvent };
    yield { seq: num(r[0]!), event: { type: 'walletTrade', trade, tsInit: num(r[1]!), tsEvent } };
  }
}

async function* priceEvents(rows: AsyncIterable<Cell[]>): AsyncGenerator<Sequenced> {
  let current: { seq: number; tsInit: number; tsEvent: number; prices: { tokenId: string; buy: number | undefined; sell: number | undefined; tsInit: number }[] } | undefined;
  for await (const r of rows) {
    const seq = num(r[0]!);
    if (current !== undefined && current.seq !== seq) {
      yield { seq: current.seq, event: { type: 'prices', prices: current.prices, tsInit: current.tsInit, tsEvent: current.tsEvent } };
      current = undefined;
    }
    current ??= { seq, tsInit: num(r[1]!), tsEvent: num(r[2]!), prices: [] };
    current.prices.push({ tokenId: r[3] as string, buy: numOr(r[4]!), sell: numOr(r[5]!), tsInit: current.tsInit });
  }
  if (current !== undefined) yield { seq: current.seq, event: { type: 'prices', prices: current.prices, tsInit: current.tsInit, tsEvent: current.tsEvent } };
}

async function* lifecycleEvents(rows: AsyncIterable<Cell[]>, where: string): AsyncGenerator<Sequenced> {
  for await (const r of rows) {
    const seq = num(r[0]!);
    const t = { tsInit: num(r[1]!), tsEvent: num(r[2]!) };
    const tokenIds = (): string[] => JSON.parse(r[6] as string) as string[];
    switch (r[3]) {
      case 'tickSize':
        yield { seq, event: { type: 'tickSize', tokenId: r[5] as string, tickSize: num(r[7]!), ...t } };
        break;
      case 'marketClosed':
        yield { seq, event: { type: 'marketClosed', conditionId: r[4] as string, tokenIds: tokenIds(), ...t } };
        break;
      case 'marketResolved':
        yield { seq, event: { type: 'marketResolved', conditionId: r[4] as string, tokenIds: tokenIds(), winnerTokenId: (r[8] as string | null) ?? undefined, ...t } };
        break;
      case 'marketAdded':
        yield { seq, event: { type: 'marketAdded', market: JSON.parse(r[9] as string) as ListedMarket, ...t } };
        break;
      case 'feeRate': {
        const fees = JSON.parse(r[9] as string) as { takerBps: number; makerBps: number };
        yield { seq, event: { type: 'feeRate', tokenId: r[5] as string, takerBps: fees.takerBps, makerBps: fees.makerBps, ...t } };
        break;
      }
      case 'marketCleared':
        yield { seq, event: { type: 'marketCleared', conditionId: r[4] as string, tokenIds: tokenIds(), ...t } };
        break;
      default:
        throw new DecodeError(`${where}: type`, 'tickSize, marketClosed, marketResolved, marketAdded, feeRate or marketCleared', r[3]);
    }
  }
}

/** The header a recording export describes: its manifest's header and its `markets` table. */
export async function readRecordingHeader(dir: string, manifest: ExportManifest): Promise<RecordingHeader> {
  if (manifest.recording === undefined) throw new DecodeError(`${join(dir, 'manifest.json')}: recording`, 'the recording header', 'none');
  const byId = new Map<string, { market: Omit<RecordedMarket, 'tokens'>; tokens: { tokenId: string; outcome: string }[] }>();
  for await (const r of rowsOf(dir, manifest, MARKETS_TABLE)) {
    const id = r[0] as string;
    let m = byId.get(id);
    if (m === undefined) {
      const base = {
        conditionId: id,
        question: r[1] as string,
        slug: r[2] as string,
        negRisk: r[3] as boolean,
        tickSize: formatMicros(num(r[5]!)),
        minOrderSize: formatMicros(num(r[6]!)),
        makerBaseFeeBps: num(r[7]!),
        takerBaseFeeBps: num(r[8]!),
      };
      m = { market: r[4] === null ? base : { ...base, negRiskMarketId: r[4] as string }, tokens: [] };
      byId.set(id, m);
    }
    m.tokens.push({ tokenId: r[9] as string, outcome: r[10] as string });
  }
  return { ...manifest.recording, markets: [...byId.values()].map((m) => ({ ...m.market, tokens: m.tokens })) };
}

/** The events a recording export describes, in the recording's order (the tables merged by `seq`). */
export async function* readRecordingEvents(dir: string, manifest: ExportManifest): AsyncGenerator<MarketEvent> {
  const streams = [
    bookEvents(rowsOf(dir, manifest, BOOKS_TABLE)),
    tradeEvents(rowsOf(dir, manifest, TRADES_TABLE)),
    priceEvents(rowsOf(dir, manifest, PRICES_TABLE)),
    lifecycleEvents(rowsOf(dir, manifest, LIFECYCLE_TABLE), join(dir, manifest.tables['lifecycle']?.file ?? 'lifecycle')),
    // an export written before wallet trades were exported has no such table
    ...(manifest.tables[WALLET_TRADES_TABLE.name] !== undefined ? [walletTradeEvents(rowsOf(dir, manifest, WALLET_TRADES_TABLE))] : []),
  ];
  const next = async (s: AsyncGenerator<Sequenced>): Promise<Sequenced | undefined> => {
    const step = await s.next();
    return step.done === true ? undefined : step.value;
  };
  const heads: (Sequenced | undefined)[] = [];
  for (const s of streams) heads.push(await next(s));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) if (heads[i] !== undefined && (best < 0 || heads[i]!.seq < heads[best]!.seq)) best = i;
    if (best < 0) return;
    yield heads[best]!.event;
    heads[best] = await next(streams[best]!);
  }
}
