import { DecodeError, ParameterError } from '../../core/errors.ts';
import type { Micros } from '../../core/fixed.ts';
import type { BookLevel, OrderBook, TokenPrices } from '../../core/types.ts';
import type { MarketEvent } from '../../core/events.ts';
import { addMarketTokens, decodeRecordedMarket } from './decode-recorded.ts';
import { encodeHeaderLine, encodeMarket } from './encode-line.ts';
import type { RecordingHeader } from './format.ts';
import { shortText } from './short-text.ts';

/**
 * The binary form of a recording: the same header and events as the text form, laid out for
 * fast replay (no text to scan, numbers as varints, ids sent once). Little-endian throughout.
 *
 *   file     := MAGIC(8) formVersion:u16 headerLength:u32 header(JSON, UTF-8) block* end
 *   block    := payloadLength:u32 (> 0) payload        end := u32 0
 *   payload  := record*  (records never straddle blocks)
 *   record   := kind:u8 fields
 *     1 string  id:uv length:uv utf8-bytes      defines string `id` (0, 1, 2, ... in order)
 *     2 book    time tokenRef:uv conditionRef:uv flags:u8 [tickSize:uv] [minOrderSize:uv]
 *               [lastTradePrice:uv] hash nBids:uv nAsks:uv (bid* ask* | bidRun* askRun*)
 *     3 prices  time n:uv (tokenRef:uv has:u8 [buy:uv] [sell:uv])*
 *     4 trade   time tokenRef:uv side:u8(0 BUY, 1 SELL) price:uv size:uv
 *     5 tick    time tokenRef:uv tickSize:uv
 *     6 close   time conditionRef:uv n:uv tokenRef:uv*                     (form version 2)
 *     7 resolve time conditionRef:uv n:uv tokenRef:uv* winner:uv          (form version 2)
 *               winner: 0 no winner, else 1 + the winner's position among the n tokens
 *     8 market  time length:uv utf8-bytes   a market that joined: its header entry as JSON;
 *               later records may name its tokens                         (form version 2)
 *     9 walletTrade time walletRef:uv txHashRef:uv tokenRef:uv conditionRef:uv side:u8 price:uv size:uv
 *               a followed wallet's trade; its token need not be the header's (form version 4)
 *    10 fee     time tokenRef:uv takerBps:uv makerBps:uv                     (form version 4)
 *    11 clear   time conditionRef:uv n:uv tokenRef:uv*                      (form version 4)
 *   time     := dTsInit:sv (from the previous record's tsInit, 0 at the start) tsEvent-tsInit:sv
 *   flags    := bit0 tickSize, bit1 minOrderSize, bit2 lastTradePrice, bit3 negRisk given,
 *               bit4 negRisk true, bits5-6 hash form: 0 UTF-8 (length:uv bytes), 1 lowercase hex
 *               (length:uv bytes, half the characters), 2 the same as this token's previous book;
 *               bit7 the sides as runs against this token's previous book   (form version 3)
 *   bid      := first: price:uv size:uv, then (previous price - price):uv size:uv  (descending)
 *   ask      := first: price:uv size:uv, then (price - previous price):uv size:uv  (ascending)
 *   run      := (count << 1 | 1):uv from:uv   `count` levels equal to the previous book's side
 *                                             from its level `from` on (runs never go back in it)
 *             | (count << 1):uv level*count   new levels, each a bid (ask) as above, its step
 *                                             from the level written before it on this side
 *
 * `uv` is an unsigned LEB128 varint (exact up to 2^53), `sv` a zigzag varint; amounts are Micros.
 * Books are sorted by construction (the deltas are unsigned). A file that ends without the end
 * marker is truncated and refused.
 */

/** `\x89CLBREC\n`: not text (high byte), names the format, catches newline mangling. */
export const BINARY_MAGIC = Buffer.from([0x89, 0x43, 0x4c, 0x42, 0x52, 0x45, 0x43, 0x0a]);
/**
 * Version 2 added the `close`, `resolve` and `market` records (`market` came the day version 2
 * did, before any release, so the version was not bumped again); version 3 the book sides as runs
 * against the token's previous book (between two snapshots most levels do not change: the
 * decoder then copies them instead of reading each one); version 4 the `walletTrade` record (kind
 * 9) and, under the same bump, the venue's own `fee` (kind 10) and `clear` (kind 11); kind 12 is
 * kept for the user channel. Older files read the same.
 */
export const BINARY_FORM_VERSION = 4;
/** Records are gathered into blocks of about this many bytes. */
const BLOCK_BYTES = 32 * 1024;

const K_STRING = 1;
const K_BOOK = 2;
const K_PRICES = 3;
const K_TRADE = 4;
const K_TICK = 5;
const K_CLOSE = 6;
const K_RESOLVE = 7;
const K_MARKET = 8;
const K_WALLET_TRADE = 9;
const K_FEE = 10;
const K_CLEAR = 11;

