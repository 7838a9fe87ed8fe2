import { DecodeError } from '../../core/errors.ts';
import { type Micros, parseMicros } from '../../core/fixed.ts';
import type { BookLevel, OrderBook, Side, TokenId, TokenPrices } from '../../core/types.ts';
import { makeOrderBook, scanOrderBooks } from '../books-scan.ts';
import type { Midpoint, PricePoint, ServerTime, TokenPrice } from '../domain/trading.ts';
import {
  asObj,
  at,
  isObj,
  mapArray,
  type Obj,
  optBool,
  optInt,
  optMicros,
  parseJsonText,
  reqBool,
  reqMicros,
  reqNum,
  reqStr,
  reqUnixMs,
  unixToMs,
} from './fields.ts';

/**
 * Decoders of order books and prices (interface 2.12, 2.13, PROTOCOL's small routes).
 */

/**
 * `POST /books` from the answer text: the single-pass scanner first, the generic path (which
 * names the bad field in its DecodeError) for anything the scanner does not expect.
 */
export function decodeOrderBooksText(text: string, tsInit: number): OrderBook[] {
  return scanOrderBooks(text, tsInit) ?? decodeOrderBooks(parseJsonText(text, 'books'), tsInit);
}

/** `POST /books` from parsed JSON. */
export function decodeOrderBooks(value: unknown, tsInit: number): OrderBook[] {
  return mapArray(value, 'books', (v, p) => decodeOrderBook(v, tsInit, p));
}

/** One order book (`GET /book`, an element of `POST /books`). Levels sorted into book order. */
export function decodeOrderBook(value: unknown, tsInit: number, path = 'book'): OrderBook {
  const o = asObj(value, path);
  const market = reqStr(o, path, 'market');
  const assetId = reqStr(o, path, 'asset_id');
  const tsEvent = reqTimestampMs(o, path);
  const hash = reqStr(o, path, 'hash');
  const bids = decodeLevels(o['bids'], at(path, 'bids'));
  const asks = decodeLevels(o['asks'], at(path, 'asks'));
  const tickSize = optMicros(o, path, 'tick_size');
  const minOrderSize = optMicros(o, path, 'min_order_size');
  const negRisk = optBool(o, path, 'neg_risk');
  const lastTradePrice = optMicros(o, path, 'last_trade_price');
  return makeOrderBook(assetId, market, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, negRisk, lastTradePrice);
}

