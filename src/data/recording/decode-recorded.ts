import { DecodeError } from '../../core/errors.ts';
import { parseMicros, type Micros } from '../../core/fixed.ts';
import type { BookLevel, EventInfo, TokenPrices, WalletTrade } from '../../core/types.ts';
import { makeOrderBook } from '../../venue/books-scan.ts';
import type { MarketEvent } from '../../core/events.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedMarket, type RecordingHeader } from './format.ts';

/**
 * The generic decoders of the recording format: parsed JSON -> header, parsed JSON -> domain
 * MarketEvent. Every value is checked; a bad one throws a DecodeError naming the field
 * (`bids[3][0]`, `prices[1].sell`); the reader prefixes `file:line`. Decimals become Micros digit
 * by digit (parseMicros), levels are sorted into book order (bids descending, asks ascending).
 * These are the reference path: the line scanner and the binary form must give the same events.
 */

type Obj = Readonly<Record<string, unknown>>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new DecodeError(path || '(root)', 'an object', v);
  return v;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function str(o: Obj, path: string, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new DecodeError(join(path, key), 'a string', v);
  return v;
}

function nonEmpty(o: Obj, path: string, key: string): string {
  const v = str(o, path, key);
  if (v === '') throw new DecodeError(join(path, key), 'a non-empty string', v);
  return v;
}

function time(o: Obj, key: 'tsEvent' | 'tsInit'): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new DecodeError(key, 'epoch milliseconds (a non-negative integer)', v);
  return v;
}

/** A decimal string with at most 6 decimals, >= 0 (> 0 when `positive`). */
function decimal(v: unknown, path: string, positive = false): Micros {
  const m = typeof v === 'string' ? parseMicros(v) : NaN;
  if (Number.isNaN(m) || m < 0 || (positive && m === 0)) {
    throw new DecodeError(path, `a ${positive ? 'positive' : 'non-negative'} decimal string with at most 6 decimals`, v);
  }
  return m;
}

function optDecimal(o: Obj, path: string, key: string, positive = false): Micros | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  return decimal(v, join(path, key), positive);
}

function token(o: Obj, tokens: ReadonlyMap<string, string> | undefined, path = ''): string {
  const id = nonEmpty(o, path, 'tokenId');
  if (tokens === undefined) return id;
  const known = tokens.get(id);
  if (known === undefined) throw new DecodeError(join(path, 'tokenId'), "a token of the header's markets or of an earlier market event", id);
  return known;
}

/** A fee rate: whole basis points >= 0. */
function wholeBps(o: Obj, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new DecodeError(key, 'a whole number of basis points >= 0', v);
  return v;
}

function levels(v: unknown, path: string): BookLevel[] {
  if (!Array.isArray(v)) throw new DecodeError(path, 'an array of [price, size] pairs', v);
  const out = new Array<BookLevel>(v.length);
  for (let i = 0; i < v.length; i++) {
    const level: unknown = v[i];
    const p = `${path}[${i}]`;
    if (!Array.isArray(level) || level.length !== 2) throw new DecodeError(p, 'a [price, size] pair of decimal strings', level);
    out[i] = { price: decimal(level[0], `${p}[0]`), size: decimal(level[1], `${p}[1]`) };
  }
  return out;
}

/** A wallet trade's `wallet`: a lowercase 0x address (what the live source delivers). */
function walletAddress(o: Obj): string {
  const v = o['wallet'];
  if (typeof v !== 'string' || !/^0x[0-9a-f]{40}$/.test(v)) throw new DecodeError('wallet', 'a lowercase 0x address of 40 hex digits', v);
  return v;
}

/** The token ids of a close or resolve event (each one of the header's when `tokens` is given). */
function tokenList(v: unknown, tokens: ReadonlyMap<string, string> | undefined): string[] {
  if (!Array.isArray(v) || v.length === 0) throw new DecodeError('tokenIds', 'a non-empty array of token ids', v);
  return v.map((id: unknown, i) => {
    if (typeof id !== 'string' || id === '') throw new DecodeError(`tokenIds[${i}]`, 'a non-empty string', id);
    if (tokens === undefined) return id;
    const known = tokens.get(id);
    if (known === undefined) throw new DecodeError(`tokenIds[${i}]`, "a token of the header's markets or of an earlier market event", id);
    return known;
  });
}

