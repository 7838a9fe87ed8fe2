import { DecodeError } from '../core/errors.ts';
import { numberToMicros, parseMicros, type Micros } from '../core/fixed.ts';
import type { BookLevel, OrderBook, Side, TokenId, TokenPrices } from '../core/types.ts';
import { makeOrderBook, scanOrderBooks } from './books-scan.ts';
import { Secret } from '../core/secret.ts';
import type { AccountOrder, AccountTrade, BalanceAllowance, CancelResult, MakerOrderFill, OrderPostResult, VenuePosition } from './domain/account.ts';
import { TRADE_STATUSES, VENUE_ORDER_STATUSES, type TradeStatus, type VenueOrderStatus } from './domain/statuses.ts';
import type { ApiCredentials } from './signing/l2-auth.ts';
import type { Activity, ClosedPosition, Holder, HolderGroup, TradeFill } from './domain/analytics.ts';
import type { CommentPosition, CommentProfile, CommentReaction, VenueComment } from './domain/comments.ts';
import type {
  EventCreator,
  EventSummary,
  MetadataMarket,
  SearchProfile,
  SearchResults,
  Series,
  Tag,
  VenueEvent,
} from './domain/metadata.ts';
import type {
  MarketEventRef,
  MarketRewards,
  MarketToken,
  Midpoint,
  Page,
  PricePoint,
  RewardRate,
  ServerTime,
  SimplifiedMarket,
  TokenPrice,
  TradingMarket,
} from './domain/trading.ts';

/**
 * The one decoder module: wire JSON -> domain, for every read route. Trading numbers (decimal
 * strings) become Micros digit by digit, never through a float; a bad value throws a
 * DecodeError naming the field path, e.g. `books[3].bids[7].price`. Metadata, analytics and
 * comments are validated field by field (types checked, dates to epoch ms, JSON-text arrays
 * decoded). Real payloads differ from the interface in known ways, all accepted here: nulls
 * for absent values, older shapes lacking fields, numbers where strings are documented (and
 * back), and snake_case spellings next to camelCase ones.
 */

type Obj = Readonly<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------
// Field readers. `path` names the object being read; error paths are built only on failure.

function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function asObj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new DecodeError(path || '(root)', 'an object', v);
  return v;
}

function asArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new DecodeError(path || '(root)', 'an array', v);
  return v;
}

function mapArray<T>(v: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  const arr = asArray(v, path);
  const out = new Array<T>(arr.length);
  for (let i = 0; i < arr.length; i++) out[i] = item(arr[i], at(path, i));
  return out;
}

/** The first of `keys` present with a non-null value, and the key it was found under. */
function pick(o: Obj, keys: readonly string[]): [unknown, string] {
  for (const key of keys) {
    const v = o[key];
    if (v !== undefined && v !== null) return [v, key];
  }
  return [undefined, keys[0] as string];
}

function reqStr(o: Obj, path: string, ...keys: string[]): string {
  const [v, key] = pick(o, keys);
  if (typeof v !== 'string') throw new DecodeError(at(path, key), 'a string', v);
  return v;
}

function optStr(o: Obj, path: string, ...keys: string[]): string | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new DecodeError(at(path, key), 'a string', v);
  return v;
}

/** An identifier the venue may send as a string or an integer; kept as a string. */
function optId(o: Obj, path: string, ...keys: string[]): string | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw new DecodeError(at(path, key), 'a string or integer id', v);
}

function reqId(o: Obj, path: string, ...keys: string[]): string {
  const id = optId(o, path, ...keys);
  if (id === undefined) throw new DecodeError(at(path, keys[0] as string), 'a string or integer id', undefined);
  return id;
}

function reqBool(o: Obj, path: string, ...keys: string[]): boolean {
  const [v, key] = pick(o, keys);
  if (typeof v !== 'boolean') throw new DecodeError(at(path, key), 'a boolean', v);
  return v;
}

function optBool(o: Obj, path: string, ...keys: string[]): boolean | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new DecodeError(at(path, key), 'a boolean', v);
  return v;
}

/** A JSON number; a numeric string is accepted too (some captures quote numbers). */
function optNum(o: Obj, path: string, ...keys: string[]): number | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new DecodeError(at(path, key), 'a number', v);
}

function reqNum(o: Obj, path: string, ...keys: string[]): number {
  const n = optNum(o, path, ...keys);
  if (n === undefined) throw new DecodeError(at(path, keys[0] as string), 'a number', undefined);
  return n;
}

function optInt(o: Obj, path: string, ...keys: string[]): number | undefined {
  const n = optNum(o, path, ...keys);
  if (n !== undefined && !Number.isInteger(n)) throw new DecodeError(at(path, pick(o, keys)[1]), 'an integer', n);
  return n;
}

/**
 * A date-time: ISO 8601 text, or unix seconds as a number or digit string. Returns epoch ms;
 * an empty string counts as absent.
 */
function optDate(o: Obj, path: string, ...keys: string[]): number | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return unixToMs(v);
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return unixToMs(Number(v));
    const ms = Date.parse(v);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new DecodeError(at(path, key), 'a date-time', v);
}

/** Unix seconds to epoch ms; a value already in milliseconds (13 digits) is kept. */
function unixToMs(n: number): number {
  return n >= 1e11 ? Math.trunc(n) : Math.trunc(n * 1000);
}