/** The book `timestamp`: epoch ms as a digit string (or a number). */
function reqTimestampMs(o: Obj, path: string): number {
  const v = o['timestamp'];
  if (typeof v === 'string' && /^\d{1,16}$/.test(v)) return Number(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  throw new DecodeError(at(path, 'timestamp'), 'epoch milliseconds', v);
}

function decodeLevels(value: unknown, path: string): BookLevel[] {
  if (!Array.isArray(value)) throw new DecodeError(path, 'an array', value);
  const levels = new Array<BookLevel>(value.length);
  for (let i = 0; i < value.length; i++) {
    const level: unknown = value[i];
    if (!isObj(level)) throw new DecodeError(at(path, i), 'a {price, size} object', level);
    const price = levelMicros(level['price'], path, i, 'price');
    const size = levelMicros(level['size'], path, i, 'size');
    levels[i] = { price, size };
  }
  return levels;
}

function levelMicros(v: unknown, path: string, i: number, key: string): Micros {
  const m = typeof v === 'string' ? parseMicros(v) : NaN;
  if (Number.isNaN(m) || m < 0) {
    throw new DecodeError(`${path}[${i}].${key}`, 'a non-negative decimal string with at most 6 decimals', v);
  }
  return m;
}

/** `POST /prices`: `{token: {BUY, SELL}}` with decimal strings (numbers in the docs' example). */
export function decodeTokenPrices(value: unknown, tsInit: number): TokenPrices[] {
  const o = asObj(value, 'prices');
  const out: TokenPrices[] = [];
  for (const tokenId of Object.keys(o)) {
    const path = `prices[${JSON.stringify(tokenId)}]`;
    const entry = asObj(o[tokenId], path);
    out.push({ tokenId, buy: optMicros(entry, path, 'BUY'), sell: optMicros(entry, path, 'SELL'), tsInit });
  }
  return out;
}

/** `GET /price`: `{price}`. */
export function decodeTokenPrice(value: unknown, tokenId: TokenId, side: Side, tsInit: number): TokenPrice {
  const o = asObj(value, 'price');
  return { tokenId, side, price: reqMicros(o, 'price', 'price'), tsInit };
}

/** `GET /midpoint`: `{mid}`. */
export function decodeMidpoint(value: unknown, tokenId: TokenId, tsInit: number): Midpoint {
  const o = asObj(value, 'midpoint');
  return { tokenId, mid: reqMicros(o, 'midpoint', 'mid'), tsInit };
}

function decodePricePoints(value: unknown, path: string): PricePoint[] {
  return mapArray(value, path, (v, p) => {
    const o = asObj(v, p);
    return { tsEvent: reqUnixMs(o, p, 't'), price: reqMicros(o, p, 'p') };
  });
}

/** `GET /prices-history`: `{history: [{t, p}]}`. */
export function decodePricesHistory(value: unknown): PricePoint[] {
  const o = asObj(value, 'prices-history');
  return decodePricePoints(o['history'], 'prices-history.history');
}

/** `POST /batch-prices-history`: `{history: {token: [{t, p}]}}`. */
export function decodeBatchPricesHistory(value: unknown): Record<TokenId, PricePoint[]> {
  const o = asObj(value, 'batch-prices-history');
  const history = asObj(o['history'], 'batch-prices-history.history');
  const out: Record<TokenId, PricePoint[]> = {};
  for (const tokenId of Object.keys(history)) {
    out[tokenId] = decodePricePoints(history[tokenId], `batch-prices-history.history[${JSON.stringify(tokenId)}]`);
  }
  return out;
}

/** `GET /time`: a bare number of unix seconds (an object `{time}` is accepted too). */
export function decodeServerTime(value: unknown, tsInit: number): ServerTime {
  const seconds = isObj(value) ? value['time'] : value;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return { serverTimeMs: unixToMs(seconds), tsInit };
  if (typeof seconds === 'string' && /^\d+$/.test(seconds)) return { serverTimeMs: unixToMs(Number(seconds)), tsInit };
  throw new DecodeError('time', 'unix seconds', seconds);
}

/** `GET /tick-size`: `{minimum_tick_size}` as Micros. */
export function decodeTickSize(value: unknown): Micros {
  const tick = reqMicros(asObj(value, 'tick-size'), 'tick-size', 'minimum_tick_size');
  if (tick <= 0) throw new DecodeError('tick-size.minimum_tick_size', 'a positive tick', tick);
  return tick;
}

/** `GET /neg-risk`: `{neg_risk}`. */
export function decodeNegRisk(value: unknown): boolean {
  return reqBool(asObj(value, 'neg-risk'), 'neg-risk', 'neg_risk');
}

/** `GET /fee-rate`: `{base_fee}` in basis points. */
export function decodeFeeRate(value: unknown): number {
  const o = asObj(value, 'fee-rate');
  const bps = reqNum(o, 'fee-rate', 'base_fee', 'fee_rate_bps');
  if (bps < 0) throw new DecodeError('fee-rate.base_fee', 'a non-negative number', bps);
  return bps;
}

/** `GET /version`: `{version}`. */
export function decodeVersion(value: unknown): number {
  const version = optInt(asObj(value, 'version'), 'version', 'version');
  if (version === undefined) throw new DecodeError('version.version', 'an integer', undefined);
  return version;
}

/** `GET /`: `"OK"` as a JSON string (plain text accepted). */
export function decodeOk(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('"')) {
    const v = parseJsonText(trimmed, 'ok');
    if (typeof v === 'string') return v;
    throw new DecodeError('ok', 'a string', v);
  }
  if (trimmed === '' || trimmed.startsWith('{') || trimmed.startsWith('[')) throw new DecodeError('ok', "the text 'OK'", trimmed);
  return trimmed;
}