/**
 * One event line, parsed, to the domain event. `tokens` (token id -> the header's own string)
 * makes a token outside the header's markets (and those of earlier `market` events) an error and
 * shares one string per token; a `market` event adds its tokens to it.
 */
export function decodeRecordedEvent(value: unknown, tokens?: Map<string, string>): MarketEvent {
  const o = obj(value, '');
  const t = o['t'];
  const tsEvent = time(o, 'tsEvent');
  const tsInit = time(o, 'tsInit');
  switch (t) {
    case 'book': {
      const tokenId = token(o, tokens);
      const conditionId = nonEmpty(o, '', 'conditionId');
      const hash = str(o, '', 'hash');
      const bids = levels(o['bids'], 'bids');
      const asks = levels(o['asks'], 'asks');
      const tickSize = optDecimal(o, '', 'tickSize', true);
      const minOrderSize = optDecimal(o, '', 'minOrderSize');
      const nr = o['negRisk'];
      if (nr !== undefined && nr !== null && typeof nr !== 'boolean') throw new DecodeError('negRisk', 'a boolean', nr);
      const lastTradePrice = optDecimal(o, '', 'lastTradePrice');
      const book = makeOrderBook(tokenId, conditionId, tsEvent, tsInit, hash, bids, asks, tickSize, minOrderSize, nr ?? undefined, lastTradePrice);
      return { type: 'book', book, tsEvent, tsInit };
    }
    case 'prices': {
      const list = o['prices'];
      if (!Array.isArray(list)) throw new DecodeError('prices', 'an array of {tokenId, buy?, sell?}', list);
      const prices = new Array<TokenPrices>(list.length);
      for (let i = 0; i < list.length; i++) {
        const p = `prices[${i}]`;
        const entry = obj(list[i], p);
        prices[i] = { tokenId: token(entry, tokens, p), buy: optDecimal(entry, p, 'buy'), sell: optDecimal(entry, p, 'sell'), tsInit };
      }
      return { type: 'prices', prices, tsEvent, tsInit };
    }
    case 'trade': {
      const tokenId = token(o, tokens);
      const price = decimal(o['price'], 'price');
      const size = decimal(o['size'], 'size');
      const side = o['side'];
      if (side !== 'BUY' && side !== 'SELL') throw new DecodeError('side', "'BUY' or 'SELL'", side);
      return { type: 'trade', tokenId, price, size, side, tsEvent, tsInit };
    }
    case 'walletTrade': {
      // a followed wallet may trade any market: its token need not be one of the header's
      const tokenId = nonEmpty(o, '', 'tokenId');
      const side = o['side'];
      if (side !== 'BUY' && side !== 'SELL') throw new DecodeError('side', "'BUY' or 'SELL'", side);
      const trade: WalletTrade = {
        wallet: walletAddress(o),
        txHash: nonEmpty(o, '', 'txHash'),
        tokenId: tokens?.get(tokenId) ?? tokenId,
        conditionId: nonEmpty(o, '', 'conditionId'),
        side,
        price: decimal(o['price'], 'price'),
        size: decimal(o['size'], 'size'),
        ts: tsEvent,
      };
      return { type: 'walletTrade', trade, tsEvent, tsInit };
    }
    case 'tick': {
      const tokenId = token(o, tokens);
      const tickSize = decimal(o['tickSize'], 'tickSize', true);
      return { type: 'tickSize', tokenId, tickSize, tsEvent, tsInit };
    }
    case 'close':
    case 'resolve': {
      const conditionId = nonEmpty(o, '', 'conditionId');
      const tokenIds = tokenList(o['tokenIds'], tokens);
      if (t === 'close') return { type: 'marketClosed', conditionId, tokenIds, tsEvent, tsInit };
      const w = o['winner'];
      const winnerTokenId = w === null ? undefined : tokenIds.find((id) => id === w);
      if (w !== null && winnerTokenId === undefined) throw new DecodeError('winner', 'one of tokenIds, or null (no winner)', w);
      return { type: 'marketResolved', conditionId, tokenIds, winnerTokenId, tsEvent, tsInit };
    }
    case 'fee': {
      const tokenId = token(o, tokens);
      return { type: 'feeRate', tokenId, takerBps: wholeBps(o, 'takerBps'), makerBps: wholeBps(o, 'makerBps'), tsEvent, tsInit };
    }
    case 'clear': {
      const conditionId = nonEmpty(o, '', 'conditionId');
      return { type: 'marketCleared', conditionId, tokenIds: tokenList(o['tokenIds'], tokens), tsEvent, tsInit };
    }
    case 'market': {
      const market = decodeRecordedMarket(o['market'], 'market', tokens ?? new Map<string, string>());
      if (tokens !== undefined) addMarketTokens(tokens, market);
      return { type: 'marketAdded', market, tsEvent, tsInit };
    }
    default:
      throw new DecodeError('t', "one of 'book', 'prices', 'trade', 'walletTrade', 'tick', 'close', 'resolve', 'market', 'fee', 'clear'", t);
  }
}

