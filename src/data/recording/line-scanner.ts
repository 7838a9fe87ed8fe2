import { scanMicros, scannedTo, type Micros } from '../../core/fixed.ts';
import type { BookLevel } from '../../core/types.ts';
import { makeOrderBook } from '../../venue/books-scan.ts';
import { shortText } from './short-text.ts';
import type { MarketEvent } from '../../core/events.ts';

/**
 * The hot path of the text reader: one `book` or `trade` line (the kinds a recording is made
 * of), read in a single pass straight from the bytes of the chunk it sits in (no line string, no
 * JSON tree, no price strings; the few strings it makes are fresh copies, never slices that would
 * keep a whole chunk alive). It accepts exactly the book and trade events of the format (keys in
 * any order, whitespace anywhere) and gives up (returns undefined) on anything else: another
 * event kind, a key the kind does not have, an escape in a string, a
 * number where a string belongs, a malformed decimal, a non-ASCII byte in a string, a token
 * outside the header, a condition id other than the header's for that token. The reader
 * then takes the generic path (JSON.parse + decodeRecordedEvent), which either accepts the line
 * or throws a DecodeError naming the field, so both paths agree on every line.
 */

/** Thrown to leave the fast path (made once: throwing it costs no allocation). */
const BAIL = new Error('not the shape the line scanner reads');

const BOOK = 1;
const TRADE = 2;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
const DOT = 46;

const EMPTY = Buffer.alloc(0);

let src: Buffer = EMPTY;
let pos = 0;
let end = 0;
let strStart = 0;
let strEnd = 0;

/** A token of the header: its id and its market's condition id. */
export interface ScanTokenEntry {
  readonly tokenId: string;
  readonly conditionId: string;
}

/**
 * What the scanner knows of a token: the header's strings, and the last book's hash and sides
 * (a level equal to one of the last book is that same immutable object: between two snapshots
 * most levels do not change, so most levels cost no allocation).
 */
interface ScanToken extends ScanTokenEntry {
  lastHash: string | undefined;
  lastBids: BookLevel[];
  lastAsks: BookLevel[];
}

const NO_LEVELS: BookLevel[] = [];

/**
 * The header's tokens, found from the bytes of a line without making a string of the id (a
 * hash of the bytes picks the candidates, which are then compared byte for byte).
 */
export class ScanTokenTable {
  readonly #byHash = new Map<number, ScanToken[]>();

  constructor(entries: Iterable<ScanTokenEntry>) {
    for (const entry of entries) this.add(entry);
  }

  /** One more token (a market that joined the recording); a token already held is kept as it is. */
  add(entry: ScanTokenEntry): void {
    const token: ScanToken = { tokenId: entry.tokenId, conditionId: entry.conditionId, lastHash: undefined, lastBids: NO_LEVELS, lastAsks: NO_LEVELS };
    const key = hashText(token.tokenId);
    const list = this.#byHash.get(key);
    if (list === undefined) this.#byHash.set(key, [token]);
    else if (!list.some((t) => t.tokenId === token.tokenId)) list.push(token);
  }

  /** The token whose id is spelled by `bytes[start, stop)` (ASCII), if the header has it. */
  find(bytes: Buffer, start: number, stop: number): ScanToken | undefined {
    const list = this.#byHash.get(hashBytes(bytes, start, stop));
    if (list === undefined) return undefined;
    for (let k = 0; k < list.length; k++) {
      const token = list[k]!;
      const id = token.tokenId;
      if (id.length !== stop - start) continue;
      let i = 0;
      while (i < id.length && bytes[start + i] === id.charCodeAt(i)) i++;
      if (i === id.length) return token;
    }
    return undefined;
  }
}

