import { basename } from 'node:path';
import { DecodeError } from '../core/errors.ts';
import { MICROS_PER_UNIT, formatMicros, type Micros } from '../core/fixed.ts';
import type { BookLevel, OrderBook } from '../core/types.ts';
import type { RecordedMarket, RecordingForm, RecordingHeader } from './recording/format.ts';
import { RECORDING_FORMAT, RECORDING_VERSION } from './recording/format.ts';
import { createRecordingWriter } from './recording/writer.ts';
import { readMarketInfo, syntheticIds } from './import-markets.ts';
import { columnNames, compareBytes, mayHold, openParquet, readRows } from './import-parquet.ts';

export { syntheticIds };

/**
 * Turns third-party top-of-book quotes (Parquet, one row per market per sweep: `ts`, `slug`,
 * `bid`, `ask`, ...; see /work/shared/data/polymarket-top-of-book/SOURCES.md) into a replayable
 * recording. What is made up, and how (also in backtest/README.md):
 *
 * - Markets: one synthetic binary market per slug. `conditionId` = `0x` + sha256 of
 *   `clobot-import:<slug>`; the token ids are sha256 of `clobot-import:<slug>:Yes` and
 *   `...:No` read as 256-bit numbers, in decimal (the venue's uint256 form). Stable across runs.
 *   Question from `markets.parquet` beside the input when it is there, else the slug.
 *   Min order size 5, fees 0, not neg-risk.
 * - Events: a family of markets (one question, slugs differing in their last part: the outcomes
 *   of one event) is one event of the header, not neg-risk (import-markets.ts says how and why).
 * - Update interval: the header's `medianUpdateMs` is the median time between two quotes of one
 *   market (some 2 minutes in this data); a backtest warns when it is longer than the config's
 *   `risk.staleBookMs` (every order would meet a stale book).
 * - Books: one level a side with a synthetic size of 100 shares (`SYNTHETIC_SIZE`). YES: bid and
 *   ask as quoted. NO mirrors it: NO bid = 1 - YES ask, NO ask = 1 - YES bid. A missing bid or
 *   ask (null) is an empty side; both missing is an empty book. `hash` = `<bid>-<ask>` in Micros
 *   (`x` for an empty side): equal books, equal hashes.
 * - Tick: per market, the coarsest of 0.01, 0.001, 0.0001, ... on which every quoted price of
 *   that market lies (0.01 unless a price needs more decimals).
 * - Times: tsEvent = tsInit = the row's `ts` in epoch ms (UTC).
 * - Skipped rows (counted): crossed or locked quotes (ask <= bid), and invalid ones (a price
 *   outside (0, 1) or with more than 6 decimals).
 * - Order: the files are sorted by slug, not by time. The usable quotes are held in compact typed
 *   arrays (about 24 bytes a quote: some 60 MB for the 4.5-million-row day file) and sorted by
 *   time (ties keep file order, YES before NO), then written out; row groups are read one at a
 *   time, so the Parquet data itself is never all in memory.
 * - `limitMarkets`: keeps the first N slugs in file order; once N are known, row groups whose
 *   slug statistics cannot hold them are not read at all.
 */

/** Size of every synthetic level, shares. */
export const SYNTHETIC_SIZE: Micros = 100 * MICROS_PER_UNIT;
/** Min order size of the synthetic markets (the venue's usual 5 shares). */
export const SYNTHETIC_MIN_ORDER_SIZE: Micros = 5 * MICROS_PER_UNIT;

export interface ImportQuotesOptions {
  /** A quotes Parquet file. */
  readonly input: string;
  /** The recording to write (gzip when it ends in `.gz`). */
  readonly out: string;
  /** Keep only the first N slugs (file order). */
  readonly limitMarkets?: number;
  /** Keeps only the slugs this accepts (`--slugs`, `--match`), then the first `limitMarkets` of them. */
  readonly selectSlug?: (slug: string) => boolean;
  readonly form?: RecordingForm;
  /** `markets.parquet` for questions; default: the one beside the input if any; null: none. */
  readonly marketsFile?: string | null;
  /** After each row group read. */
  readonly onProgress?: (progress: { rowGroups: number; rowGroupsTotal: number; rows: number; quotes: number }) => void;
}