const HASH_UTF8 = 0;
const HASH_HEX = 1;
const HASH_SAME = 2;
/** Flags bit: the sides are runs against the token's previous book (form version 3). */
const SIDES_AS_RUNS = 0x80;

const MAX_SV = 2 ** 52;

/** The bytes before the first block. */
export function encodeBinaryPreamble(header: RecordingHeader): Buffer {
  const json = Buffer.from(encodeHeaderLine(header), 'utf8');
  const head = Buffer.alloc(14);
  BINARY_MAGIC.copy(head, 0);
  head.writeUInt16LE(BINARY_FORM_VERSION, 8);
  head.writeUInt32LE(json.length, 10);
  return Buffer.concat([head, json]);
}

/** The end marker. */
export function binaryEnd(): Buffer {
  return Buffer.alloc(4);
}

/** True when the bytes start with the binary magic. */
export function isBinaryRecording(bytes: Uint8Array): boolean {
  if (bytes.length < BINARY_MAGIC.length) return false;
  for (let i = 0; i < BINARY_MAGIC.length; i++) if (bytes[i] !== BINARY_MAGIC[i]) return false;
  return true;
}

/**
 * Turns events into blocks. `add` buffers; `takeBlocks` hands out the finished blocks (each with
 * its length prefix); `finish` closes the last block. Strings are defined on first use.
 */
export class BinaryEventEncoder {
  #buf = Buffer.allocUnsafe(BLOCK_BYTES * 2);
  #len = 4; // room for the block length
  #done: Buffer[] = [];
  readonly #strings = new Map<string, number>();
  #prevTsInit = 0;
  /** Last hash written per token ref. */
  readonly #lastHash: (string | undefined)[] = [];
  /** Last book written per token ref, as the decoder will hold it (copied: callers may reuse levels). */
  readonly #lastSides: (WrittenSides | undefined)[] = [];

