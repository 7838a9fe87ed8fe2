/**
 * Every reason an order may be denied before it is sent: the risk checks' codes and the engine's
 * own gates (AMOUNT_OUT_OF_RANGE, TRADING_HALTED, RECONCILING, VENUE_RESTRICTED, MARKET_CLEARED). Closed: adding a code is an API change. It lives in
 * core because the OrderDenied event carries it to strategies, store and risk alike.
 */
export const DENY_CODES = [
  'UNKNOWN_MARKET',
  'PRICE_OFF_TICK',
  'SIZE_BELOW_MINIMUM',
  'PRICE_OUT_OF_BOUNDS',
  'NOTIONAL_EXCEEDS_MAX',
  'POSITION_LIMIT',
  'MARKET_POSITION_LIMIT',
  'GROSS_EXPOSURE_LIMIT',
  'NEG_RISK_EXPOSURE_LIMIT',
  'STRATEGY_BUDGET',
  'MAX_OPEN_ORDERS',
  'ORDER_RATE_LIMIT',
  'STALE_BOOK',
  'SELF_CROSS',
  'MARKET_CLOSED',
  'TRADING_HALTED',
  'RECONCILING',
  'AMOUNT_OUT_OF_RANGE',
  'BASKET_EVENT_CAP',
  'VENUE_RESTRICTED',
  'MARKET_CLEARED',
] as const;
export type DenyCode = (typeof DENY_CODES)[number];