export interface ImportQuotesResult {
  readonly path: string;
  /** Rows read from the Parquet file (row groups skipped by `limitMarkets` are not read). */
  readonly rows: number;
  readonly rowGroupsRead: number;
  readonly rowGroupsTotal: number;
  /** Quotes turned into books (each gives two events, YES and NO). */
  readonly quotes: number;
  readonly events: number;
  readonly markets: number;
  /** Slugs kept but without one usable quote: left out of the header. */
  readonly marketsWithoutQuotes: number;
  /** Families of markets written as events of the header (import-markets.ts). */
  readonly families: number;
  /** The median time between two quotes of one market, ms (the header's `medianUpdateMs`); undefined: no market quoted twice. */
  readonly medianUpdateMs: number | undefined;
  readonly skipped: { readonly crossed: number; readonly invalid: number };
  /** Quotes with one side missing, and with both missing (empty books). */
  readonly oneSided: number;
  readonly empty: number;
  /** The rows were not in time order (they were sorted). */
  readonly sorted: boolean;
  readonly firstTs: number | undefined;
  readonly lastTs: number | undefined;
  readonly bytes: number;
  /** Markets per tick size (decimal string -> count). */
  readonly ticks: Readonly<Record<string, number>>;
}

const NONE = -1;
const TICKS: readonly Micros[] = [10_000, 1_000, 100, 10, 1];

/** Growable typed columns of the kept quotes. */
class QuoteColumns {
  length = 0;
  ts = new Float64Array(1 << 16);
  market = new Int32Array(1 << 16);
  bid = new Int32Array(1 << 16);
  ask = new Int32Array(1 << 16);

  push(ts: number, market: number, bid: number, ask: number): void {
    if (this.length === this.ts.length) this.#grow();
    const i = this.length++;
    this.ts[i] = ts;
    this.market[i] = market;
    this.bid[i] = bid;
    this.ask[i] = ask;
  }

  #grow(): void {
    const n = this.ts.length * 2;
    const grow = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.ts = grow(this.ts, (k) => new Float64Array(k));
    this.market = grow(this.market, (k) => new Int32Array(k));
    this.bid = grow(this.bid, (k) => new Int32Array(k));
    this.ask = grow(this.ask, (k) => new Int32Array(k));
  }
}

/** A quoted price as Micros strictly inside (0, 1), or NaN (not a valid price). */
function priceMicros(v: number): number {
  if (!Number.isFinite(v)) return NaN;
  const m = Math.round(v * MICROS_PER_UNIT);
  if (Math.abs(v * MICROS_PER_UNIT - m) > 1e-3) return NaN; // more than 6 decimals
  return m > 0 && m < MICROS_PER_UNIT ? m : NaN;
}

function tsMillis(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  return NaN;
}

