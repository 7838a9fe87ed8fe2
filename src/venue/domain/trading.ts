import type { Micros } from '../../core/fixed.ts';
import type { RewardRules } from '../../core/rewards.ts';
import type { ConditionId, MarketRules, TokenId } from '../../core/types.ts';

/**
 * Domain types of the trading read routes. Prices, sizes, ticks and minimums are Micros
 * (exact); fees are basis points; times are epoch milliseconds (undefined when the venue sent
 * none). `OrderBook` and `TokenPrices` live in `core/types.ts`.
 */

/** One page of a cursor route (2.1). */
export interface Page<T> {
  readonly items: readonly T[];
  /** The cursor to ask for next; meaningless when `done`. */
  readonly nextCursor: string;
  /** True when the venue signalled the last page (`LTE=` or an empty cursor). */
  readonly done: boolean;
  readonly limit: number | undefined;
  readonly count: number | undefined;
}

export interface MarketToken {
  readonly tokenId: TokenId;
  readonly outcome: string;
  /** Last price the venue shows for the outcome (a display value, rounded to micros). */
  readonly price: Micros;
  readonly winner: boolean;
}

export interface RewardRate {
  readonly assetAddress: string;
  readonly rewardsDailyRate: number;
}

/**
 * A market's `rewards` (2.10), decoded: the rules the scoring model takes (`dailyRate` the sum of
 * the per-asset rates, `minSize` in Micros, `maxSpreadCents` as sent) and the rates as sent. A
 * market whose `rates` is null or empty pays none: its `rewards` is undefined.
 */
export interface MarketRewards extends RewardRules {
  readonly rates: readonly RewardRate[];
}

export interface MarketEventRef {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly ticker: string;
  readonly description: string;
}

/**
 * Trading market (2.10). Structurally a `MarketRules`, so order building and risk can take it
 * directly. The fields after `tags` are present on the sampling list and the single-market
 * route only.
 */
export interface TradingMarket extends MarketRules {
  readonly conditionId: ConditionId;
  readonly questionId: string;
  readonly question: string;
  readonly description: string;
  readonly marketSlug: string;
  readonly enableOrderBook: boolean;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly notificationsEnabled: boolean;
  readonly is5050Outcome: boolean;
  readonly itode: boolean | undefined;
  readonly blockaidCheckEnabled: boolean | undefined;
  readonly acceptingOrderTimestamp: number | undefined;
  readonly endDate: number | undefined;
  readonly gameStartTime: number | undefined;
  readonly fpmm: string;
  readonly negRiskMarketId: string;
  readonly negRiskRequestId: string;
  readonly icon: string;
  readonly image: string;
  readonly secondsDelay: number;
  readonly takerOrderDelayMs: number | undefined;
  readonly orderAgeSeconds: number | undefined;
  readonly rewards: MarketRewards | undefined;
  readonly tokens: readonly MarketToken[];
  readonly tags: readonly string[];
  readonly status: string | undefined;
  readonly marketId: number | undefined;
  readonly slug: string | undefined;
  readonly assetsIds: readonly TokenId[] | undefined;
  readonly outcomes: readonly string[] | undefined;
  readonly event: MarketEventRef | undefined;
  readonly rawMetadata: Readonly<Record<string, unknown>> | undefined;
}

/** Simplified market (2.11). */
export interface SimplifiedMarket {
  readonly conditionId: ConditionId;
  readonly status: string | undefined;
  readonly question: string | undefined;
  readonly slug: string | undefined;
  readonly negRisk: boolean;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly acceptingOrders: boolean;
  readonly marketId: number | undefined;
  readonly tokens: readonly MarketToken[];
  readonly rewards: MarketRewards | undefined;
  readonly assetsIds: readonly TokenId[];
  readonly outcomes: readonly string[];
}

/** `GET /price`: the best price on one side of a token's book. */
export interface TokenPrice {
  readonly tokenId: TokenId;
  readonly side: 'BUY' | 'SELL';
  readonly price: Micros;
  readonly tsInit: number;
}

/** `GET /midpoint`. */
export interface Midpoint {
  readonly tokenId: TokenId;
  readonly mid: Micros;
  readonly tsInit: number;
}

/** Every `interval` of `GET /prices-history` (interface 2.9). */
export const PRICE_HISTORY_INTERVALS = ['1m', '1h', '6h', '1d', '1w', 'max'] as const;
export type PriceHistoryInterval = (typeof PRICE_HISTORY_INTERVALS)[number];

/** One point of a price history. */
export interface PricePoint {
  /** Epoch ms (the venue sends unix seconds). */
  readonly tsEvent: number;
  /** The venue sends a JSON number; rounded to micros. */
  readonly price: Micros;
}

/** `GET /time`. */
export interface ServerTime {
  /** Venue time, epoch ms (the venue sends unix seconds). */
  readonly serverTimeMs: number;
  /** Our receipt time, epoch ms. */
  readonly tsInit: number;
}