/**
 * The header line, parsed. Another format, or a version newer than this reader's, is refused
 * first (one error), before any other field is looked at.
 */
export function decodeRecordingHeader(value: unknown): RecordingHeader {
  const o = obj(value, '(header)');
  if (o['format'] !== RECORDING_FORMAT) throw new DecodeError('format', `'${RECORDING_FORMAT}' (this is not a clobot recording)`, o['format']);
  const version = o['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new DecodeError('version', 'a positive integer', version);
  if (version > RECORDING_VERSION) {
    throw new DecodeError('version', `at most ${RECORDING_VERSION} (the file is from a newer clobot; this one reads version ${RECORDING_VERSION})`, version);
  }
  const createdAt = o['createdAt'];
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0) throw new DecodeError('createdAt', 'epoch milliseconds', createdAt);
  const source = str(o, '', 'source');
  const list = o['markets'];
  if (!Array.isArray(list)) throw new DecodeError('markets', 'an array', list);
  const seenTokens = new Map<string, string>();
  const markets = list.map((m: unknown, i: number): RecordedMarket => {
    const market = decodeRecordedMarket(m, `markets[${i}]`, seenTokens);
    addMarketTokens(seenTokens, market);
    return market;
  });
  const updateMs = o['medianUpdateMs'];
  if (updateMs !== undefined && (typeof updateMs !== 'number' || !Number.isFinite(updateMs) || updateMs < 0)) throw new DecodeError('medianUpdateMs', 'a non-negative number of milliseconds', updateMs);
  const update = updateMs === undefined ? {} : { medianUpdateMs: updateMs };
  const eventsValue = o['events'];
  if (eventsValue === undefined) return { format: RECORDING_FORMAT, version, createdAt, source, markets, ...update };
  if (!Array.isArray(eventsValue)) throw new DecodeError('events', 'an array of events', eventsValue);
  const events = eventsValue.map((e: unknown, i: number) => decodeRecordedEventInfo(e, `events[${i}]`));
  return { format: RECORDING_FORMAT, version, createdAt, source, markets, events, ...update };
}

/** One event of the header (`events[i]`), checked. */
function decodeRecordedEventInfo(value: unknown, p: string): EventInfo {
  const eo = obj(value, p);
  const flag = (key: string): boolean => {
    const v = eo[key];
    if (typeof v !== 'boolean') throw new DecodeError(`${p}.${key}`, 'a boolean', v);
    return v;
  };
  const ids = eo['marketConditionIds'];
  if (!Array.isArray(ids) || ids.some((c) => typeof c !== 'string' || c.length === 0)) throw new DecodeError(`${p}.marketConditionIds`, 'an array of condition ids', ids);
  return {
    id: nonEmpty(eo, p, 'id'),
    slug: str(eo, p, 'slug'),
    title: str(eo, p, 'title'),
    negRisk: flag('negRisk'),
    augmented: flag('augmented'),
    marketConditionIds: ids as string[],
  };
}

/**
 * One market of the header (`markets[i]`) or of a `market` event, checked; each of its tokens must
 * be new (`known`: the tokens listed before it).
 */
