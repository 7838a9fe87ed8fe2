import type { Micros } from '../../core/fixed.ts';
import type { BookLevel } from '../../core/types.ts';
import { makeOrderBook } from '../../venue/books-scan.ts';
import type { MarketEvent } from '../market-events.ts';

/**
 * The hot path of the text reader: one `book` line, read in a single pass straight from the
 * chunk of text it sits in (no line string, no JSON tree, no price strings). It accepts exactly
 * the book event of the format (keys in any order, whitespace anywhere) and gives up (returns
 * undefined) on anything else: another event kind, an unknown key, an escape in a string, a
 * number where a string belongs, a malformed decimal, a token outside the header. The reader
 * then takes the generic path (JSON.parse + decodeRecordedEvent), which either accepts the line
 * or throws a DecodeError naming the field, so both paths agree on every line.
 */

const BAIL = { bail: true } as const;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const LBRACE = 123;
const RBRACE = 125;
const LBRACKET = 91;
const RBRACKET = 93;
const DOT = 46;

let src = '';
let pos = 0;
let end = 0;
let strStart = 0;
let strEnd = 0;

/**
 * Scans `text[start, stop)` as a book event line. `tokens` maps a token id to the header's own
 * string (unknown tokens bail); `conditions` interns condition ids across lines.
 */
export function scanBookLine(
  text: string,
  start: number,
  stop: number,
  tokens: ReadonlyMap<string, string>,
  conditions: Map<string, string>,
): MarketEvent | undefined {
  src = text;
  pos = start;
  end = stop;
  try {
    return readEvent(tokens, conditions);
  } catch (err) {
    if (err === BAIL) return undefined;
    throw err;
  } finally {
    src = '';
  }
}

function readEvent(tokens: ReadonlyMap<string, string>, conditions: Map<string, string>): MarketEvent {
  skipWs();
  expect(LBRACE);
  let isBook = false;
  let tsEvent = -1;
  let tsInit = -1;
  let tokenId: string | undefined;
  let conditionId: string | undefined;
  let hash: string | undefined;
  let bids: BookLevel[] | undefined;
  let asks: BookLevel[] | undefined;
  let tickSize: Micros | undefined;
  let minOrderSize: Micros | undefined;
  let negRisk: boolean | undefined;
  let lastTradePrice: Micros | undefined;
  for (;;) {
    skipWs();
    if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
    const k = pos + 1;
    switch (src.charCodeAt(k)) {
      case 116: // t
        if (src.startsWith('t"', k)) {
          pos = k + 2;
          colon();
          if (!src.startsWith('"book"', pos)) throw BAIL;
          pos += 6;
          isBook = true;
        } else if (src.startsWith('tsEvent"', k)) {
          pos = k + 8;
          colon();
          tsEvent = readInt();
        } else if (src.startsWith('tsInit"', k)) {
          pos = k + 7;
          colon();
          tsInit = readInt();
        } else if (src.startsWith('tokenId"', k)) {
          pos = k + 8;
          colon();
          readString();
          const known = tokens.get(src.slice(strStart, strEnd));
          if (known === undefined) throw BAIL;
          tokenId = known;
        } else if (src.startsWith('tickSize"', k)) {
          pos = k + 9;
          colon();
          tickSize = readMicros();
          if (tickSize === 0) throw BAIL;
        } else throw BAIL;
        break;
      case 99: // c
        if (!src.startsWith('conditionId"', k)) throw BAIL;
        pos = k + 12;
        colon();
        readString();
        if (strEnd === strStart) throw BAIL;
        {
          const id = src.slice(strStart, strEnd);
          conditionId = conditions.get(id);
          if (conditionId === undefined) {
            conditions.set(id, id);
            conditionId = id;
          }
        }
        break;
      case 104: // h
        if (!src.startsWith('hash"', k)) throw BAIL;
        pos = k + 5;
        colon();
        readString();
        hash = src.slice(strStart, strEnd);
        break;
      case 98: // b
        if (!src.startsWith('bids"', k)) throw BAIL;
        pos = k + 5;
        colon();
        bids = readLevels();
        break;
      case 97: // a
        if (!src.startsWith('asks"', k)) throw BAIL;
        pos = k + 5;
        colon();
        asks = readLevels();
        break;
      case 109: // m
        if (!src.startsWith('minOrderSize"', k)) throw BAIL;
        pos = k + 13;
        colon();
        minOrderSize = readMicros();
        break;
      case 110: // n
        if (!src.startsWith('negRisk"', k)) throw BAIL;
        pos = k + 8;
        colon();
        negRisk = readBool();
        break;
      case 108: // l
        if (!src.startsWith('lastTradePrice"', k)) throw BAIL;
        pos = k + 15;
        colon();
        lastTradePrice = readMicros();
        break;
      default:
        throw BAIL;
    }
    skipWs();
    const c = src.charCodeAt(pos++);
    if (c === COMMA) continue;
    if (c === RBRACE) break;
    throw BAIL;
  }
  skipWs();
  if (pos !== end) throw BAIL;
  if (!isBook || tsEvent < 0 || tsInit < 0 || tokenId === undefined || conditionId === undefined || hash === undefined || bids === undefined || asks === undefined) {
    throw BAIL;
  }
  const book = makeOrderBook(tokenId, conditionId, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice);
  return { type: 'book', book, tsEvent, tsInit };
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
    expect(LBRACKET);
    skipWs();
    const price = readMicros();
    skipWs();
    expect(COMMA);
    skipWs();
    const size = readMicros();
    skipWs();
    expect(RBRACKET);
    levels.push({ price, size });
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

function skipWs(): void {
  for (;;) {
    const c = src.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 13) pos++;
    else return;
  }
}

