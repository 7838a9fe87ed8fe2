import type { BookLevel, OrderBook, TokenPrices } from '../core/types.ts';
import type { MarketEvent } from '../data/market-events.ts';

/**
 * A batch of market events as flat typed arrays, for moving decoded events between threads
 * without the structured clone of an object graph (the arrays' buffers are transferred, not
 * copied; only the book hashes travel as strings). `unpackEvents(packEvents(x))` gives events
 * equal to `x` field for field.
 *
 *   kinds  one per event: 0 book, 1 prices, 2 trade, 3 tickSize
 *   ts     tsEvent, tsInit per event
 *   ints   book: token, condition, flags, nBids, nAsks | prices: n, then (token, has) each |
 *          trade: token, side (0 BUY, 1 SELL) | tickSize: token
 *          (a token or condition is an index in the tables, or -1 with its text in `strings`)
 *   nums   book: [tickSize] [minOrderSize] [lastTradePrice] then price, size per level |
 *          prices: [buy] [sell] per entry | trade: price, size | tickSize: tickSize
 *   strings  book hashes, and ids missing from the tables, in event order
 */
export interface PackedBatch {
  readonly n: number;
  readonly kinds: Uint8Array;
  readonly ts: Float64Array;
  readonly ints: Int32Array;
  readonly nums: Float64Array;
  readonly strings: string[];
}

const BOOK = 0;
const PRICES = 1;
const TRADE = 2;
const TICK = 3;

/** Ids shared by both sides: the recording header's token and condition ids. */
export interface PackTables {
  readonly tokens: readonly string[];
  readonly conditions: readonly string[];
}

export function packEvents(events: readonly MarketEvent[], tables: PackTables, index?: { tokens: Map<string, number>; conditions: Map<string, number> }): PackedBatch {
  const tokenIndex = index?.tokens ?? new Map(tables.tokens.map((t, i) => [t, i]));
  const conditionIndex = index?.conditions ?? new Map(tables.conditions.map((c, i) => [c, i]));
  let nInts = 0;
  let nNums = 0;
  for (const e of events) {
    switch (e.type) {
      case 'book':
        nInts += 5;
        nNums += 3 + 2 * (e.book.bids.length + e.book.asks.length);
        break;
      case 'prices':
        nInts += 1 + 2 * e.prices.length;
        nNums += 2 * e.prices.length;
        break;
      case 'trade':
        nInts += 2;
        nNums += 2;
        break;
      case 'tickSize':
        nInts += 1;
        nNums += 1;
        break;
    }
  }
  const n = events.length;
  const kinds = new Uint8Array(n);
  const ts = new Float64Array(2 * n);
  const ints = new Int32Array(nInts);
  const nums = new Float64Array(nNums);
  const strings: string[] = [];
  let ii = 0;
  let ni = 0;
  const ref = (map: Map<string, number>, id: string): number => {
    const k = map.get(id);
    if (k !== undefined) return k;
    strings.push(id);
    return -1;
  };
  for (let k = 0; k < n; k++) {
    const e = events[k]!;
    ts[2 * k] = e.tsEvent;
    ts[2 * k + 1] = e.tsInit;
    switch (e.type) {
      case 'book': {
        kinds[k] = BOOK;
        const b = e.book;
        ints[ii++] = ref(tokenIndex, b.tokenId);
        ints[ii++] = ref(conditionIndex, b.conditionId);
        let flags = 0;
        if (b.tickSize !== undefined) {
          flags |= 1;
          nums[ni++] = b.tickSize;
        }
        if (b.minOrderSize !== undefined) {
          flags |= 2;
          nums[ni++] = b.minOrderSize;
        }
        if (b.lastTradePrice !== undefined) {
          flags |= 4;
          nums[ni++] = b.lastTradePrice;
        }
        if (b.negRisk !== undefined) flags |= b.negRisk ? 24 : 8;
        ints[ii++] = flags;
        ints[ii++] = b.bids.length;
        ints[ii++] = b.asks.length;
        strings.push(b.hash);
        for (const l of b.bids) {
          nums[ni++] = l.price;
          nums[ni++] = l.size;
        }
        for (const l of b.asks) {
          nums[ni++] = l.price;
          nums[ni++] = l.size;
        }
        break;
      }
      case 'prices': {
        kinds[k] = PRICES;
        ints[ii++] = e.prices.length;
        for (const p of e.prices) {
          ints[ii++] = ref(tokenIndex, p.tokenId);
          ints[ii++] = (p.buy !== undefined ? 1 : 0) | (p.sell !== undefined ? 2 : 0);
          if (p.buy !== undefined) nums[ni++] = p.buy;
          if (p.sell !== undefined) nums[ni++] = p.sell;
        }
        break;
      }
      case 'trade':
        kinds[k] = TRADE;
        ints[ii++] = ref(tokenIndex, e.tokenId);
        ints[ii++] = e.side === 'BUY' ? 0 : 1;
        nums[ni++] = e.price;
        nums[ni++] = e.size;
        break;
      case 'tickSize':
        kinds[k] = TICK;
        ints[ii++] = ref(tokenIndex, e.tokenId);
        nums[ni++] = e.tickSize;
        break;
    }
  }
  return { n, kinds, ts, ints: ints.subarray(0, ii), nums: nums.subarray(0, ni), strings };
}