export function decodeRecordedMarket(value: unknown, p: string, known: ReadonlyMap<string, string>): RecordedMarket {
  const mo = obj(value, p);
  const negRisk = mo['negRisk'];
  if (typeof negRisk !== 'boolean') throw new DecodeError(`${p}.negRisk`, 'a boolean', negRisk);
  const nrId = mo['negRiskMarketId'];
  if (nrId !== undefined && typeof nrId !== 'string') throw new DecodeError(`${p}.negRiskMarketId`, 'a string', nrId);
  decimal(mo['tickSize'], `${p}.tickSize`, true);
  decimal(mo['minOrderSize'], `${p}.minOrderSize`);
  const fee = (key: string): number => {
    const v = mo[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new DecodeError(`${p}.${key}`, 'a non-negative number', v);
    return v;
  };
  const delay = mo['secondsDelay'];
  if (delay !== undefined && (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0)) throw new DecodeError(`${p}.secondsDelay`, 'a non-negative number of seconds', delay);
  const gameStart = mo['gameStartTime'];
  if (gameStart !== undefined && (typeof gameStart !== 'number' || !Number.isSafeInteger(gameStart) || gameStart < 0)) throw new DecodeError(`${p}.gameStartTime`, 'epoch milliseconds', gameStart);
  const endDate = mo['endDate'];
  if (endDate !== undefined && (typeof endDate !== 'number' || !Number.isSafeInteger(endDate) || endDate < 0)) throw new DecodeError(`${p}.endDate`, 'epoch milliseconds', endDate);
  const tokensValue = mo['tokens'];
  if (!Array.isArray(tokensValue) || tokensValue.length === 0) throw new DecodeError(`${p}.tokens`, 'a non-empty array of {tokenId, outcome}', tokensValue);
  const seen = new Set<string>();
  const tokens = tokensValue.map((tv: unknown, j: number) => {
    const tp = `${p}.tokens[${j}]`;
    const to = obj(tv, tp);
    const tokenId = nonEmpty(to, tp, 'tokenId');
    if (seen.has(tokenId) || known.has(tokenId)) throw new DecodeError(`${tp}.tokenId`, 'a token id listed once', tokenId);
    seen.add(tokenId);
    return { tokenId, outcome: str(to, tp, 'outcome') };
  });
  return {
    conditionId: nonEmpty(mo, p, 'conditionId'),
    question: str(mo, p, 'question'),
    slug: str(mo, p, 'slug'),
    negRisk,
    ...(nrId !== undefined ? { negRiskMarketId: nrId } : {}),
    tickSize: mo['tickSize'] as string,
    minOrderSize: mo['minOrderSize'] as string,
    makerBaseFeeBps: fee('makerBaseFeeBps'),
    takerBaseFeeBps: fee('takerBaseFeeBps'),
    ...(delay !== undefined ? { secondsDelay: delay } : {}),
    ...(gameStart !== undefined ? { gameStartTime: gameStart } : {}),
    ...(endDate !== undefined ? { endDate } : {}),
    tokens,
    ...(mo['rewards'] !== undefined ? { rewards: recordedRewards(mo['rewards'], `${p}.rewards`) } : {}),
  };
}

/** A market's `rewards` (optional): `{dailyRate, minSize, maxSpreadCents}`, non-negative, `minSize` a decimal string. */
function recordedRewards(value: unknown, p: string): NonNullable<RecordedMarket['rewards']> {
  const o = obj(value, p);
  const num = (key: string): number => {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new DecodeError(`${p}.${key}`, 'a non-negative number', v);
    return v;
  };
  decimal(o['minSize'], `${p}.minSize`);
  return { dailyRate: num('dailyRate'), minSize: o['minSize'] as string, maxSpreadCents: num('maxSpreadCents') };
}

/** Makes a market's tokens ones that events may name. */
export function addMarketTokens(tokens: Map<string, string>, market: RecordedMarket): void {
  for (const t of market.tokens) tokens.set(t.tokenId, t.tokenId);
}

/** Token id -> the header's string for it (also the set of tokens events may name). */
export function headerTokens(header: RecordingHeader): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of header.markets) for (const t of m.tokens) out.set(t.tokenId, t.tokenId);
  return out;
}