function reqUnixMs(o: Obj, path: string, ...keys: string[]): number {
  const ms = optDate(o, path, ...keys);
  if (ms === undefined) throw new DecodeError(at(path, keys[0] as string), 'unix seconds', undefined);
  return ms;
}

/** A decimal string (trading routes) or a JSON number (docs examples, metadata) as Micros. */
function microsOf(v: unknown, path: string): Micros {
  if (typeof v === 'string') {
    const m = parseMicros(v);
    if (Number.isNaN(m)) throw new DecodeError(path, 'a decimal with at most 6 decimals', v);
    return m;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return numberToMicros(v);
  throw new DecodeError(path, 'a decimal string or number', v);
}

function reqMicros(o: Obj, path: string, ...keys: string[]): Micros {
  const [v, key] = pick(o, keys);
  return microsOf(v, at(path, key));
}

function optMicros(o: Obj, path: string, ...keys: string[]): Micros | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  return microsOf(v, at(path, key));
}

function reqSide(o: Obj, path: string, ...keys: string[]): Side {
  const [v, key] = pick(o, keys);
  if (v === 'BUY' || v === 'SELL') return v;
  throw new DecodeError(at(path, key), "'BUY' or 'SELL'", v);
}

function optSide(o: Obj, path: string, ...keys: string[]): Side | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  if (v === 'BUY' || v === 'SELL') return v;
  throw new DecodeError(at(path, key), "'BUY' or 'SELL'", v);
}

function strings(v: unknown, path: string): string[] {
  return mapArray(v, path, (item, p) => {
    if (typeof item !== 'string') throw new DecodeError(p, 'a string', item);
    return item;
  });
}

function optStrings(o: Obj, path: string, ...keys: string[]): string[] | undefined {
  const [v, key] = pick(o, keys);
  return v === undefined ? undefined : strings(v, at(path, key));
}

/** An array of strings sent as JSON text (`outcomes`, `clobTokenIds`); also accepts a real array. */
function jsonStrings(o: Obj, path: string, ...keys: string[]): string[] {
  const [v, key] = pick(o, keys);
  const p = at(path, key);
  if (v === undefined || v === '') return [];
  if (Array.isArray(v)) return strings(v, p);
  if (typeof v !== 'string') throw new DecodeError(p, 'JSON text of a string array', v);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new DecodeError(p, 'JSON text of a string array', v);
  }
  return strings(parsed, p);
}

function optRecord(o: Obj, path: string, ...keys: string[]): Obj | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  return asObj(v, at(path, key));
}

function list<T>(o: Obj, path: string, key: string, item: (v: unknown, path: string) => T): T[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  return mapArray(v, at(path, key), item);
}

/** Like `list`, for a field with several spellings. */
function listOf<T>(o: Obj, path: string, item: (v: unknown, path: string) => T, ...keys: string[]): T[] {
  const [v, key] = pick(o, keys);
  return v === undefined ? [] : mapArray(v, at(path, key), item);
}

/** A bare array, or the same array inside an envelope `{data: [...]}` (the venue's newer shape). */
function arrayOrEnvelope(v: unknown, root: string): [unknown, string] {
  if (isObj(v) && Array.isArray(v['data'])) return [v['data'], at(root, 'data')];
  return [v, root];
}

// ---------------------------------------------------------------------------------------------
// JSON text

/** Parses an answer body; malformed JSON is a DecodeError naming the route. */
export function parseJsonText(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DecodeError(where, 'JSON', text.length > 60 ? `${text.slice(0, 60)}…` : text);
  }
}

// ---------------------------------------------------------------------------------------------
// Order books and prices (2.12, 2.13, PROTOCOL's small routes)

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

// ---------------------------------------------------------------------------------------------
// Trading markets (2.1, 2.10, 2.11)

/** A page envelope of a cursor route; `LTE=` or an empty/absent cursor marks the last page. */
export function decodePage<T>(value: unknown, item: (v: unknown, path: string) => T): Page<T> {
  const o = asObj(value, '');
  const items = mapArray(o['data'], 'data', item);
  const cursor = optStr(o, '', 'next_cursor') ?? '';
  return {
    items,
    nextCursor: cursor,
    done: cursor === '' || cursor === END_CURSOR,
    limit: optInt(o, '', 'limit'),
    count: optInt(o, '', 'count'),
  };
}

/** Cursor of the first page and the one marking the end (PROTOCOL "Cursor pages"). */
export const FIRST_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

function decodeToken(v: unknown, path: string): MarketToken {
  const o = asObj(v, path);
  return {
    tokenId: reqStr(o, path, 'token_id'),
    outcome: optStr(o, path, 'outcome') ?? '',
    price: optMicros(o, path, 'price') ?? 0,
    winner: optBool(o, path, 'winner') ?? false,
  };
}

function decodeRewards(v: unknown, path: string): MarketRewards {
  if (v === undefined || v === null) return { rates: [], minSize: 0, maxSpread: 0 };
  const o = asObj(v, path);
  return {
    rates: list(o, path, 'rates', (r, p): RewardRate => {
      const ro = asObj(r, p);
      return { assetAddress: reqStr(ro, p, 'asset_address'), rewardsDailyRate: reqNum(ro, p, 'rewards_daily_rate') };
    }),
    minSize: optNum(o, path, 'min_size') ?? 0,
    maxSpread: optNum(o, path, 'max_spread') ?? 0,
  };
}