/** The buffers to transfer with a batch. */
export function transferList(batch: PackedBatch): ArrayBuffer[] {
  return [batch.kinds.buffer, batch.ts.buffer, batch.ints.buffer, batch.nums.buffer] as ArrayBuffer[];
}

export function unpackEvents(batch: PackedBatch, tables: PackTables): MarketEvent[] {
  const { n, kinds, ts, ints, nums, strings } = batch;
  const tokens = tables.tokens;
  const conditions = tables.conditions;
  const out = new Array<MarketEvent>(n);
  let ii = 0;
  let ni = 0;
  let si = 0;
  for (let k = 0; k < n; k++) {
    const tsEvent = ts[2 * k]!;
    const tsInit = ts[2 * k + 1]!;
    switch (kinds[k]) {
      case BOOK: {
        const t = ints[ii++]!;
        const tokenId = t >= 0 ? tokens[t]! : strings[si++]!;
        const c = ints[ii++]!;
        const conditionId = c >= 0 ? conditions[c]! : strings[si++]!;
        const flags = ints[ii++]!;
        const nBids = ints[ii++]!;
        const nAsks = ints[ii++]!;
        const tickSize = flags & 1 ? nums[ni++] : undefined;
        const minOrderSize = flags & 2 ? nums[ni++] : undefined;
        const lastTradePrice = flags & 4 ? nums[ni++] : undefined;
        const negRisk = flags & 8 ? (flags & 16) !== 0 : undefined;
        const hash = strings[si++]!;
        const bids = new Array<BookLevel>(nBids);
        for (let i = 0; i < nBids; i++) {
          bids[i] = { price: nums[ni]!, size: nums[ni + 1]! };
          ni += 2;
        }
        const asks = new Array<BookLevel>(nAsks);
        for (let i = 0; i < nAsks; i++) {
          asks[i] = { price: nums[ni]!, size: nums[ni + 1]! };
          ni += 2;
        }
        const book: OrderBook = { tokenId, conditionId, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice };
        out[k] = { type: 'book', book, tsEvent, tsInit };
        break;
      }
      case PRICES: {
        const m = ints[ii++]!;
        const prices = new Array<TokenPrices>(m);
        for (let i = 0; i < m; i++) {
          const t = ints[ii++]!;
          const tokenId = t >= 0 ? tokens[t]! : strings[si++]!;
          const has = ints[ii++]!;
          const buy = has & 1 ? nums[ni++] : undefined;
          const sell = has & 2 ? nums[ni++] : undefined;
          prices[i] = { tokenId, buy, sell, tsInit };
        }
        out[k] = { type: 'prices', prices, tsEvent, tsInit };
        break;
      }
      case TRADE: {
        const t = ints[ii++]!;
        const tokenId = t >= 0 ? tokens[t]! : strings[si++]!;
        const side = ints[ii++] === 0 ? 'BUY' : 'SELL';
        const price = nums[ni++]!;
        const size = nums[ni++]!;
        out[k] = { type: 'trade', tokenId, price, size, side, tsEvent, tsInit };
        break;
      }
      default: {
        const t = ints[ii++]!;
        const tokenId = t >= 0 ? tokens[t]! : strings[si++]!;
        out[k] = { type: 'tickSize', tokenId, tickSize: nums[ni++]!, tsEvent, tsInit };
      }
    }
  }
  return out;
}