export async function importQuotes(options: ImportQuotesOptions): Promise<ImportQuotesResult> {
  const { input } = options;
  const limit = options.limitMarkets ?? Infinity;
  const { file, metadata } = await openParquet(input);
  const have = columnNames(metadata);
  for (const c of ['ts', 'slug', 'bid', 'ask']) {
    if (!have.has(c)) throw new DecodeError(`${input}: columns`, `a quotes file with ts, slug, bid and ask`, `columns ${[...have].join(', ')}`);
  }

  const slugs: string[] = [];
  const slugIndex = new Map<string, number>();
  const quotes = new QuoteColumns();
  let rows = 0;
  let crossed = 0;
  let invalid = 0;
  let oneSided = 0;
  let empty = 0;
  let inOrder = true;
  let lastTs = -Infinity;
  let groupsRead = 0;
  let keptMin = '';
  let keptMax = '';

  let rowStart = 0;
  const groups = metadata.row_groups.length;
  for (let g = 0; g < groups; g++) {
    const n = Number(metadata.row_groups[g]!.num_rows);
    const start = rowStart;
    rowStart += n;
    if (slugs.length >= limit && !mayHold(metadata, g, 'slug', keptMin, keptMax)) continue;
    const data = await readRows(file, metadata, ['ts', 'slug', 'bid', 'ask'], start, start + n);
    groupsRead++;
    for (const row of data) {
      rows++;
      const slug = row[1];
      if (typeof slug !== 'string') {
        invalid++;
        continue;
      }
      let market = slugIndex.get(slug);
      if (market === undefined) {
        if (slugs.length >= limit) continue;
        if (options.selectSlug !== undefined && !options.selectSlug(slug)) continue;
        market = slugs.length;
        slugs.push(slug);
        slugIndex.set(slug, market);
        if (slugs.length === limit) {
          const sorted = [...slugs].sort(compareBytes);
          keptMin = sorted[0]!;
          keptMax = sorted[sorted.length - 1]!;
        }
      }
      const ts = tsMillis(row[0]);
      const rawBid = row[2];
      const rawAsk = row[3];
      const bid = rawBid === null || rawBid === undefined ? NONE : priceMicros(Number(rawBid));
      const ask = rawAsk === null || rawAsk === undefined ? NONE : priceMicros(Number(rawAsk));
      if (!Number.isSafeInteger(ts) || ts < 0 || Number.isNaN(bid) || Number.isNaN(ask)) {
        invalid++;
        continue;
      }
      if (bid !== NONE && ask !== NONE && ask <= bid) {
        crossed++;
        continue;
      }
      if (bid === NONE && ask === NONE) empty++;
      else if (bid === NONE || ask === NONE) oneSided++;
      if (ts < lastTs) inOrder = false;
      lastTs = ts;
      quotes.push(ts, market, bid, ask);
    }
    options.onProgress?.({ rowGroups: groupsRead, rowGroupsTotal: groups, rows, quotes: quotes.length });
  }

  // ticks: the coarsest grid every price of the market lies on
  const tickIndex = new Int8Array(slugs.length);
  const quoted = new Uint8Array(slugs.length);
  for (let i = 0; i < quotes.length; i++) {
    const m = quotes.market[i]!;
    quoted[m] = 1;
    for (const price of [quotes.bid[i]!, quotes.ask[i]!]) {
      if (price === NONE) continue;
      while (price % TICKS[tickIndex[m]!]! !== 0) tickIndex[m]!++;
    }
  }

  const order = timeOrder(quotes, inOrder);
  const info = await readMarketInfo(options.marketsFile, input, slugs.filter((_, m) => quoted[m]));
  const questions = info.questions;

  const markets: RecordedMarket[] = [];
  const ids: { conditionId: string; yes: string; no: string; tick: Micros }[] = [];
  const ticks: Record<string, number> = {};
  for (let m = 0; m < slugs.length; m++) {
    const slug = slugs[m]!;
    const { conditionId, yesTokenId, noTokenId } = syntheticIds(slug);
    const tick = TICKS[tickIndex[m]!]!;
    ids.push({ conditionId, yes: yesTokenId, no: noTokenId, tick });
    if (!quoted[m]) continue;
    ticks[formatMicros(tick)] = (ticks[formatMicros(tick)] ?? 0) + 1;
    markets.push({
      conditionId,
      question: questions.get(slug) ?? slug,
      slug,
      negRisk: false,
      tickSize: formatMicros(tick),
      minOrderSize: formatMicros(SYNTHETIC_MIN_ORDER_SIZE),
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: yesTokenId, outcome: 'Yes' },
        { tokenId: noTokenId, outcome: 'No' },
      ],
    });
  }

  const firstTs = quotes.length > 0 ? quotes.ts[order[0]!]! : undefined;
  const medianUpdateMs = medianGap(quotes, order, slugs.length);
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    createdAt: firstTs ?? 0,
    source: `import:${basename(input)}`,
    markets,
    ...(info.events.length > 0 ? { events: info.events } : {}),
    ...(medianUpdateMs !== undefined ? { medianUpdateMs } : {}),
  };
  const writer = createRecordingWriter(options.out, header, { form: options.form ?? 'text' });
  try {
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      const ts = quotes.ts[i]!;
      const id = ids[quotes.market[i]!]!;
      const bid = quotes.bid[i]!;
      const ask = quotes.ask[i]!;
      const yes = book(id.yes, id.conditionId, ts, id.tick, bid, ask);
      const no = book(id.no, id.conditionId, ts, id.tick, ask === NONE ? NONE : MICROS_PER_UNIT - ask, bid === NONE ? NONE : MICROS_PER_UNIT - bid);
      writer.write({ type: 'book', book: yes, tsEvent: ts, tsInit: ts });
      writer.write({ type: 'book', book: no, tsEvent: ts, tsInit: ts });
    }
  } finally {
    await writer.close();
  }

  return {
    path: writer.path,
    rows,
    rowGroupsRead: groupsRead,
    rowGroupsTotal: groups,
    quotes: quotes.length,
    events: writer.events,
    markets: markets.length,
    marketsWithoutQuotes: slugs.length - markets.length,
    families: info.events.length,
    medianUpdateMs,
    skipped: { crossed, invalid },
    oneSided,
    empty,
    sorted: !inOrder,
    firstTs,
    lastTs: quotes.length > 0 ? quotes.ts[order[order.length - 1]!]! : undefined,
    bytes: writer.bytes,
    ticks,
  };
}

