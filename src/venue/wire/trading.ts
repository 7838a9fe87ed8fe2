/**
 * Wire types of the trading read routes (interface 2.1, 2.10-2.13, 4.6, 4.7; PROTOCOL's small
 * routes). Prices and sizes are decimal strings on these routes, except where noted.
 */

/** Page envelope of the cursor routes (2.1). */
export interface WirePage<T> {
  data: T[];
  /** base64 of the decimal offset; `LTE=` or empty at the end. */
  next_cursor: string;
  limit: number;
  count: number;
}

export interface WireRewards {
  /** Captured payloads send `null` when a market has no reward rates. */
  rates: { asset_address: string; rewards_daily_rate: number }[] | null;
  min_size: number;
  max_spread: number;
}

export interface WireMarketToken {
  token_id: string;
  outcome: string;
  price: number;
  winner: boolean;
}

/** Trading market (2.10), as in `GET /markets`. Captured payloads send `null` for some strings. */
export interface WireTradingMarket {
  enable_order_book: boolean;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  neg_risk: boolean;
  notifications_enabled: boolean;
  is_50_50_outcome: boolean;
  itode?: boolean;
  blockaid_check_enabled?: boolean;
  accepting_order_timestamp: string | null;
  condition_id: string;
  question_id: string;
  question: string;
  description: string;
  market_slug: string;
  end_date_iso: string | null;
  game_start_time: string | null;
  fpmm: string;
  neg_risk_market_id: string;
  neg_risk_request_id: string;
  icon: string;
  image: string;
  minimum_order_size: number;
  minimum_tick_size: number;
  seconds_delay: number;
  maker_base_fee: number;
  taker_base_fee: number;
  taker_order_delay_ms?: number;
  order_age_seconds?: number;
  rewards: WireRewards;
  tokens: WireMarketToken[];
  tags: string[] | null;
}

/** Extra fields of the sampling list and the single-market route (2.10). */
export interface WireTradingMarketDetail extends WireTradingMarket {
  status: string;
  market_id: number;
  slug: string;
  assets_ids: string[];
  outcomes: string[];
  event: { id: string; slug: string; title: string; ticker: string; description: string };
  raw_metadata: Record<string, unknown>;
}

/** Simplified market (2.11). */
export interface WireSimplifiedMarket {
  condition_id: string;
  status: string;
  question: string;
  slug: string;
  neg_risk: boolean;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean;
  market_id: number;
  tokens: WireMarketToken[];
  rewards: WireRewards;
  assets_ids: string[];
  outcomes: string[];
}

export interface WireBookLevel {
  price: string;
  size: string;
}

/**
 * Order book (2.12), an element of `POST /books` and the answer of `GET /book`. Older captures
 * lack `min_order_size`, `tick_size`, `neg_risk` and `last_trade_price`.
 */
export interface WireOrderBook {
  market: string;
  asset_id: string;
  /** Epoch milliseconds as a decimal string. */
  timestamp: string;
  hash: string;
  bids: WireBookLevel[];
  asks: WireBookLevel[];
  min_order_size?: string;
  tick_size?: string;
  neg_risk?: boolean;
  /** Empty string when the market has not traded. */
  last_trade_price?: string;
}

/** Price map (2.13): keyed by token id. Strings on the venue; the docs' example shows numbers. */
export type WirePriceMap = Record<string, { BUY?: string | number; SELL?: string | number }>;

/** Element of the `POST /books` and `POST /prices` request bodies. */
export interface WireTokenRequest {
  token_id: string;
}

export interface WirePrice {
  price: string;
}

export interface WireMidpoint {
  mid: string;
}

export interface WirePricePoint {
  /** Unix seconds. */
  t: number;
  p: number;
}

export interface WirePricesHistory {
  history: WirePricePoint[];
}

export interface WireBatchPricesHistoryRequest {
  markets: string[];
  start_ts?: number;
  end_ts?: number;
  interval?: string;
  fidelity?: number;
}

export interface WireBatchPricesHistory {
  history: Record<string, WirePricePoint[]>;
}

export interface WireTickSize {
  minimum_tick_size: number;
}

export interface WireNegRisk {
  neg_risk: boolean;
}

export interface WireFeeRate {
  base_fee: number;
}

export interface WireVersion {
  version: number;
}