/** FNV-1a over bytes (the same value as `hashText` for an ASCII string). */
function hashBytes(bytes: Buffer, start: number, stop: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < stop; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * Scans `bytes[start, stop)` as a book or trade event line. `tokens` holds the header's strings
 * for each token (an unknown token, or another condition id, bails).
 */
export function scanEventLine(bytes: Buffer, start: number, stop: number, tokens: ScanTokenTable): MarketEvent | undefined {
  src = bytes;
  pos = start;
  end = stop;
  try {
    return readEvent(tokens);
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  } finally {
    src = EMPTY;
  }
}

function readEvent(tokens: ScanTokenTable): MarketEvent {
  skipWs();
  expect(LBRACE);
  let kind = 0;
  let tsEvent = -1;
  let tsInit = -1;
  let token: ScanToken | undefined;
  let condStart = -1;
  let condEnd = -1;
  let condOf: ScanToken | undefined; // the token whose condition id was matched in place
  let hashStart = -1;
  let hashEnd = -1;
  let bids: BookLevel[] | undefined;
  let asks: BookLevel[] | undefined;
  let tickSize: Micros | undefined;
  let minOrderSize: Micros | undefined;
  let negRisk: boolean | undefined;
  let lastTradePrice: Micros | undefined;
  let price = -1;
  let size = -1;
  let side: 'BUY' | 'SELL' | undefined;
  for (;;) {
    skipWs();
    if (src[pos] !== QUOTE) throw BAIL;
    const k = pos + 1;
    switch (src[k]) {
      case 116: // t
        if (key('t"', k)) {
          if (has('"book"', pos)) {
            pos += 6;
            kind = BOOK;
          } else if (has('"trade"', pos)) {
            pos += 7;
            kind = TRADE;
          } else throw BAIL;
        } else if (key('tsEvent"', k)) tsEvent = readInt();
        else if (key('tsInit"', k)) tsInit = readInt();
        else if (key('tokenId"', k)) {
          readString();
          token = tokens.find(src, strStart, strEnd);
          if (token === undefined) throw BAIL;
        } else if (key('tickSize"', k)) {
          tickSize = readMicros();
          if (tickSize === 0) throw BAIL;
        } else throw BAIL;
        break;
      case 99: // c
        onlyKey('conditionId"', k);
        // the token came first (as the recorder writes): its condition id is matched in place,
        // one pass over the bytes instead of a string read and a compare
        if (token !== undefined && quoted(token.conditionId)) {
          condOf = token;
          break;
        }
        condOf = undefined;
        readString();
        condStart = strStart;
        condEnd = strEnd;
        break;
      case 104: // h
        onlyKey('hash"', k);
        readString();
        hashStart = strStart;
        hashEnd = strEnd;
        break;
      case 98: // b
        onlyKey('bids"', k);
        bids = readLevels(true, token?.lastBids ?? NO_LEVELS);
        break;
      case 97: // a
        onlyKey('asks"', k);
        asks = readLevels(false, token?.lastAsks ?? NO_LEVELS);
        break;
      case 109: // m
        onlyKey('minOrderSize"', k);
        minOrderSize = readMicros();
        break;
      case 110: // n
        onlyKey('negRisk"', k);
        negRisk = readBool();
        break;
      case 108: // l
        onlyKey('lastTradePrice"', k);
        lastTradePrice = readMicros();
        break;
      case 112: // p
        onlyKey('price"', k);
        price = readMicros();
        break;
      case 115: // s
        if (key('size"', k)) size = readMicros();
        else if (key('side"', k)) {
          if (has('"BUY"', pos)) side = 'BUY';
          else if (has('"SELL"', pos)) side = 'SELL';
          else throw BAIL;
          pos += side.length + 2;
        } else throw BAIL;
        break;
      default:
        throw BAIL;
    }
    skipWs();
    const c = src[pos++];
    if (c === COMMA) continue;
    if (c === RBRACE) break;
    throw BAIL;
  }
  skipWs();
  if (pos !== end || tsEvent < 0 || tsInit < 0 || token === undefined) throw BAIL;
  const bookKeys = condOf !== undefined || condStart >= 0 || hashStart >= 0 || bids !== undefined || asks !== undefined || tickSize !== undefined || minOrderSize !== undefined || negRisk !== undefined || lastTradePrice !== undefined;
  if (kind === TRADE) {
    // a key of a book on a trade: the generic path decides
    if (price < 0 || size < 0 || side === undefined || bookKeys) throw BAIL;
    return { type: 'trade', tokenId: token.tokenId, price, size, side, tsEvent, tsInit };
  }
  if (kind !== BOOK || price >= 0 || size >= 0 || side !== undefined || (condOf === undefined && condStart < 0) || hashStart < 0 || bids === undefined || asks === undefined) {
    throw BAIL;
  }
  if (condOf === undefined ? !equals(token.conditionId, condStart, condEnd) : condOf !== token) throw BAIL;
  let hash = token.lastHash;
  if (hash === undefined || !equals(hash, hashStart, hashEnd)) {
    hash = shortText(src, hashStart, hashEnd);
    token.lastHash = hash;
  }
  token.lastBids = bids;
  token.lastAsks = asks;
  const book = makeOrderBook(token.tokenId, token.conditionId, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice);
  return { type: 'book', book, tsEvent, tsInit };
}

/**
 * `[["price","size"], …]` at `pos`. The hot loop of the reader: the buffer and the position are
 * locals (and arguments of `scanMicros`), so V8 keeps them in registers instead of reloading the
 * module's state at every byte. A level equal to one of `last` (the token's last book side) is
 * that object.
 */
function readLevels(isBids: boolean, last: readonly BookLevel[]): BookLevel[] {
  const s = src;
  const e = end;
  // sized as the last book's side (most books keep their depth): no growing by push
  const levels: BookLevel[] = new Array<BookLevel>(last.length);
  let n = 0;
  let i = skipWsAt(s, pos);
  if (s[i] !== LBRACKET) throw BAIL;
  i = skipWsAt(s, i + 1);
  if (s[i] === RBRACKET) {
    pos = i + 1;
    return [];
  }
  let j = 0; // the first level of `last` not better than `price` (when in book order)
  for (;;) {
    if (s[i] !== LBRACKET) throw BAIL;
    // the price, then the size: quoted decimals, read by core/fixed.ts's scanMicros (a '-' bails).
    // First as every writer spells a level, `["price","size"]` with no whitespace (about a tenth
    // faster than reading it as any JSON: measured A/B), else with whitespace anywhere
    let price = s[i + 1] === QUOTE ? scanMicros(s, i + 2, QUOTE) : NaN;
    let q = scannedTo();
    let size = price === price && s[q + 1] === COMMA && s[q + 2] === QUOTE ? scanMicros(s, q + 3, QUOTE) : NaN;
    q = scannedTo();
    if (size === size && s[q + 1] === RBRACKET && q + 1 < e) i = q + 2;
    else {
      i = skipWsAt(s, i + 1);
      price = quotedMicros(s, i, e);
      i = skipWsAt(s, scannedTo() + 1);
      if (s[i] !== COMMA) throw BAIL;
      i = skipWsAt(s, i + 1);
      size = quotedMicros(s, i, e);
      i = skipWsAt(s, scannedTo() + 1);
      if (s[i] !== RBRACKET) throw BAIL;
      i++;
    }
    if (isBids) while (j < last.length && last[j]!.price > price) j++;
    else while (j < last.length && last[j]!.price < price) j++;
    const same = last[j];
    levels[n++] = same !== undefined && same.price === price && same.size === size ? same : { price, size };
    let c = s[i];
    if (c !== COMMA && c !== RBRACKET) c = s[(i = skipWsAt(s, i))];
    i++;
    if (c === COMMA) {
      if (s[i] !== LBRACKET) i = skipWsAt(s, i);
      continue;
    }
    if (c === RBRACKET && i <= e) {
      pos = i;
      if (n !== levels.length) levels.length = n;
      return levels;
    }
    throw BAIL;
  }
}

/** The quoted decimal at `s[i]`, its closing quote before `e`; `scannedTo()` gives that quote. */
function quotedMicros(s: Buffer, i: number, e: number): Micros {
  if (s[i] !== QUOTE) throw BAIL;
  const value = scanMicros(s, i + 1, QUOTE);
  if (value !== value || scannedTo() >= e) throw BAIL; // NaN: not a quoted decimal
  return value;
}

/** The first position at or after `i` that is not JSON whitespace. */
function skipWsAt(s: Buffer, i: number): number {
  let c = s[i];
  while (c === 32 || c === 9 || c === 13) c = s[++i];
  return i;
}

/**
 * Skips whitespace at `pos`. Small enough for V8 to inline into `readEvent` whatever its budget
 * (the common case: no whitespace, one byte compared); the loop is apart.
 */
function skipWs(): void {
  if (src[pos]! <= 32) skipWsLoop();
}

function skipWsLoop(): void {
  for (;;) {
    const c = src[pos];
    if (c === 32 || c === 9 || c === 13) pos++;
    else return;
  }
}

function expect(c: number): void {
  if (pos >= end || src[pos] !== c) throw BAIL;
  pos++;
}

/** The colon after a key (inlined as `skipWs`: the common case is one byte, then no whitespace). */
function colon(): void {
  if (pos < end && src[pos] === COLON && src[pos + 1]! > 32) pos++;
  else colonSpaced();
}

function colonSpaced(): void {
  skipWs();
  expect(COLON);
  skipWs();
}

/** An ASCII string without escapes or control characters inside this line; sets strStart/strEnd. */
function readString(): void {
  if (src[pos] !== QUOTE) throw BAIL;
  const start = pos + 1;
  let i = start;
  for (;;) {
    if (i >= end) throw BAIL;
    const c = src[i]!;
    if (c === QUOTE) break;
    if (c === BACKSLASH || c < 32 || c > 126) throw BAIL;
    i++;
  }
  strStart = start;
  strEnd = i;
  pos = i + 1;
}

/** Whether the bytes `[start, stop)` spell `s` (ASCII). */
function equals(s: string, start: number, stop: number): boolean {
  if (stop - start !== s.length) return false;
  for (let i = 0; i < s.length; i++) if (src[start + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** Whether `"s"` (ASCII, no escapes) stands at `pos`, inside the line; if so, `pos` goes past it. */
function quoted(s: string): boolean {
  const at = pos + 1;
  const close = at + s.length;
  if (close >= end || src[pos] !== QUOTE || src[close] !== QUOTE) return false;
  for (let i = 0; i < s.length; i++) if (src[at + i] !== s.charCodeAt(i)) return false;
  pos = close + 1;
  return true;
}

/**
 * Whether the key `name` (its closing quote included) starts at `k`, just after its opening
 * quote; if so, `pos` goes past it and its colon.
 */
function key(name: string, k: number): boolean {
  if (!has(name, k)) return false;
  pos = k + name.length;
  colon();
  return true;
}

/** The key `name` at `k` (as `key`), or the line is not one the scanner reads. */
function onlyKey(name: string, k: number): void {
  if (!key(name, k)) throw BAIL;
}

/** Whether the bytes at `at` start with `s` (ASCII). */
function has(s: string, at: number): boolean {
  if (at + s.length > end) return false;
  for (let i = 0; i < s.length; i++) if (src[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** A non-negative JSON integer (epoch ms): digits only, no sign, fraction or exponent. */
function readInt(): number {
  let i = pos;
  let n = 0;
  let c = src[i]!;
  while (c >= 48 && c <= 57) {
    n = n * 10 + (c - 48);
    c = src[++i]!;
  }
  const digits = i - pos;
  if (digits === 0 || digits > 16 || (digits > 1 && src[pos] === 48)) throw BAIL;
  if (c === DOT || c === 101 || c === 69) throw BAIL;
  if (!Number.isSafeInteger(n)) throw BAIL;
  pos = i;
  return n;
}

/** A quoted decimal at `pos` (core/fixed.ts's `scanMicros`; a '-' bails), closed before `end`. */
function readMicros(): Micros {
  const value = quotedMicros(src, pos, end);
  pos = scannedTo() + 1;
  return value;
}

function readBool(): boolean {
  if (has('true', pos)) {
    pos += 4;
    return true;
  }
  if (has('false', pos)) {
    pos += 5;
    return false;
  }
  throw BAIL;
}