function level(price: number): BookLevel[] {
  return price === NONE ? [] : [{ price, size: SYNTHETIC_SIZE }];
}

function book(tokenId: string, conditionId: string, ts: number, tick: Micros, bid: number, ask: number): OrderBook {
  return {
    tokenId,
    conditionId,
    tsEvent: ts,
    tsInit: ts,
    hash: `${bid === NONE ? 'x' : bid}-${ask === NONE ? 'x' : ask}`,
    bids: level(bid),
    asks: level(ask),
    tickSize: tick,
    minOrderSize: SYNTHETIC_MIN_ORDER_SIZE,
    negRisk: false,
    lastTradePrice: undefined,
  };
}

/** The median time between two successive quotes of one market, ms (every market's gaps pooled). */
function medianGap(q: QuoteColumns, order: Uint32Array, markets: number): number | undefined {
  const last = new Float64Array(markets).fill(NaN);
  const gaps = new Float64Array(Math.max(0, order.length - 1));
  let n = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const m = q.market[i]!;
    const prev = last[m]!;
    if (!Number.isNaN(prev)) gaps[n++] = q.ts[i]! - prev;
    last[m] = q.ts[i]!;
  }
  if (n === 0) return undefined;
  const sorted = gaps.subarray(0, n).sort();
  return n % 2 === 1 ? sorted[(n - 1) >> 1]! : Math.round((sorted[n / 2 - 1]! + sorted[n / 2]!) / 2);
}

/**
 * Quote indices in time order, ties in file order. When every key `(ts - min) * n + i` fits in
 * a double exactly, one native numeric sort of the keys; otherwise a comparator sort.
 */
function timeOrder(q: QuoteColumns, inOrder: boolean): Uint32Array {
  const n = q.length;
  const order = new Uint32Array(n);
  if (inOrder) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order;
  }
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = q.ts[i]!;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if ((max - min + 1) * n < Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (q.ts[i]! - min) * n + i;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = keys[k]! % n;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => q.ts[a]! - q.ts[b]! || a - b);
  return order;
}
