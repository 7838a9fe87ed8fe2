import { scanMicros, scannedTo, type Micros } from '../core/fixed.ts';
import type { BookLevel, OrderBook } from '../core/types.ts';

/**
 * The hot path of `POST /books`: a single pass over the answer text straight to domain books,
 * without building the intermediate JSON tree or the price/size strings. It understands exactly
 * the shape of interface 2.12 (keys in any order, unknown keys skipped, whitespace anywhere) and
 * gives up (returns undefined) on anything else: escapes in strings, a number where a string
 * belongs, a malformed decimal, a missing field. The caller then takes the generic path
 * (JSON.parse + decode), which either accepts the payload or throws a DecodeError naming the
 * field. Only `decode.ts` calls this.
 */

/** Thrown to leave the fast path (made once: throwing it costs no allocation). */
const BAIL = new Error('not the shape the books scanner reads');

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
const MINUS = 45;
const DOT = 46;

let src = '';
let pos = 0;
/** Start and end (exclusive) of the last string read by `readString`. */
let strStart = 0;
let strEnd = 0;

export function scanOrderBooks(text: string, tsInit: number): OrderBook[] | undefined {
  src = text;
  pos = 0;
  try {
    const books: OrderBook[] = [];
    skipWs();
    expect(LBRACKET);
    skipWs();
    if (src.charCodeAt(pos) === RBRACKET) {
      pos++;
    } else {
      for (;;) {
        books.push(readBook(tsInit));
        skipWs();
        const c = src.charCodeAt(pos++);
        if (c === COMMA) {
          skipWs();
          continue;
        }
        if (c === RBRACKET) break;
        throw BAIL;
      }
    }
    skipWs();
    if (pos !== src.length) throw BAIL;
    return books;
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  } finally {
    src = '';
  }
}

/** Builds the domain book; both decoding paths use it so every book has the same shape. */
export function makeOrderBook(
  tokenId: string,
  conditionId: string,
  tsEvent: number,
  tsInit: number,
  hash: string,
  bids: BookLevel[],
  asks: BookLevel[],
  tickSize: Micros | undefined,
  minOrderSize: Micros | undefined,
  negRisk: boolean | undefined,
  lastTradePrice: Micros | undefined,
): OrderBook {
  return {
    tokenId,
    conditionId,
    tsEvent,
    tsInit,
    hash,
    bids: orderLevels(bids, true),
    asks: orderLevels(asks, false),
    tickSize,
    minOrderSize,
    negRisk,
    lastTradePrice,
  };
}

/**
 * Puts levels in book order (bids descending, asks ascending) in place. The venue often sends
 * them reversed (best last), so a reversed array is flipped in O(n) and sorting is the fallback.
 */
export function orderLevels(levels: BookLevel[], descending: boolean): BookLevel[] {
  const n = levels.length;
  if (n < 2) return levels;
  let ascending = true;
  let descendingOk = true;
  let prev = (levels[0] as BookLevel).price;
  for (let i = 1; i < n; i++) {
    const p = (levels[i] as BookLevel).price;
    if (p < prev) ascending = false;
    else if (p > prev) descendingOk = false;
    prev = p;
  }
  if (descending) {
    if (descendingOk) return levels;
    if (ascending) return levels.reverse();
    return levels.sort((a, b) => b.price - a.price);
  }
  if (ascending) return levels;
  if (descendingOk) return levels.reverse();
  return levels.sort((a, b) => a.price - b.price);
}

function readBook(tsInit: number): OrderBook {
  expect(LBRACE);
  let market: string | undefined;
  let assetId: string | undefined;
  let tsEvent = -1;
  let hash: string | undefined;
  let bids: BookLevel[] | undefined;
  let asks: BookLevel[] | undefined;
  let tickSize: Micros | undefined;
  let minOrderSize: Micros | undefined;
  let negRisk: boolean | undefined;
  let lastTradePrice: Micros | undefined;
  skipWs();
  if (src.charCodeAt(pos) === RBRACE) throw BAIL;
  for (;;) {
    skipWs();
    if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
    const k = pos + 1;
    switch (src.charCodeAt(k)) {
      case 109: // m
        if (src.startsWith('market"', k)) {
          pos = k + 7;
          colon();
          market = readStringValue();
        } else if (src.startsWith('min_order_size"', k)) {
          pos = k + 15;
          colon();
          minOrderSize = readMicrosString();
        } else skipMember();
        break;
      case 97: // a
        if (src.startsWith('asset_id"', k)) {
          pos = k + 9;
          colon();
          assetId = readStringValue();
        } else if (src.startsWith('asks"', k)) {
          pos = k + 5;
          colon();
          asks = readLevels();
        } else skipMember();
        break;
      case 98: // b
        if (src.startsWith('bids"', k)) {
          pos = k + 5;
          colon();
          bids = readLevels();
        } else skipMember();
        break;
      case 116: // t
        if (src.startsWith('timestamp"', k)) {
          pos = k + 10;
          colon();
          tsEvent = readIntString();
        } else if (src.startsWith('tick_size"', k)) {
          pos = k + 10;
          colon();
          tickSize = readMicrosString();
        } else skipMember();
        break;
      case 104: // h
        if (src.startsWith('hash"', k)) {
          pos = k + 5;
          colon();
          hash = readStringValue();
        } else skipMember();
        break;
      case 110: // n
        if (src.startsWith('neg_risk"', k)) {
          pos = k + 9;
          colon();
          negRisk = readBool();
        } else skipMember();
        break;
      case 108: // l
        if (src.startsWith('last_trade_price"', k)) {
          pos = k + 17;
          colon();
          readString();
          lastTradePrice = strEnd === strStart ? undefined : microsOrBail(strStart, strEnd);
        } else skipMember();
        break;
      default:
        skipMember();
    }
    skipWs();
    const c = src.charCodeAt(pos++);
    if (c === COMMA) continue;
    if (c === RBRACE) break;
    throw BAIL;
  }
  if (market === undefined || assetId === undefined || hash === undefined || bids === undefined || asks === undefined || tsEvent < 0) {
    throw BAIL;
  }
  return makeOrderBook(assetId, market, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice);
}

