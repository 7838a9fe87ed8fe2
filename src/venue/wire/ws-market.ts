/**
 * Wire types of the WebSocket market channel (PROTOCOL "Market data"; shapes of the captured
 * messages in fixtures/venue/ws_market_*.json). Prices, sizes and timestamps are strings. The
 * server may send one message object per frame or a JSON array of them (the first book dump).
 */

/** Client -> server: the first subscription, and later updates with `operation`. */
export interface WireWsMarketSubscribe {
  assets_ids: string[];
  /** `market` (or `MARKET`) on the first message. */
  type?: string;
  /** On later messages: `subscribe` (the default) or `unsubscribe`. */
  operation?: 'subscribe' | 'unsubscribe';
  /** Also send `best_bid_ask` (and, on the real venue, `new_market` / `market_resolved`). */
  custom_feature_enabled?: boolean;
}

export interface WireWsLevel {
  price: string;
  size: string;
}

/** A book snapshot: on subscribe, and after a tick size change. Levels in any order. */
export interface WireWsBook {
  event_type: 'book';
  market: string;
  asset_id: string;
  /** Epoch ms as a digit string. */
  timestamp: string;
  hash: string;
  bids: WireWsLevel[];
  asks: WireWsLevel[];
  tick_size?: string;
  last_trade_price?: string;
}

/** One changed level; `size` is the level's new aggregate, `"0"` removes it. */
export interface WireWsPriceChange {
  asset_id: string;
  price: string;
  side: 'BUY' | 'SELL';
  size: string;
  /** The asset's book hash after the change. */
  hash: string;
  best_bid: string;
  best_ask: string;
}

export interface WireWsPriceChangeMessage {
  market: string;
  price_changes: WireWsPriceChange[];
  timestamp: string;
  event_type: 'price_change';
}

/** The older single-level form (2024 captures): one change, fields at the top. */
export interface WireWsPriceChangeLegacy {
  asset_id: string;
  event_type: 'price_change';
  hash: string;
  market: string;
  price: string;
  side: 'BUY' | 'SELL';
  size: string;
  timestamp: string;
}

export interface WireWsLastTradePrice {
  asset_id: string;
  event_type: 'last_trade_price';
  fee_rate_bps: string;
  market: string;
  price: string;
  /** The taker's side. */
  side: 'BUY' | 'SELL';
  size: string;
  timestamp: string;
}

export interface WireWsTickSizeChange {
  asset_id: string;
  event_type: 'tick_size_change';
  market: string;
  new_tick_size: string;
  old_tick_size: string;
  timestamp: string;
}

/** With `custom_feature_enabled`: the top of one asset's book changed. */
export interface WireWsBestBidAsk {
  event_type: 'best_bid_ask';
  market: string;
  asset_id: string;
  best_bid: string;
  best_ask: string;
  spread: string;
  timestamp: string;
}

export type WireWsMarketMessage =
  | WireWsBook
  | WireWsPriceChangeMessage
  | WireWsPriceChangeLegacy
  | WireWsLastTradePrice
  | WireWsTickSizeChange
  | WireWsBestBidAsk;