function decodeEventRef(o: Obj, path: string): MarketEventRef | undefined {
  const ev = optRecord(o, path, 'event');
  if (ev === undefined) return undefined;
  const p = at(path, 'event');
  return {
    id: reqId(ev, p, 'id'),
    slug: optStr(ev, p, 'slug') ?? '',
    title: optStr(ev, p, 'title') ?? '',
    ticker: optStr(ev, p, 'ticker') ?? '',
    description: optStr(ev, p, 'description') ?? '',
  };
}

/** Trading market (2.10), plain list or detailed form. Tick and minimum size as Micros. */
export function decodeTradingMarket(value: unknown, path = 'market'): TradingMarket {
  const o = asObj(value, path);
  const tickSize = reqMicros(o, path, 'minimum_tick_size');
  const minOrderSize = reqMicros(o, path, 'minimum_order_size');
  if (tickSize < 0) throw new DecodeError(at(path, 'minimum_tick_size'), 'a non-negative tick', tickSize);
  if (minOrderSize < 0) throw new DecodeError(at(path, 'minimum_order_size'), 'a non-negative size', minOrderSize);
  return {
    conditionId: reqStr(o, path, 'condition_id'),
    tickSize,
    minOrderSize,
    negRisk: optBool(o, path, 'neg_risk') ?? false,
    makerBaseFeeBps: optNum(o, path, 'maker_base_fee') ?? 0,
    takerBaseFeeBps: optNum(o, path, 'taker_base_fee') ?? 0,
    acceptingOrders: reqBool(o, path, 'accepting_orders'),
    questionId: optStr(o, path, 'question_id') ?? '',
    question: optStr(o, path, 'question') ?? '',
    description: optStr(o, path, 'description') ?? '',
    marketSlug: optStr(o, path, 'market_slug') ?? '',
    enableOrderBook: optBool(o, path, 'enable_order_book') ?? false,
    active: reqBool(o, path, 'active'),
    closed: reqBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived') ?? false,
    notificationsEnabled: optBool(o, path, 'notifications_enabled') ?? false,
    is5050Outcome: optBool(o, path, 'is_50_50_outcome') ?? false,
    itode: optBool(o, path, 'itode'),
    blockaidCheckEnabled: optBool(o, path, 'blockaid_check_enabled'),
    acceptingOrderTimestamp: optDate(o, path, 'accepting_order_timestamp'),
    endDate: optDate(o, path, 'end_date_iso'),
    gameStartTime: optDate(o, path, 'game_start_time'),
    fpmm: optStr(o, path, 'fpmm') ?? '',
    negRiskMarketId: optStr(o, path, 'neg_risk_market_id') ?? '',
    negRiskRequestId: optStr(o, path, 'neg_risk_request_id') ?? '',
    icon: optStr(o, path, 'icon') ?? '',
    image: optStr(o, path, 'image') ?? '',
    secondsDelay: optNum(o, path, 'seconds_delay') ?? 0,
    takerOrderDelayMs: optNum(o, path, 'taker_order_delay_ms'),
    orderAgeSeconds: optNum(o, path, 'order_age_seconds'),
    rewards: decodeRewards(o['rewards'], at(path, 'rewards')),
    tokens: list(o, path, 'tokens', decodeToken),
    tags: optStrings(o, path, 'tags') ?? [],
    status: optStr(o, path, 'status'),
    marketId: optInt(o, path, 'market_id'),
    slug: optStr(o, path, 'slug'),
    assetsIds: optStrings(o, path, 'assets_ids'),
    outcomes: optStrings(o, path, 'outcomes'),
    event: decodeEventRef(o, path),
    rawMetadata: optRecord(o, path, 'raw_metadata'),
  };
}

/** `GET /markets`, `GET /sampling-markets`: a page of trading markets. */
export function decodeTradingMarketsPage(value: unknown): Page<TradingMarket> {
  return decodePage(value, decodeTradingMarket);
}

/** Simplified market (2.11). */
export function decodeSimplifiedMarket(value: unknown, path = 'market'): SimplifiedMarket {
  const o = asObj(value, path);
  return {
    conditionId: reqStr(o, path, 'condition_id'),
    status: optStr(o, path, 'status'),
    question: optStr(o, path, 'question'),
    slug: optStr(o, path, 'slug'),
    negRisk: optBool(o, path, 'neg_risk') ?? false,
    active: reqBool(o, path, 'active'),
    closed: reqBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived') ?? false,
    acceptingOrders: reqBool(o, path, 'accepting_orders'),
    marketId: optInt(o, path, 'market_id'),
    tokens: list(o, path, 'tokens', decodeToken),
    rewards: decodeRewards(o['rewards'], at(path, 'rewards')),
    assetsIds: optStrings(o, path, 'assets_ids') ?? [],
    outcomes: optStrings(o, path, 'outcomes') ?? [],
  };
}

