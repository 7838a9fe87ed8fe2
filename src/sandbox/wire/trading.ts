import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT, formatMicros } from '../../core/fixed.ts';
import { bestAsk, bestBid, bookMid } from '../../core/book.ts';
import type {
  WireMarketToken,
  WireOrderBook,
  WireRewards,
  WireSimplifiedMarket,
  WireTradingMarket,
  WireTradingMarketDetail,
} from '../../venue/wire/trading.ts';
import type { BookSource, BookView } from '../world/book-source.ts';
import { isoTime } from '../world/ids.ts';
import type { SandboxMarket } from '../world/model.ts';

/** World objects in the trading routes' wire shapes (interface 2.10-2.12). */

/** USDC.e on Polygon: the asset reward rates are paid in. */
const REWARD_ASSET = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';

const toNumber = (m: Micros): number => m / MICROS_PER_UNIT;

/** Best bid, best ask and their mid in the token's book, if any. */
export function bestPrices(view: BookView): { bid: Micros | undefined; ask: Micros | undefined } {
  return { bid: bestBid(view), ask: bestAsk(view) };
}

/** The YES token's price now: resolution for closed markets, else the book's mid, else the seed mid. */
function yesPrice(m: SandboxMarket, books: BookSource): Micros {
  if (m.closed && m.winnerIndex !== undefined) return m.winnerIndex === 0 ? MICROS_PER_UNIT : 0;
  const view = books.book(m.tokens[0].tokenId);
  return bookMid(view) ?? view?.lastTradePrice ?? m.initialMid;
}

function tokens(m: SandboxMarket, books: BookSource): WireMarketToken[] {
  const yes = yesPrice(m, books);
  return m.tokens.map((t) => ({
    token_id: t.tokenId,
    outcome: t.outcome,
    price: toNumber(t.outcomeIndex === 0 ? yes : MICROS_PER_UNIT - yes),
    winner: m.winnerIndex === t.outcomeIndex,
  }));
}

function rewards(m: SandboxMarket): WireRewards {
  if (!m.rewards) return { rates: null, min_size: 0, max_spread: 0 };
  return {
    rates: [{ asset_address: REWARD_ASSET, rewards_daily_rate: m.rewards.dailyRate }],
    min_size: m.rewards.minSize,
    max_spread: m.rewards.maxSpread,
  };
}

/** `active`, `closed`: the trading status string of the detail and simplified forms. */
function status(m: SandboxMarket): string {
  return m.closed ? 'closed' : 'active';
}

/** Trading market (2.10) as on the plain `GET /markets` list. */
export function toTradingMarket(m: SandboxMarket, books: BookSource): WireTradingMarket {
  return {
    enable_order_book: m.enableOrderBook,
    active: m.active,
    closed: m.closed,
    archived: m.archived,
    accepting_orders: m.acceptingOrders,
    accepting_order_timestamp: m.acceptingOrders ? isoTime(m.createdAt) : null,
    minimum_order_size: toNumber(m.minOrderSize),
    minimum_tick_size: toNumber(m.tickSize),
    condition_id: m.conditionId,
    question_id: m.questionId,
    question: m.question,
    description: m.description,
    market_slug: m.slug,
    end_date_iso: isoTime(m.endDate),
    game_start_time: m.gameStartTime === undefined ? null : isoTime(m.gameStartTime),
    seconds_delay: m.secondsDelay,
    fpmm: '',
    maker_base_fee: m.makerBaseFee,
    taker_base_fee: m.takerBaseFee,
    notifications_enabled: true,
    neg_risk: m.negRisk,
    neg_risk_market_id: m.negRiskMarketId,
    neg_risk_request_id: m.negRiskRequestId,
    icon: m.icon,
    image: m.image,
    rewards: rewards(m),
    is_50_50_outcome: false,
    itode: false,
    blockaid_check_enabled: false,
    taker_order_delay_ms: 0,
    order_age_seconds: 0,
    tokens: tokens(m, books),
    tags: m.event.tags.map((t) => t.label),
  };
}

/** Trading market with the extra fields of the sampling list and the single-market route. */
export function toTradingMarketDetail(m: SandboxMarket, books: BookSource): WireTradingMarketDetail {
  return {
    ...toTradingMarket(m, books),
    status: status(m),
    market_id: m.numericId,
    slug: m.slug,
    assets_ids: m.tokens.map((t) => t.tokenId),
    outcomes: [...m.outcomes],
    event: { id: m.event.id, slug: m.event.slug, title: m.event.title, ticker: m.event.ticker, description: m.event.description },
    raw_metadata: {},
  };
}

/** Simplified market (2.11). */
export function toSimplifiedMarket(m: SandboxMarket, books: BookSource): WireSimplifiedMarket {
  return {
    condition_id: m.conditionId,
    status: status(m),
    question: m.question,
    slug: m.slug,
    neg_risk: m.negRisk,
    active: m.active,
    closed: m.closed,
    archived: m.archived,
    accepting_orders: m.acceptingOrders,
    market_id: m.numericId,
    tokens: tokens(m, books),
    rewards: rewards(m),
    assets_ids: m.tokens.map((t) => t.tokenId),
    outcomes: [...m.outcomes],
  };
}

/**
 * Order book (2.12). Levels go out as the venue sends them, best price last (bids ascending,
 * asks descending); clients sort (PROTOCOL "Market data").
 */
export function toOrderBook(view: BookView): WireOrderBook {
  const level = (l: { price: Micros; size: Micros }): { price: string; size: string } => ({ price: formatMicros(l.price), size: formatMicros(l.size) });
  const bids = new Array<{ price: string; size: string }>(view.bids.length);
  for (let i = 0; i < view.bids.length; i++) bids[i] = level(view.bids[view.bids.length - 1 - i] as { price: Micros; size: Micros });
  const asks = new Array<{ price: string; size: string }>(view.asks.length);
  for (let i = 0; i < view.asks.length; i++) asks[i] = level(view.asks[view.asks.length - 1 - i] as { price: Micros; size: Micros });
  return {
    market: view.conditionId,
    asset_id: view.tokenId,
    timestamp: String(view.timestampMs),
    hash: view.hash,
    bids,
    asks,
    min_order_size: formatMicros(view.minOrderSize),
    tick_size: formatMicros(view.tickSize),
    neg_risk: view.negRisk,
    last_trade_price: view.lastTradePrice === undefined ? '' : formatMicros(view.lastTradePrice),
  };
}

const bookJson = new WeakMap<BookView, string>();

/** The JSON text of a book, made once per view (views are immutable; a change is a new view). */
export function orderBookJson(view: BookView): string {
  let text = bookJson.get(view);
  if (text === undefined) {
    text = JSON.stringify(toOrderBook(view));
    bookJson.set(view, text);
  }
  return text;
}
