import { DecodeError } from '../../core/errors.ts';
import { rewardRulesOf } from '../../core/rewards.ts';
import type { MarketEventRef, MarketRewards, MarketToken, Page, RewardRate, SimplifiedMarket, TradingMarket } from '../domain/trading.ts';
import {
  asObj,
  at,
  list,
  mapArray,
  type Obj,
  optBool,
  optDate,
  optInt,
  optMicros,
  optNum,
  optRecord,
  optStr,
  optStrings,
  reqBool,
  reqId,
  reqMicros,
  reqNum,
  reqStr,
} from './fields.ts';

/**
 * Decoders of trading markets (interface 2.1, 2.10, 2.11) and the cursor page envelope.
 */

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

/** `rewards` onto the scoring model's rules (core/rewards.ts); undefined when it pays none (no rates). */
function decodeRewards(v: unknown, path: string): MarketRewards | undefined {
  if (v === undefined || v === null) return undefined;
  const o = asObj(v, path);
  const rates = list(o, path, 'rates', (r, p): RewardRate => {
    const ro = asObj(r, p);
    return { assetAddress: reqStr(ro, p, 'asset_address'), rewardsDailyRate: reqNum(ro, p, 'rewards_daily_rate') };
  });
  const minSize = optNum(o, path, 'min_size') ?? 0;
  const maxSpread = optNum(o, path, 'max_spread') ?? 0;
  if (minSize < 0) throw new DecodeError(at(path, 'min_size'), 'a non-negative number', minSize);
  if (maxSpread < 0) throw new DecodeError(at(path, 'max_spread'), 'a non-negative number', maxSpread);
  for (const [i, r] of rates.entries()) if (r.rewardsDailyRate < 0) throw new DecodeError(at(at(path, 'rates'), i), 'a non-negative rewards_daily_rate', r.rewardsDailyRate);
  const rules = rewardRulesOf({ rates, minSize, maxSpread });
  return rules === undefined ? undefined : { ...rules, rates };
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