/** `GET /simplified-markets`, `GET /sampling-simplified-markets`. */
export function decodeSimplifiedMarketsPage(value: unknown): Page<SimplifiedMarket> {
  return decodePage(value, decodeSimplifiedMarket);
}

// ---------------------------------------------------------------------------------------------
// Metadata (2.7-2.9; events, tags, search)

function decodeEventSummaryFields(o: Obj, path: string): EventSummary {
  return {
    id: reqId(o, path, 'id'),
    ticker: optStr(o, path, 'ticker'),
    slug: reqStr(o, path, 'slug'),
    title: reqStr(o, path, 'title'),
    description: optStr(o, path, 'description'),
    resolutionSource: optStr(o, path, 'resolutionSource'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    startDate: optDate(o, path, 'startDate'),
    creationDate: optDate(o, path, 'creationDate'),
    endDate: optDate(o, path, 'endDate'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
  };
}

export function decodeEventSummary(value: unknown, path = 'event'): EventSummary {
  return decodeEventSummaryFields(asObj(value, path), path);
}

/** Market, metadata form (2.7): the single-market routes and the markets inside events. */
export function decodeMetadataMarket(value: unknown, path = 'market'): MetadataMarket {
  const o = asObj(value, path);
  const events = o['events'];
  return {
    id: reqId(o, path, 'id'),
    question: reqStr(o, path, 'question'),
    conditionId: reqStr(o, path, 'conditionId'),
    slug: reqStr(o, path, 'slug'),
    resolutionSource: optStr(o, path, 'resolutionSource'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    description: optStr(o, path, 'description'),
    questionId: optStr(o, path, 'questionID', 'questionId'),
    startDate: optDate(o, path, 'startDate'),
    endDate: optDate(o, path, 'endDate'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    outcomes: jsonStrings(o, path, 'outcomes'),
    clobTokenIds: jsonStrings(o, path, 'clobTokenIds'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
    enableOrderBook: optBool(o, path, 'enableOrderBook'),
    acceptingOrders: optBool(o, path, 'acceptingOrders'),
    negRisk: optBool(o, path, 'negRisk'),
    tickSize: optMicros(o, path, 'orderPriceMinTickSize'),
    minOrderSize: optMicros(o, path, 'orderMinSize'),
    events: events === undefined || events === null ? undefined : mapArray(events, at(path, 'events'), decodeEventSummary),
  };
}

export function decodeTag(value: unknown, path = 'tag'): Tag {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    label: optStr(o, path, 'label') ?? '',
    slug: optStr(o, path, 'slug') ?? '',
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    requiresTranslation: optBool(o, path, 'requiresTranslation'),
  };
}

function decodeSeries(value: unknown, path: string): Series {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    ticker: optStr(o, path, 'ticker'),
    slug: reqStr(o, path, 'slug'),
    title: optStr(o, path, 'title') ?? '',
    seriesType: optStr(o, path, 'seriesType'),
    recurrence: optStr(o, path, 'recurrence'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
  };
}

/** Event, full form (2.8). */
export function decodeEvent(value: unknown, path = 'event'): VenueEvent {
  const o = asObj(value, path);
  return {
    ...decodeEventSummaryFields(o, path),
    tags: list(o, path, 'tags', decodeTag),
    markets: list(o, path, 'markets', decodeMetadataMarket),
    series: list(o, path, 'series', decodeSeries),
    eventMetadata: optRecord(o, path, 'eventMetadata'),
  };
}

/** `GET /events`. */
export function decodeEvents(value: unknown): VenueEvent[] {
  return mapArray(value, 'events', decodeEvent);
}

/** `GET /tags`. */
export function decodeTags(value: unknown): Tag[] {
  return mapArray(value, 'tags', decodeTag);
}

/** `GET /events/creators`. */
export function decodeEventCreators(value: unknown): EventCreator[] {
  return mapArray(value, 'creators', (v, path): EventCreator => {
    const o = asObj(v, path);
    return {
      id: reqId(o, path, 'id'),
      creatorName: optStr(o, path, 'creatorName'),
      creatorHandle: optStr(o, path, 'creatorHandle'),
      creatorUrl: optStr(o, path, 'creatorUrl'),
      creatorImage: optStr(o, path, 'creatorImage'),
      createdAt: optDate(o, path, 'createdAt'),
      updatedAt: optDate(o, path, 'updatedAt'),
    };
  });
}

/** `GET /public-search`: `{events, tags, profiles}`, each list possibly absent or null. */
export function decodeSearchResults(value: unknown): SearchResults {
  const o = asObj(value, 'search');
  return {
    events: list(o, 'search', 'events', decodeEvent),
    tags: list(o, 'search', 'tags', decodeTag),
    profiles: list(o, 'search', 'profiles', (v, path): SearchProfile => {
      const p = asObj(v, path);
      return {
        id: optId(p, path, 'id'),
        name: optStr(p, path, 'name'),
        pseudonym: optStr(p, path, 'pseudonym'),
        bio: optStr(p, path, 'bio'),
        proxyWallet: optStr(p, path, 'proxyWallet', 'proxy_wallet'),
        profileImage: optStr(p, path, 'profileImage', 'profile_image'),
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Wallet analytics (2.2-2.5). camelCase per the interface; the venue's newer snake_case shape
// (`{data, pagination}` envelope) is read too.

function decodeTradeFill(v: unknown, path: string): TradeFill {
  const o = asObj(v, path);
  return {
    proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
    side: reqSide(o, path, 'side'),
    asset: reqStr(o, path, 'asset', 'token_id'),
    conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
    size: reqNum(o, path, 'size'),
    price: reqNum(o, path, 'price'),
    tsEvent: reqUnixMs(o, path, 'timestamp'),
    usdcSize: optNum(o, path, 'usdcSize', 'usdc_size'),
    title: optStr(o, path, 'title'),
    slug: optStr(o, path, 'slug'),
    eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
    outcome: optStr(o, path, 'outcome'),
    icon: optStr(o, path, 'icon'),
    outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
    name: optStr(o, path, 'name'),
    pseudonym: optStr(o, path, 'pseudonym'),
    bio: optStr(o, path, 'bio'),
    profileImage: optStr(o, path, 'profileImage', 'profile_image'),
    profileImageOptimized: optStr(o, path, 'profileImageOptimized', 'profile_image_optimized'),
    transactionHash: optStr(o, path, 'transactionHash', 'transaction_hash'),
  };
}

/** `GET /trades`. */
export function decodeTradeFills(value: unknown): TradeFill[] {
  const [arr, path] = arrayOrEnvelope(value, 'trades');
  return mapArray(arr, path, decodeTradeFill);
}

function decodeClosedPosition(v: unknown, path: string): ClosedPosition {
  const o = asObj(v, path);
  return {
    proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
    asset: reqStr(o, path, 'asset', 'token_id'),
    conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
    size: optNum(o, path, 'size', 'current_size'),
    avgPrice: optNum(o, path, 'avgPrice', 'avg_price'),
    initialValue: optNum(o, path, 'initialValue', 'initial_value'),
    currentValue: optNum(o, path, 'currentValue', 'current_value'),
    cashPnl: optNum(o, path, 'cashPnl', 'cash_pnl'),
    totalBought: optNum(o, path, 'totalBought', 'total_size'),
    realizedPnl: optNum(o, path, 'realizedPnl', 'realized_pnl'),
    percentPnl: optNum(o, path, 'percentPnl', 'percent_pnl'),
    percentRealizedPnl: optNum(o, path, 'percentRealizedPnl', 'percent_realized_pnl'),
    curPrice: optNum(o, path, 'curPrice', 'current_price'),
    redeemable: optBool(o, path, 'redeemable'),
    mergeable: optBool(o, path, 'mergeable'),
    title: optStr(o, path, 'title'),
    slug: optStr(o, path, 'slug'),
    eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
    outcome: optStr(o, path, 'outcome'),
    oppositeOutcome: optStr(o, path, 'oppositeOutcome', 'opposite_outcome'),
    oppositeAsset: optStr(o, path, 'oppositeAsset', 'opposite_token_id'),
    icon: optStr(o, path, 'icon'),
    outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
    tsEvent: optDate(o, path, 'timestamp', 'last_event_at'),
    endDate: optDate(o, path, 'endDate', 'end_date'),
  };
}

/** `GET /closed-positions`. */
export function decodeClosedPositions(value: unknown): ClosedPosition[] {
  const [arr, path] = arrayOrEnvelope(value, 'positions');
  return mapArray(arr, path, decodeClosedPosition);
}

/** `GET /positions` (analytics): sizes and prices to Micros, a position without a size refused. */
export function decodePositions(value: unknown): VenuePosition[] {
  const [arr, root] = arrayOrEnvelope(value, 'positions');
  return mapArray(arr, root, (v, path): VenuePosition => {
    const o = asObj(v, path);
    return {
      proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
      asset: reqId(o, path, 'asset', 'token_id'),
      conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
      outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
      outcome: optStr(o, path, 'outcome'),
      size: reqMicros(o, path, 'size', 'current_size'),
      avgPrice: optMicros(o, path, 'avgPrice', 'avg_price'),
      curPrice: optMicros(o, path, 'curPrice', 'current_price'),
      initialValue: optNum(o, path, 'initialValue', 'initial_value'),
      currentValue: optNum(o, path, 'currentValue', 'current_value'),
      cashPnl: optNum(o, path, 'cashPnl', 'cash_pnl'),
      realizedPnl: optNum(o, path, 'realizedPnl', 'realized_pnl'),
      redeemable: optBool(o, path, 'redeemable'),
      mergeable: optBool(o, path, 'mergeable'),
      negativeRisk: optBool(o, path, 'negativeRisk', 'negative_risk'),
      title: optStr(o, path, 'title'),
      endDate: optDate(o, path, 'endDate', 'end_date'),
    };
  });
}

/** `GET /activity`. */
export function decodeActivity(value: unknown): Activity[] {
  const [arr, root] = arrayOrEnvelope(value, 'activity');
  return mapArray(arr, root, (v, path): Activity => {
    const o = asObj(v, path);
    return {
      proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
      conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
      type: reqStr(o, path, 'type'),
      tsEvent: reqUnixMs(o, path, 'timestamp'),
      transactionHash: optStr(o, path, 'transactionHash', 'transaction_hash'),
      asset: optStr(o, path, 'asset', 'token_id'),
      title: optStr(o, path, 'title'),
      slug: optStr(o, path, 'slug'),
      eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
      outcome: optStr(o, path, 'outcome'),
      name: optStr(o, path, 'name'),
      pseudonym: optStr(o, path, 'pseudonym'),
      bio: optStr(o, path, 'bio'),
      size: optNum(o, path, 'size'),
      usdcSize: optNum(o, path, 'usdcSize', 'usdc_size'),
      price: optNum(o, path, 'price'),
      side: optSide(o, path, 'side'),
      outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
      icon: optStr(o, path, 'icon'),
      profileImage: optStr(o, path, 'profileImage', 'profile_image'),
      profileImageOptimized: optStr(o, path, 'profileImageOptimized', 'profile_image_optimized'),
    };
  });
}

/** `GET /holders`. */
export function decodeHolderGroups(value: unknown): HolderGroup[] {
  return mapArray(value, 'holders', (v, path): HolderGroup => {
    const o = asObj(v, path);
    return {
      token: reqStr(o, path, 'token'),
      holders: list(o, path, 'holders', (h, p): Holder => {
        const ho = asObj(h, p);
        return {
          proxyWallet: reqStr(ho, p, 'proxyWallet', 'proxy_wallet'),
          asset: reqStr(ho, p, 'asset', 'token_id'),
          amount: reqNum(ho, p, 'amount'),
          bio: optStr(ho, p, 'bio'),
          pseudonym: optStr(ho, p, 'pseudonym'),
          name: optStr(ho, p, 'name'),
          displayUsernamePublic: optBool(ho, p, 'displayUsernamePublic'),
          outcomeIndex: optInt(ho, p, 'outcomeIndex', 'outcome_index'),
          profileImage: optStr(ho, p, 'profileImage', 'profile_image'),
          profileImageOptimized: optStr(ho, p, 'profileImageOptimized', 'profile_image_optimized'),
        };
      }),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Comments (2.6)

function decodeCommentProfile(v: unknown, path: string): CommentProfile {
  const o = asObj(v, path);
  return {
    name: optStr(o, path, 'name'),
    pseudonym: optStr(o, path, 'pseudonym'),
    bio: optStr(o, path, 'bio'),
    proxyWallet: optStr(o, path, 'proxyWallet'),
    baseAddress: optStr(o, path, 'baseAddress'),
    profileImage: optStr(o, path, 'profileImage'),
    displayUsernamePublic: optBool(o, path, 'displayUsernamePublic'),
    isMod: optBool(o, path, 'isMod'),
    isCreator: optBool(o, path, 'isCreator'),
    profileImageOptimized: optRecord(o, path, 'profileImageOptimized'),
    positions: list(o, path, 'positions', (p, pp): CommentPosition => {
      const po = asObj(p, pp);
      return { tokenId: reqStr(po, pp, 'tokenId'), positionSize: reqId(po, pp, 'positionSize') };
    }),
  };
}

function decodeReaction(v: unknown, path: string): CommentReaction {
  const o = asObj(v, path);
  return {
    id: optId(o, path, 'id'),
    reactionType: optStr(o, path, 'reactionType'),
    userAddress: optStr(o, path, 'userAddress'),
    createdAt: optDate(o, path, 'createdAt'),
    raw: o,
  };
}

export function decodeComment(value: unknown, path = 'comment'): VenueComment {
  const o = asObj(value, path);
  const profile = o['profile'];
  return {
    id: reqId(o, path, 'id'),
    body: optStr(o, path, 'body') ?? '',
    parentEntityType: optStr(o, path, 'parentEntityType'),
    parentEntityId: optId(o, path, 'parentEntityID'),
    parentCommentId: optId(o, path, 'parentCommentID'),
    userAddress: optStr(o, path, 'userAddress'),
    replyAddress: optStr(o, path, 'replyAddress'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    profile: profile === undefined || profile === null ? undefined : decodeCommentProfile(profile, at(path, 'profile')),
    reactions: list(o, path, 'reactions', decodeReaction),
    reportCount: optInt(o, path, 'reportCount'),
    reactionCount: optInt(o, path, 'reactionCount'),
    replyCount: optInt(o, path, 'replyCount'),
    replies: list(o, path, 'replies', decodeComment),
  };
}

/** The comment routes: an array of comments. */
export function decodeComments(value: unknown): VenueComment[] {
  return mapArray(value, 'comments', decodeComment);
}

// ---------------------------------------------------------------------------------------------
// Account data (2.14, 2.15): camelCase (interface) and snake_case (venue docs) both read.

const ORDER_STATUS_SET: ReadonlySet<string> = new Set(VENUE_ORDER_STATUSES);
const TRADE_STATUS_SET: ReadonlySet<string> = new Set(TRADE_STATUSES);
const ORDER_STATUS_EXPECTED = `one of ${VENUE_ORDER_STATUSES.join(', ')} (optionally ORDER_STATUS_-prefixed)`;
const TRADE_STATUS_EXPECTED = `one of ${TRADE_STATUSES.join(', ')} (optionally TRADE_STATUS_-prefixed)`;

/** A wire status in either profile (`LIVE`, `ORDER_STATUS_LIVE`, any case) as its bare upper-case name. */
function bareStatus(raw: string, prefix: string): string {
  const upper = raw.toUpperCase();
  return upper.startsWith(prefix) ? upper.slice(prefix.length) : upper;
}

/** An order status into the closed union; an unknown one is a DecodeError naming the field. */
function orderStatus(raw: string, field: string): VenueOrderStatus {
  const s = bareStatus(raw, 'ORDER_STATUS_');
  if (!ORDER_STATUS_SET.has(s)) throw new DecodeError(field, ORDER_STATUS_EXPECTED, raw);
  return s as VenueOrderStatus;
}

/** A trade status into the closed union; an unknown one is a DecodeError naming the field. */
function tradeStatus(raw: string, field: string): TradeStatus {
  const s = bareStatus(raw, 'TRADE_STATUS_');
  if (!TRADE_STATUS_SET.has(s)) throw new DecodeError(field, TRADE_STATUS_EXPECTED, raw);
  return s as TradeStatus;
}

function decodeMakerOrder(v: unknown, path: string): MakerOrderFill {
  const o = asObj(v, path);
  return {
    orderId: reqStr(o, path, 'order_id', 'orderId'),
    makerAddress: optStr(o, path, 'maker_address', 'makerAddress'),
    owner: optStr(o, path, 'owner'),
    matchedAmount: reqMicros(o, path, 'matched_amount', 'matchedAmount'),
    feeRateBps: optNum(o, path, 'fee_rate_bps', 'feeRateBps'),
    price: reqMicros(o, path, 'price'),
    assetId: reqStr(o, path, 'asset_id', 'assetId'),
    outcome: optStr(o, path, 'outcome'),
    side: optSide(o, path, 'side'),
  };
}

export function decodeAccountTrade(value: unknown, path = 'trade'): AccountTrade {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    takerOrderId: optStr(o, path, 'taker_order_id', 'takerOrderId'),
    market: reqStr(o, path, 'market'),
    assetId: reqStr(o, path, 'asset_id', 'assetId'),
    side: reqSide(o, path, 'side'),
    size: reqMicros(o, path, 'size'),
    feeRateBps: optNum(o, path, 'fee_rate_bps', 'feeRateBps'),
    price: reqMicros(o, path, 'price'),
    status: tradeStatus(reqStr(o, path, 'status'), at(path, 'status')),
    matchTime: optDate(o, path, 'match_time', 'matchTime'),
    lastUpdate: optDate(o, path, 'last_update', 'lastUpdate'),
    outcome: optStr(o, path, 'outcome'),
    bucketIndex: optInt(o, path, 'bucket_index', 'bucketIndex'),
    owner: optStr(o, path, 'owner'),
    makerAddress: optStr(o, path, 'maker_address', 'makerAddress'),
    transactionHash: optStr(o, path, 'transaction_hash', 'transactionHash'),
    traderSide: optStr(o, path, 'type', 'trader_side', 'traderSide'),
    makerOrders: listOf(o, path, decodeMakerOrder, 'maker_orders', 'makerOrders'),
  };
}

export function decodeAccountOrder(value: unknown, path = 'order'): AccountOrder {
  const o = asObj(value, path);
  return {
    id: reqStr(o, path, 'id'),
    status: orderStatus(reqStr(o, path, 'status'), at(path, 'status')),
    market: reqStr(o, path, 'market'),
    assetId: reqStr(o, path, 'assetId', 'asset_id'),
    side: reqSide(o, path, 'side'),
    originalSize: reqMicros(o, path, 'originalSize', 'original_size'),
    sizeMatched: optMicros(o, path, 'sizeMatched', 'size_matched') ?? 0,
    price: reqMicros(o, path, 'price'),
    outcome: optStr(o, path, 'outcome'),
    makerAddress: optStr(o, path, 'makerAddress', 'maker_address'),
    owner: optStr(o, path, 'owner'),
    orderType: optStr(o, path, 'type', 'order_type', 'orderType'),
    createdAt: optDate(o, path, 'createdAt', 'created_at'),
    expiration: optDate(o, path, 'expiration') || undefined, // "0": no expiration
    associateTrades: optStrings(o, path, 'associateTrades', 'associate_trades') ?? [],
    metadata: optStr(o, path, 'metadata'),
  };
}

/** `GET /data/trades`. */
export function decodeAccountTradesPage(value: unknown): Page<AccountTrade> {
  return decodePage(value, decodeAccountTrade);
}

/** `GET /data/orders`. */
export function decodeAccountOrdersPage(value: unknown): Page<AccountOrder> {
  return decodePage(value, decodeAccountOrder);
}

// ---------------------------------------------------------------------------------------------
// Orders, cancels, heartbeats, API keys (2.16, 2.17, 4.9, PROTOCOL "Orders", "Heartbeats")

/**
 * One result of `POST /orders` / the answer of `POST /order`. Accepted when `success` is true
 * and an order id came back; otherwise failed with the venue's `errorMsg` (PROTOCOL: an item
 * can fail with `success: false`, or with `success: true` and an empty `orderID`). Amounts are
 * decimal strings like every trading number; an empty string is 0.
 */
export function decodeOrderPostResult(value: unknown, path = 'result'): OrderPostResult {
  const o = asObj(value, path);
  const success = optBool(o, path, 'success') ?? false;
  const orderId = optStr(o, path, 'orderID', 'orderId', 'order_id');
  const errorMsg = optStr(o, path, 'errorMsg', 'error_msg', 'error') ?? '';
  const rawStatus = optStr(o, path, 'status');
  const status = rawStatus === undefined || rawStatus === '' ? undefined : orderStatus(rawStatus, at(path, 'status'));
  if (!success || orderId === undefined || orderId === '') {
    return {
      kind: 'failed',
      errorMsg: errorMsg === '' ? (success ? 'accepted without an order id' : 'refused') : errorMsg,
      orderId: orderId === '' ? undefined : orderId,
      status,
    };
  }
  return {
    kind: 'accepted',
    orderId,
    status: status ?? 'LIVE',
    makingAmount: optMicros(o, path, 'makingAmount', 'making_amount') ?? 0,
    takingAmount: optMicros(o, path, 'takingAmount', 'taking_amount') ?? 0,
    tradeIds: optStrings(o, path, 'tradeIDs', 'tradeIds', 'trade_ids') ?? [],
    transactionHashes: optStrings(o, path, 'transactionsHashes', 'transactionHashes', 'transaction_hashes') ?? [],
  };
}

/** `POST /orders`: exactly one result per item sent, in order (a DecodeError otherwise). */
export function decodeOrderPostResults(value: unknown, expected: number): OrderPostResult[] {
  const results = mapArray(value, 'results', decodeOrderPostResult);
  if (results.length !== expected) throw new DecodeError('results', `${expected} results, one per order sent`, value);
  return results;
}

/** The cancel family: `{canceled: [ids], not_canceled: {id: reason}}` (null for empty, as captured). */
export function decodeCancelResult(value: unknown): CancelResult {
  const path = 'cancel';
  const o = asObj(value, path);
  const canceled = optStrings(o, path, 'canceled', 'cancelled') ?? [];
  const reasons = optRecord(o, path, 'not_canceled', 'notCanceled', 'not_cancelled') ?? {};
  const notCanceled: Record<string, string> = {};
  for (const [id, reason] of Object.entries(reasons)) {
    if (typeof reason !== 'string') throw new DecodeError(at(at(path, 'not_canceled'), id), 'a string', reason);
    notCanceled[id] = reason;
  }
  return { canceled, notCanceled };
}

/** A non-negative integer of base units sent as a digit string (or a JSON integer). */
function baseUnits(v: unknown, path: string): bigint {
  if (typeof v === 'string' && /^\d{1,80}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new DecodeError(path, 'a non-negative integer of base units (6 decimals)', v);
}

/**
 * `GET /balance-allowance`: `{balance, allowances: {spender: amount}}` (CLOB V2), or the older
 * `{balance, allowance}`; amounts are integers of base units (1 unit = 1e6) as digit strings.
 */
export function decodeBalanceAllowance(value: unknown): BalanceAllowance {
  const path = 'balance-allowance';
  const o = asObj(value, path);
  const balance = baseUnits(o['balance'], at(path, 'balance'));
  if (balance > BigInt(Number.MAX_SAFE_INTEGER)) throw new DecodeError(at(path, 'balance'), 'a balance below 9e15 base units', o['balance']);
  const allowances: Record<string, bigint> = {};
  const map = optRecord(o, path, 'allowances');
  if (map !== undefined) {
    for (const [spender, amount] of Object.entries(map)) allowances[spender] = baseUnits(amount, at(at(path, 'allowances'), spender));
  }
  const single = o['allowance'];
  if (single !== undefined && single !== null) allowances[''] = baseUnits(single, at(path, 'allowance'));
  return { balance: Number(balance), allowances };
}

/** `POST /v1/heartbeats`: `{heartbeat_id}`, the id to send on the next beat. */
export function decodeHeartbeatId(value: unknown): string {
  const id = reqStr(asObj(value, 'heartbeat'), 'heartbeat', 'heartbeat_id', 'heartbeatId');
  if (id === '') throw new DecodeError('heartbeat.heartbeat_id', 'a non-empty id', id);
  return id;
}

/** `POST /heartbeats`: `{status}` (`ok`). */
export function decodeHeartbeatStatus(value: unknown): string {
  return reqStr(asObj(value, 'heartbeat'), 'heartbeat', 'status');
}

/**
 * `POST /auth/api-key`, `GET /auth/derive-api-key`: `{apiKey, secret, passphrase}`. The secret
 * and passphrase become `Secret`s at once; a DecodeError names the field and never shows them.
 */
export function decodeApiCredentials(value: unknown): ApiCredentials {
  const path = 'api-key';
  const o = asObj(value, path);
  const apiKey = reqStr(o, path, 'apiKey', 'api_key', 'key');
  const secret = o['secret'];
  const passphrase = o['passphrase'];
  // only an empty string can fail as a string, so a credential is never shown
  if (typeof secret !== 'string' || secret === '') throw new DecodeError(at(path, 'secret'), 'a non-empty string', secret);
  if (typeof passphrase !== 'string' || passphrase === '') throw new DecodeError(at(path, 'passphrase'), 'a non-empty string', passphrase);
  return Object.freeze({ apiKey, secret: new Secret(secret), passphrase: new Secret(passphrase) });
}