  /** Appends one event; a bad value throws a ParameterError and leaves the encoder as it was. */
  add(event: MarketEvent): void {
    const len = this.#len;
    const strings = this.#strings.size;
    const prevTsInit = this.#prevTsInit;
    try {
      this.#add(event);
    } catch (err) {
      this.#len = len;
      this.#prevTsInit = prevTsInit;
      if (this.#strings.size > strings) for (const [s, ref] of this.#strings) if (ref >= strings) this.#strings.delete(s);
      throw err;
    }
    if (this.#len >= BLOCK_BYTES) this.#closeBlock();
  }

  #add(event: MarketEvent): void {
    switch (event.type) {
      case 'book':
        this.#book(event.book, event.tsEvent, event.tsInit);
        break;
      case 'prices': {
        const refs = event.prices.map((p) => this.#ref(p.tokenId));
        this.#ensure(16 + event.prices.length * 24);
        this.#u8(K_PRICES);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(event.prices.length);
        for (let i = 0; i < event.prices.length; i++) {
          const p = event.prices[i]!;
          this.#uv(refs[i]!);
          this.#u8((p.buy !== undefined ? 1 : 0) | (p.sell !== undefined ? 2 : 0));
          if (p.buy !== undefined) this.#micros(p.buy, 'buy');
          if (p.sell !== undefined) this.#micros(p.sell, 'sell');
        }
        break;
      }
      case 'trade': {
        const ref = this.#ref(event.tokenId);
        this.#ensure(48);
        this.#u8(K_TRADE);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(ref);
        this.#u8(event.side === 'BUY' ? 0 : 1);
        this.#micros(event.price, 'price');
        this.#micros(event.size, 'size');
        break;
      }
      case 'walletTrade': {
        const w = event.trade;
        const walletRef = this.#ref(w.wallet);
        const txRef = this.#ref(w.txHash);
        const tokenRef = this.#ref(w.tokenId);
        const conditionRef = this.#ref(w.conditionId);
        this.#ensure(80);
        this.#u8(K_WALLET_TRADE);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(walletRef);
        this.#uv(txRef);
        this.#uv(tokenRef);
        this.#uv(conditionRef);
        this.#u8(w.side === 'BUY' ? 0 : 1);
        this.#micros(w.price, 'price');
        this.#micros(w.size, 'size');
        break;
      }
      case 'tickSize': {
        const ref = this.#ref(event.tokenId);
        this.#ensure(40);
        this.#u8(K_TICK);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(ref);
        this.#micros(event.tickSize, 'tickSize');
        break;
      }
      case 'feeRate': {
        const ref = this.#ref(event.tokenId);
        for (const [field, v] of [['takerBps', event.takerBps], ['makerBps', event.makerBps]] as const) {
          if (!Number.isSafeInteger(v) || v < 0) throw new ParameterError('recording', field, `must be a whole number of basis points >= 0, was ${v}`);
        }
        this.#ensure(48);
        this.#u8(K_FEE);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(ref);
        this.#uv(event.takerBps);
        this.#uv(event.makerBps);
        break;
      }
      case 'marketClosed':
      case 'marketResolved':
      case 'marketCleared': {
        const conditionRef = this.#ref(event.conditionId);
        const refs = event.tokenIds.map((id) => this.#ref(id));
        this.#ensure(40 + refs.length * 10);
        this.#u8(event.type === 'marketClosed' ? K_CLOSE : event.type === 'marketCleared' ? K_CLEAR : K_RESOLVE);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(conditionRef);
        this.#uv(refs.length);
        for (const ref of refs) this.#uv(ref);
        if (event.type === 'marketResolved') {
          const winner = event.winnerTokenId === undefined ? -1 : event.tokenIds.indexOf(event.winnerTokenId);
          if (event.winnerTokenId !== undefined && winner < 0) throw new ParameterError('recording', 'winnerTokenId', `must be one of tokenIds, was ${event.winnerTokenId}`);
          this.#uv(winner + 1);
        }
        break;
      }
      case 'marketAdded': {
        const json = Buffer.from(encodeMarket(event.market), 'utf8');
        this.#ensure(32 + json.length);
        this.#u8(K_MARKET);
        this.#time(event.tsEvent, event.tsInit);
        this.#uv(json.length);
        json.copy(this.#buf, this.#len);
        this.#len += json.length;
        break;
      }
    }
  }

  /** Finished blocks since the last call. */
  takeBlocks(): Buffer[] {
    const out = this.#done;
    this.#done = [];
    return out;
  }

  /** Closes the current block (if it holds anything) and returns every finished block. */
  flush(): Buffer[] {
    if (this.#len > 4) this.#closeBlock();
    return this.takeBlocks();
  }

  #closeBlock(): void {
    this.#buf.writeUInt32LE(this.#len - 4, 0);
    this.#done.push(Buffer.from(this.#buf.subarray(0, this.#len)));
    this.#len = 4;
  }

  #book(b: OrderBook, tsEvent: number, tsInit: number): void {
    const tokenRef = this.#ref(b.tokenId);
    const conditionRef = this.#ref(b.conditionId);
    const hash = b.hash;
    let hashForm = HASH_UTF8;
    let hashLength = 0;
    if (this.#lastHash[tokenRef] === hash) hashForm = HASH_SAME;
    else if (isLowerHex(hash)) {
      hashForm = HASH_HEX;
      hashLength = hash.length / 2;
    } else hashLength = isAscii(hash) ? hash.length : Buffer.byteLength(hash, 'utf8');
    this.#ensure(64 + hashLength + (b.bids.length + b.asks.length) * 20);
    this.#u8(K_BOOK);
    this.#time(tsEvent, tsInit);
    this.#uv(tokenRef);
    this.#uv(conditionRef);
    let flags = hashForm << 5;
    if (b.tickSize !== undefined) flags |= 1;
    if (b.minOrderSize !== undefined) flags |= 2;
    if (b.lastTradePrice !== undefined) flags |= 4;
    if (b.negRisk !== undefined) flags |= b.negRisk ? 8 | 16 : 8;
    const flagsAt = this.#len;
    this.#u8(flags);
    if (b.tickSize !== undefined) {
      if (b.tickSize <= 0) throw new ParameterError('recording', 'tickSize', `must be > 0, was ${b.tickSize}`);
      this.#micros(b.tickSize, 'tickSize');
    }
    if (b.minOrderSize !== undefined) this.#micros(b.minOrderSize, 'minOrderSize');
    if (b.lastTradePrice !== undefined) this.#micros(b.lastTradePrice, 'lastTradePrice');
    if (hashForm !== HASH_SAME) {
      this.#uv(hashLength);
      if (hashForm === HASH_UTF8 && hashLength === hash.length) for (let i = 0; i < hashLength; i++) this.#buf[this.#len + i] = hash.charCodeAt(i);
      else this.#buf.write(hash, this.#len, hashForm === HASH_HEX ? 'hex' : 'utf8');
      this.#len += hashLength;
    }
    this.#uv(b.bids.length);
    this.#uv(b.asks.length);
    // levels in book order, checked as they are written; a side out of order (or a value to
    // refuse) is written again from a sorted copy, checked level by level (the error names it)
    const levelsAt = this.#len;
    let bids = b.bids;
    let asks = b.asks;
    if (!this.#levels(bids, true) || !this.#levels(asks, false)) {
      this.#len = levelsAt;
      bids = sorted(bids, true);
      asks = sorted(asks, false);
      for (const l of [...bids, ...asks]) {
        checkMicros(l.price, 'price');
        checkMicros(l.size, 'size');
      }
      this.#levels(bids, true);
      this.#levels(asks, false);
    }
    // checked and in book order: written again as runs against the token's previous book (at
    // most 19 bytes a level, within the room reserved above) when at least half its levels are
    // copies; a new level decodes faster in the level form, so a book mostly new stays in it
    const last = this.#lastSides[tokenRef];
    if (last !== undefined) {
      this.#len = levelsAt;
      const copied = this.#runs(bids, last.bids, true) + this.#runs(asks, last.asks, false);
      if (copied * 2 >= bids.length + asks.length && copied > 0) this.#buf[flagsAt] = flags | SIDES_AS_RUNS;
      else {
        this.#len = levelsAt;
        this.#levels(bids, true);
        this.#levels(asks, false);
      }
    }
    this.#lastHash[tokenRef] = hash;
    this.#lastSides[tokenRef] = { bids: writtenSide(bids), asks: writtenSide(asks) };
  }

  /**
   * Writes one side (checked, in book order) as runs against the same side of the token's
   * previous book: a stretch of levels equal to a stretch of the previous ones is a copy of
   * them, anything else new levels. The previous side is walked once, never backwards. Returns
   * how many levels were copies.
   */
  #runs(levels: readonly BookLevel[], last: WrittenSide, descending: boolean): number {
    const n = levels.length;
    const m = last.prices.length;
    let j = 0; // the first previous level not better than the level at hand
    let prev = 0; // the price written before (the step of a new level is from it)
    let copied = 0;
    for (let i = 0; i < n; ) {
      j = notBetter(last, j, levels[i]!.price, descending);
      if (j < m && sameLevel(last, j, levels[i]!)) {
        const from = j;
        while (i < n && j < m && sameLevel(last, j, levels[i]!)) {
          i++;
          j++;
        }
        this.#uv((j - from) * 2 + 1);
        this.#uv(from);
        copied += j - from;
        prev = last.prices[j - 1]!;
        continue;
      }
      // new levels up to the next one the previous book has
      let stop = i + 1;
      for (let k = j; stop < n; stop++) {
        k = notBetter(last, k, levels[stop]!.price, descending);
        if (k < m && sameLevel(last, k, levels[stop]!)) break;
      }
      this.#uv((stop - i) * 2);
      for (; i < stop; i++) {
        const price = levels[i]!.price;
        this.#uv(i === 0 ? price : descending ? prev - price : price - prev);
        this.#uv(levels[i]!.size);
        prev = price;
      }
    }
    return copied;
  }

  /**
   * Writes one side's levels (a price, or its step from the previous one, then a size); false,
   * leaving the rest unwritten, at a level out of order or a value that is not Micros.
   */
  #levels(levels: readonly BookLevel[], descending: boolean): boolean {
    const buf = this.#buf;
    let len = this.#len;
    let prev = 0;
    for (let i = 0; i < levels.length; i++) {
      const l = levels[i]!;
      const price = l.price;
      const size = l.size;
      if (!Number.isSafeInteger(price) || price < 0 || !Number.isSafeInteger(size) || size < 0) return false;
      const step = i === 0 ? price : descending ? prev - price : price - prev;
      if (step < 0) return false;
      len = writeUv(buf, len, step);
      len = writeUv(buf, len, size);
      prev = price;
    }
    this.#len = len;
    return true;
  }

  #ref(s: string): number {
    let ref = this.#strings.get(s);
    if (ref !== undefined) return ref;
    ref = this.#strings.size;
    this.#strings.set(s, ref);
    const bytes = Buffer.from(s, 'utf8');
    this.#ensure(24 + bytes.length);
    this.#u8(K_STRING);
    this.#uv(ref);
    this.#uv(bytes.length);
    bytes.copy(this.#buf, this.#len);
    this.#len += bytes.length;
    return ref;
  }

  #time(tsEvent: number, tsInit: number): void {
    if (!Number.isSafeInteger(tsInit) || tsInit < 0 || !Number.isSafeInteger(tsEvent) || tsEvent < 0) {
      throw new ParameterError('recording', 'tsEvent/tsInit', `must be non-negative integers of epoch ms, were ${tsEvent}/${tsInit}`);
    }
    this.#sv(tsInit - this.#prevTsInit);
    this.#sv(tsEvent - tsInit);
    this.#prevTsInit = tsInit;
  }

  #ensure(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#len + n));
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
  }