function expect(c: number): void {
  if (pos >= end || src.charCodeAt(pos) !== c) throw BAIL;
  pos++;
}

function colon(): void {
  skipWs();
  expect(COLON);
  skipWs();
}

/** A string without escapes or control characters inside this line; sets strStart/strEnd. */
function readString(): void {
  if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
  const start = pos + 1;
  const close = src.indexOf('"', start);
  if (close < 0 || close >= end) throw BAIL;
  for (let i = start; i < close; i++) {
    const c = src.charCodeAt(i);
    if (c === BACKSLASH || c < 32) throw BAIL;
  }
  strStart = start;
  strEnd = close;
  pos = close + 1;
}

/** A non-negative JSON integer (epoch ms): digits only, no sign, fraction or exponent. */
function readInt(): number {
  let i = pos;
  let n = 0;
  let c = src.charCodeAt(i);
  while (c >= 48 && c <= 57) {
    n = n * 10 + (c - 48);
    c = src.charCodeAt(++i);
  }
  const digits = i - pos;
  if (digits === 0 || digits > 16 || (digits > 1 && src.charCodeAt(pos) === 48)) throw BAIL;
  if (c === DOT || c === 101 || c === 69) throw BAIL;
  if (!Number.isSafeInteger(n)) throw BAIL;
  pos = i;
  return n;
}

/** A quoted non-negative decimal with at most 6 significant decimals (the rules of parseMicros). */
function readMicros(): Micros {
  if (src.charCodeAt(pos) !== QUOTE) throw BAIL;
  let i = pos + 1;
  let c = src.charCodeAt(i);
  if (c === 43) c = src.charCodeAt(++i); // '+'
  let whole = 0;
  let digits = 0;
  while (c >= 48 && c <= 57) {
    whole = whole * 10 + (c - 48);
    digits++;
    c = src.charCodeAt(++i);
  }
  let frac = 0;
  let fracDigits = 0;
  if (c === DOT) {
    c = src.charCodeAt(++i);
    while (c >= 48 && c <= 57) {
      if (fracDigits < 6) {
        frac = frac * 10 + (c - 48);
        fracDigits++;
      } else if (c !== 48) {
        throw BAIL;
      }
      digits++;
      c = src.charCodeAt(++i);
    }
  }
  if (c !== QUOTE || digits === 0 || i - pos > 24) throw BAIL;
  pos = i + 1;
  while (fracDigits < 6) {
    frac *= 10;
    fracDigits++;
  }
  const value = whole * 1_000_000 + frac;
  if (!Number.isSafeInteger(value)) throw BAIL;
  return value;
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