function readLevels(): BookLevel[] {
  const levels: BookLevel[] = [];
  expect(LBRACKET);
  skipWs();
  if (src.charCodeAt(pos) === RBRACKET) {
    pos++;
    return levels;
  }
  for (;;) {
    levels.push(readLevel());
    skipWs();
    const c = src.charCodeAt(pos++);
    if (c === COMMA) {
      skipWs();
      continue;
    }
    if (c === RBRACKET) return levels;
    throw BAIL;
  }
}

function readLevel(): BookLevel {
  expect(LBRACE);
  let price = -1;
  let size = -1;
  for (;;) {
    skipWs();
    if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
    const k = pos + 1;
    if (src.startsWith('price"', k)) {
      pos = k + 6;
      colon();
      price = readMicrosString();
    } else if (src.startsWith('size"', k)) {
      pos = k + 5;
      colon();
      size = readMicrosString();
    } else {
      skipMember();
    }
    skipWs();
    const c = src.charCodeAt(pos++);
    if (c === COMMA) continue;
    if (c === RBRACE) break;
    throw BAIL;
  }
  // a level without its price or its size: leave it to the generic path
  if (price < 0 || size < 0) throw BAIL;
  return { price, size };
}

function skipWs(): void {
  for (;;) {
    const c = src.charCodeAt(pos);
    if (c === 32 || c === 10 || c === 13 || c === 9) pos++;
    else return;
  }
}

function expect(c: number): void {
  if (src.charCodeAt(pos) !== c) throw BAIL;
  pos++;
}

function colon(): void {
  skipWs();
  expect(COLON);
  skipWs();
}

/** Reads a string without escapes; sets strStart/strEnd to its content. */
function readString(): void {
  if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
  const start = pos + 1;
  const end = src.indexOf('"', start);
  if (end < 0) throw BAIL;
  // Escapes would need decoding; control characters are invalid JSON. Either way: generic path.
  for (let i = start; i < end; i++) {
    const c = src.charCodeAt(i);
    if (c === BACKSLASH || c < 32) throw BAIL;
  }
  strStart = start;
  strEnd = end;
  pos = end + 1;
}

function readStringValue(): string {
  readString();
  return src.slice(strStart, strEnd);
}

/**
 * A quoted decimal (the hot path: every level's price and size), read by core/fixed.ts's
 * `scanMicros`. A '-' bails: the generic path decides what a negative value means.
 */
function readMicrosString(): Micros {
  if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
  const value = scanMicros(src, pos + 1, QUOTE);
  if (value !== value) throw BAIL; // NaN: not a quoted decimal
  pos = scannedTo() + 1;
  return value;
}

/** A string of decimal digits (epoch ms). */
function readIntString(): number {
  readString();
  if (strEnd === strStart || strEnd - strStart > 16) throw BAIL;
  let n = 0;
  for (let i = strStart; i < strEnd; i++) {
    const c = src.charCodeAt(i) - 48;
    if (c < 0 || c > 9) throw BAIL;
    n = n * 10 + c;
  }
  return n;
}

function readBool(): boolean {
  if (src.startsWith('true', pos)) {
    pos += 4;
    return true;
  }
  if (src.startsWith('false', pos)) {
    pos += 5;
    return false;
  }
  throw BAIL;
}

/** The unsigned decimal spelled by the whole of `src[start, end)`, without slicing. */
function microsOrBail(start: number, end: number): Micros {
  const value = scanMicros(src, start, QUOTE);
  if (value !== value || scannedTo() !== end) throw BAIL;
  return value;
}

/** Skips `"key": value` for a key we do not use. */
function skipMember(): void {
  readString();
  colon();
  skipValue(0);
}

function skipValue(depth: number): void {
  if (depth > 32) throw BAIL;
  const c = src.charCodeAt(pos);
  if (c === QUOTE) {
    readString();
    return;
  }
  if (c === LBRACE || c === LBRACKET) {
    const close = c === LBRACE ? RBRACE : RBRACKET;
    pos++;
    skipWs();
    if (src.charCodeAt(pos) === close) {
      pos++;
      return;
    }
    for (;;) {
      skipWs();
      if (c === LBRACE) {
        readString();
        colon();
      }
      skipValue(depth + 1);
      skipWs();
      const d = src.charCodeAt(pos++);
      if (d === COMMA) continue;
      if (d === close) return;
      throw BAIL;
    }
  }
  // number, true, false, null
  const start = pos;
  for (;;) {
    const d = src.charCodeAt(pos);
    if ((d >= 48 && d <= 57) || (d >= 97 && d <= 122) || d === MINUS || d === DOT || d === 43 || d === 69) pos++;
    else break;
  }
  if (pos === start) throw BAIL;
  const word = src.slice(start, pos);
  if (word !== 'true' && word !== 'false' && word !== 'null' && !/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(word)) throw BAIL;
}