  #u8(v: number): void {
    this.#buf[this.#len++] = v;
  }

  #micros(v: Micros, field: string): void {
    checkMicros(v, field);
    this.#uv(v);
  }

  #uv(v: number): void {
    this.#len = writeUv(this.#buf, this.#len, v);
  }

  #sv(v: number): void {
    if (v > MAX_SV || v < -MAX_SV) throw new ParameterError('recording', 'tsEvent/tsInit', `difference ${v} is out of range`);
    this.#uv(v >= 0 ? v * 2 : -v * 2 - 1);
  }
}

/** Writes `v` (a non-negative integer up to 2^53) as an unsigned varint at `buf[len]`; returns the end. */
function writeUv(buf: Buffer, len: number, v: number): number {
  if (v < 0x80000000) {
    while (v >= 0x80) {
      buf[len++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
  } else {
    while (v >= 0x80) {
      buf[len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
  }
  buf[len++] = v;
  return len;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

function checkMicros(v: number, field: string): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new ParameterError('recording', field, `must be a non-negative integer of Micros, was ${v}`);
}

function isLowerHex(s: string): boolean {
  if (s.length === 0 || s.length % 2 !== 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** One side of the last book written for a token: its prices and sizes, in book order. */
interface WrittenSide {
  readonly prices: number[];
  readonly sizes: number[];
}

interface WrittenSides {
  readonly bids: WrittenSide;
  readonly asks: WrittenSide;
}

function writtenSide(levels: readonly BookLevel[]): WrittenSide {
  const prices = new Array<number>(levels.length);
  const sizes = new Array<number>(levels.length);
  for (let i = 0; i < levels.length; i++) {
    prices[i] = levels[i]!.price;
    sizes[i] = levels[i]!.size;
  }
  return { prices, sizes };
}

/** From `j` on, the first level of `side` not better than `price` (its length when none). */
function notBetter(side: WrittenSide, j: number, price: number, descending: boolean): number {
  const prices = side.prices;
  if (descending) while (j < prices.length && prices[j]! > price) j++;
  else while (j < prices.length && prices[j]! < price) j++;
  return j;
}

function sameLevel(side: WrittenSide, j: number, level: BookLevel): boolean {
  return side.prices[j] === level.price && side.sizes[j] === level.size;
}

/** The levels in book order (a sorted copy only when they are not already). */
function sorted(levels: readonly BookLevel[], descending: boolean): readonly BookLevel[] {
  for (let i = 1; i < levels.length; i++) {
    const d = levels[i]!.price - levels[i - 1]!.price;
    if (descending ? d > 0 : d < 0) return [...levels].sort((a, b) => (descending ? b.price - a.price : a.price - b.price));
  }
  return levels;
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** Thrown inside the block loop; becomes a DecodeError naming the record. */
const CORRUPT = new Error('a record that does not decode');

let bytes: Buffer = Buffer.alloc(0);
let p = 0;

function uv(): number {
  let b = bytes[p++]!;
  if (b < 0x80) return b;
  let v = b & 0x7f;
  let mul = 0x80;
  for (;;) {
    b = bytes[p++]!;
    if (b === undefined) throw CORRUPT;
    v += (b & 0x7f) * mul;
    if (b < 0x80) return v;
    mul *= 0x80;
    if (mul > 2 ** 56) throw CORRUPT;
  }
}

/** Where the last `longVarint` stopped. */
let longEnd = 0;

/** A varint of any length (up to 2^53) at `b[q]`, read past 4 bytes; `longEnd` is set after it. */
function longVarint(b: Buffer, q: number, stop: number): number {
  let c = b[q++]!;
  let v = c & 0x7f;
  let mul = 0x80;
  while (c >= 0x80) {
    if (q >= stop) throw CORRUPT;
    c = b[q++]!;
    v += (c & 0x7f) * mul;
    mul *= 0x80;
    if (mul > 2 ** 56) throw CORRUPT;
  }
  longEnd = q;
  return v;
}

function sv(): number {
  const z = uv();
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

/**
 * Decodes the blocks of one binary recording, keeping the string table, times and hashes
 * across blocks. Every token must be one of the header's (`tokens`).
 */
export class BinaryEventDecoder {
  readonly #where: string;
  readonly #tokens: Map<string, string>;
  readonly #strings: string[] = [];
  /** For each string id: the header's token string, or undefined when it is not a token. */
  readonly #tokenOf: (string | undefined)[] = [];
  readonly #lastHash: (string | undefined)[] = [];
  /** Each token's last book sides: a level that did not change is shared, not made anew. */
  readonly #lastBids: BookLevel[][] = [];
  readonly #lastAsks: BookLevel[][] = [];
  #prevTsInit = 0;
  /** File offset of buffer position 0 in the current block (for messages). */
  #base = 0;

  /** `where` names the file in errors; `market` records add their tokens to `tokens`. */
  constructor(where: string, tokens: Map<string, string>) {
    this.#where = where;
    this.#tokens = tokens;
  }

  /**
   * Decodes the records of one block payload, `buf[start, stop)`, appending to `out`. `offset`
   * is the payload's position in the (uncompressed) file, for messages.
   */
  decodeBlock(buf: Buffer, start: number, stop: number, offset: number, out: MarketEvent[]): void {
    bytes = buf;
    p = start;
    this.#base = offset - start;
    let recordStart = start;
    try {
      while (p < stop) {
        recordStart = p;
        const kind = bytes[p++]!;
        if (kind === K_BOOK) out.push(this.#book(stop));
        else if (kind === K_STRING) this.#string(stop);
        else if (kind === K_PRICES) out.push(this.#prices(stop));
        else if (kind === K_TRADE) out.push(this.#trade());
        else if (kind === K_TICK) out.push(this.#tick());
        else if (kind === K_CLOSE || kind === K_RESOLVE || kind === K_CLEAR) out.push(this.#lifecycle(kind));
        else if (kind === K_MARKET) out.push(this.#market(stop, recordStart));
        else if (kind === K_WALLET_TRADE) out.push(this.#walletTrade());
        else if (kind === K_FEE) out.push(this.#fee());
        else throw this.#error(recordStart, 'kind', 'a record kind 1..11', kind);
        if (p > stop) throw CORRUPT;
      }
    } catch (err) {
      if (err === CORRUPT) throw this.#error(recordStart, 'record', 'a complete record inside its block', 'bytes that do not decode');
      throw err;
    } finally {
      bytes = EMPTY;
    }
  }

  /** A DecodeError naming the file and the byte offset of buffer position `pos`. */
  #error(pos: number, field: string, expected: string, actual: unknown): DecodeError {
    return new DecodeError(`${this.#where}@byte ${this.#base + pos}: ${field}`, expected, actual);
  }

  /** Reads a record's times: `tsInit` is left in #prevTsInit, `tsEvent` is returned. */
  #time(): number {
    const tsInit = this.#prevTsInit + sv();
    const tsEvent = tsInit + sv();
    if (tsInit < this.#prevTsInit) throw this.#error(p, 'tsInit', `>= the previous event's tsInit (${this.#prevTsInit})`, tsInit);
    if (tsEvent < 0) throw CORRUPT;
    this.#prevTsInit = tsInit;
    return tsEvent;
  }

  /** A string ref that names one of the header's tokens. */
  #tokenRef(): number {
    const ref = uv();
    if (this.#tokenOf[ref] === undefined) {
      const s = this.#strings[ref];
      if (s === undefined) throw CORRUPT;
      throw this.#error(p, 'tokenId', "a token of the header's markets or of an earlier market event", s);
    }
    return ref;
  }

  #token(): string {
    return this.#tokenOf[this.#tokenRef()]!;
  }

  #string(stop: number): void {
    const id = uv();
    const length = uv();
    if (id !== this.#strings.length || p + length > stop) throw CORRUPT;
    const s = bytes.toString('utf8', p, p + length);
    p += length;
    this.#strings.push(s);
    this.#tokenOf.push(this.#tokens.get(s));
  }

  #book(stop: number): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const tokenRef = this.#tokenRef();
    const tokenId = this.#tokenOf[tokenRef]!;
    const conditionId = this.#strings[uv()];
    if (conditionId === undefined) throw CORRUPT;
    const flags = bytes[p++]!;
    const tickSize = flags & 1 ? uv() : undefined;
    const minOrderSize = flags & 2 ? uv() : undefined;
    const lastTradePrice = flags & 4 ? uv() : undefined;
    const negRisk = flags & 8 ? (flags & 16) !== 0 : undefined;
    const hashForm = (flags >> 5) & 3;
    let hash: string | undefined;
    if (hashForm === HASH_SAME) {
      hash = this.#lastHash[tokenRef];
      if (hash === undefined) throw CORRUPT;
    } else {
      const n = uv();
      if (p + n > stop) throw CORRUPT;
      hash = hashForm === HASH_HEX ? bytes.toString('hex', p, p + n) : shortText(bytes, p, p + n);
      p += n;
      this.#lastHash[tokenRef] = hash;
    }
    const nBids = uv();
    const nAsks = uv();
    const lastBids = this.#lastBids[tokenRef] ?? NO_LEVELS;
    const lastAsks = this.#lastAsks[tokenRef] ?? NO_LEVELS;
    let bids: BookLevel[];
    let asks: BookLevel[];
    if (flags & SIDES_AS_RUNS) {
      if (this.#lastBids[tokenRef] === undefined) throw CORRUPT;
      // a copied level takes no byte of its own, a new one at least two
      if (nBids > lastBids.length + (stop - p) / 2 || nAsks > lastAsks.length + (stop - p) / 2) throw CORRUPT;
      bids = readRuns(nBids, lastBids, true, stop);
      asks = readRuns(nAsks, lastAsks, false, stop);
    } else {
      if ((nBids + nAsks) * 2 > stop - p) throw CORRUPT;
      bids = new Array<BookLevel>(nBids);
      asks = new Array<BookLevel>(nAsks);
      this.#levels(bids, asks, lastBids, lastAsks, stop);
    }
    this.#lastBids[tokenRef] = bids;
    this.#lastAsks[tokenRef] = asks;
    if (tickSize === 0) throw CORRUPT;
    const book: OrderBook = { tokenId, conditionId, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice };
    return { type: 'book', book, tsEvent, tsInit };
  }

  /** Both sides written level by level (`bids` and `asks` sized to their counts) at `p`. */
  #levels(bids: BookLevel[], asks: BookLevel[], lastBids: readonly BookLevel[], lastAsks: readonly BookLevel[], stop: number): void {
    const nBids = bids.length;
    const nAsks = asks.length;
    // the hot loops: locals only (the module's buffer and position are read once and written
    // back once), each varint read inline: a price (or its step from the previous one), a size.
    // A level equal to one of the token's last book is that same (immutable) object: between
    // two snapshots most levels do not change, so most levels cost no allocation. The varint is
    // written out four times on purpose: up to 4 bytes (28 bits: every price, sizes below 268
    // shares) in int32 arithmetic, longer ones in `longVarint`. One loop over both sides, a
    // helper for the varint, or a loop over its bytes each cost 15-40% of the decoding
    // (measured A/B on 200k 40-level books: 1.0 us/event here, 1.3 before)
    const b = bytes;
    let q = p;
    let price = 0;
    let j = 0; // the first level of the last book's side not better than `price`
    for (let i = 0; i < nBids; i++) {
      let c = b[q++]!;
      let step = c & 0x7f;
      if (c >= 0x80) {
        c = b[q++]!;
        step |= (c & 0x7f) << 7;
        if (c >= 0x80) {
          c = b[q++]!;
          step |= (c & 0x7f) << 14;
          if (c >= 0x80) {
            c = b[q++]!;
            step |= (c & 0x7f) << 21;
            if (c >= 0x80) step = longVarint(b, q - 4, stop);
            if (c >= 0x80) q = longEnd;
          }
        }
      }
      c = b[q++]!;
      let size = c & 0x7f;
      if (c >= 0x80) {
        c = b[q++]!;
        size |= (c & 0x7f) << 7;
        if (c >= 0x80) {
          c = b[q++]!;
          size |= (c & 0x7f) << 14;
          if (c >= 0x80) {
            c = b[q++]!;
            size |= (c & 0x7f) << 21;
            if (c >= 0x80) size = longVarint(b, q - 4, stop);
            if (c >= 0x80) q = longEnd;
          }
        }
      }
      price = i === 0 ? step : price - step;
      while (j < lastBids.length && lastBids[j]!.price > price) j++;
      const last = lastBids[j];
      bids[i] = last !== undefined && last.price === price && last.size === size ? last : { price, size };
    }
    if (price < 0) throw CORRUPT;
    j = 0;
    for (let i = 0; i < nAsks; i++) {
      let c = b[q++]!;
      let step = c & 0x7f;
      if (c >= 0x80) {
        c = b[q++]!;
        step |= (c & 0x7f) << 7;
        if (c >= 0x80) {
          c = b[q++]!;
          step |= (c & 0x7f) << 14;
          if (c >= 0x80) {
            c = b[q++]!;
            step |= (c & 0x7f) << 21;
            if (c >= 0x80) step = longVarint(b, q - 4, stop);
            if (c >= 0x80) q = longEnd;
          }
        }
      }
      c = b[q++]!;
      let size = c & 0x7f;
      if (c >= 0x80) {
        c = b[q++]!;
        size |= (c & 0x7f) << 7;
        if (c >= 0x80) {
          c = b[q++]!;
          size |= (c & 0x7f) << 14;
          if (c >= 0x80) {
            c = b[q++]!;
            size |= (c & 0x7f) << 21;
            if (c >= 0x80) size = longVarint(b, q - 4, stop);
            if (c >= 0x80) q = longEnd;
          }
        }
      }
      price = i === 0 ? step : price + step;
      while (j < lastAsks.length && lastAsks[j]!.price < price) j++;
      const last = lastAsks[j];
      asks[i] = last !== undefined && last.price === price && last.size === size ? last : { price, size };
    }
    if (q > stop) throw CORRUPT;
    p = q;
  }

  #prices(stop: number): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const n = uv();
    if (n * 2 > stop - p) throw CORRUPT;
    const prices = new Array<TokenPrices>(n);
    for (let i = 0; i < n; i++) {
      const tokenId = this.#token();
      const has = bytes[p++]!;
      const buy = has & 1 ? uv() : undefined;
      const sell = has & 2 ? uv() : undefined;
      prices[i] = { tokenId, buy, sell, tsInit };
    }
    return { type: 'prices', prices, tsEvent, tsInit };
  }

  #trade(): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const tokenId = this.#token();
    const side = bytes[p++];
    if (side !== 0 && side !== 1) throw CORRUPT;
    const price = uv();
    const size = uv();
    return { type: 'trade', tokenId, price, size, side: side === 0 ? 'BUY' : 'SELL', tsEvent, tsInit };
  }

  #walletTrade(): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const wallet = this.#strings[uv()];
    const txHash = this.#strings[uv()];
    const tokenRef = uv();
    const tokenId = this.#tokenOf[tokenRef] ?? this.#strings[tokenRef];
    const conditionId = this.#strings[uv()];
    if (wallet === undefined || txHash === undefined || tokenId === undefined || conditionId === undefined) throw CORRUPT;
    const side = bytes[p++];
    if (side !== 0 && side !== 1) throw CORRUPT;
    const price = uv();
    const size = uv();
    return { type: 'walletTrade', trade: { wallet, txHash, tokenId, conditionId, side: side === 0 ? 'BUY' : 'SELL', price, size, ts: tsEvent }, tsEvent, tsInit };
  }

  #tick(): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const tokenId = this.#token();
    const tickSize = uv();
    if (tickSize === 0) throw CORRUPT;
    return { type: 'tickSize', tokenId, tickSize, tsEvent, tsInit };
  }

  #fee(): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const tokenId = this.#token();
    const takerBps = uv();
    const makerBps = uv();
    return { type: 'feeRate', tokenId, takerBps, makerBps, tsEvent, tsInit };
  }

  #lifecycle(kind: number): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const conditionId = this.#strings[uv()];
    if (conditionId === undefined) throw CORRUPT;
    const n = uv();
    if (n === 0 || n > bytes.length - p) throw CORRUPT;
    const tokenIds = new Array<string>(n);
    for (let i = 0; i < n; i++) tokenIds[i] = this.#token();
    if (kind === K_CLOSE) return { type: 'marketClosed', conditionId, tokenIds, tsEvent, tsInit };
    if (kind === K_CLEAR) return { type: 'marketCleared', conditionId, tokenIds, tsEvent, tsInit };
    const winner = uv();
    if (winner > n) throw CORRUPT;
    return { type: 'marketResolved', conditionId, tokenIds, winnerTokenId: winner === 0 ? undefined : tokenIds[winner - 1], tsEvent, tsInit };
  }

  /** A market that joined: checked like a header entry; its tokens become ones records may name. */
  #market(stop: number, recordStart: number): MarketEvent {
    const tsEvent = this.#time();
    const tsInit = this.#prevTsInit;
    const length = uv();
    if (p + length > stop) throw CORRUPT;
    const text = bytes.toString('utf8', p, p + length);
    p += length;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.#error(recordStart, 'market', 'a market as JSON', text.slice(0, 60));
    }
    let market;
    try {
      market = decodeRecordedMarket(value, 'market', this.#tokens);
    } catch (err) {
      if (err instanceof DecodeError) throw this.#error(recordStart, err.path, err.expected, err.actual);
      throw err;
    }
    addMarketTokens(this.#tokens, market);
    // a token string defined before its market joined becomes a token now
    for (let ref = 0; ref < this.#strings.length; ref++) if (this.#tokenOf[ref] === undefined) this.#tokenOf[ref] = this.#tokens.get(this.#strings[ref]!);
    return { type: 'marketAdded', market, tsEvent, tsInit };
  }
}

/**
 * One side written as runs (form version 3) at `p`: copies of the token's previous side `last`
 * (the same immutable level objects) and new levels. Checked as the level form is: the side
 * stays in book order across runs, a copy stays inside `last` and never goes back in it.
 */
function readRuns(n: number, last: readonly BookLevel[], descending: boolean, stop: number): BookLevel[] {
  const levels = new Array<BookLevel>(n);
  // the module's buffer and position as locals (read once, written back once), a one-byte
  // varint (every run head, most copy starts) read inline, longer ones by `uv`
  const b = bytes;
  let q = p;
  let i = 0;
  let next = 0; // the first level of `last` a copy may take
  let price = 0;
  while (i < n) {
    let run = b[q]!;
    if (run < 0x80) q++;
    else {
      run = uvAt(q);
      q = p;
    }
    const count = Math.floor(run / 2);
    if (count === 0 || count > n - i) throw CORRUPT;
    if (run % 2 === 1) {
      let from = b[q]!;
      if (from < 0x80) q++;
      else {
        from = uvAt(q);
        q = p;
      }
      if (from < next || from + count > last.length) throw CORRUPT;
      const first = last[from]!.price;
      if (i > 0 && (descending ? first > price : first < price)) throw CORRUPT;
      for (let k = from; k < from + count; k++) levels[i++] = last[k]!;
      next = from + count;
      price = last[next - 1]!.price;
    } else {
      p = q;
      for (let k = 0; k < count; k++) {
        const step = uv();
        const size = uv();
        price = i === 0 ? step : descending ? price - step : price + step;
        levels[i++] = { price, size };
      }
      q = p;
      if (price < 0 || q > stop) throw CORRUPT;
    }
  }
  p = q;
  return levels;
}

/** The varint at `at` (by `uv`); `p` is left after it. */
function uvAt(at: number): number {
  p = at;
  return uv();
}

const EMPTY = Buffer.alloc(0);
const NO_LEVELS: BookLevel[] = [];
