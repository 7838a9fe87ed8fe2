import type { RouteId } from './endpoints.ts';

/**
 * The limits table of interface part 8, as data. Each window is a sliding window; a request
 * must fit every window it belongs to (its route's and its group's). Trading writes have a burst
 * and a sustained window; a batch of N orders costs N against the `POST /order` budgets
 * (PROTOCOL "Rate limits").
 */
export interface RateWindow {
  /** Stable name, used in errors and the budget report. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

const TEN_SECONDS = 10_000;
const TEN_MINUTES = 600_000;

function w(name: string, limit: number, windowMs = TEN_SECONDS): RateWindow {
  return Object.freeze({ name, limit, windowMs });
}

/** Group windows (part 8: "all metadata routes", "all trading routes"). */
export const GROUP_WINDOWS = Object.freeze({
  metadata: w('metadata', 4_000),
  trading: w('trading', 5_000),
  /** Not stated by the interface; the analytics group uses the metadata group's figure. */
  analytics: w('analytics', 4_000),
  /** "combined event and market listings" */
  listings: w('listings', 900),
});

const ORDER_BURST = w('POST /order burst', 2_400);
const ORDER_SUSTAINED = w('POST /order sustained', 24_000, TEN_MINUTES);
const CANCEL_BURST = w('DELETE /order burst', 2_400);
const CANCEL_SUSTAINED = w('DELETE /order sustained', 24_000, TEN_MINUTES);

/** Windows per route, beyond its group window. A route not listed has only its group window. */
export const ROUTE_WINDOWS: Readonly<Partial<Record<RouteId, readonly RateWindow[]>>> = Object.freeze({
  getEvents: [w('GET /events', 500), GROUP_WINDOWS.listings],
  getMarkets: [w('GET /markets', 300), GROUP_WINDOWS.listings],
  getTags: [w('GET /tags', 200)],
  publicSearch: [w('GET /public-search', 350)],
  getOk: [w('GET /', 50)],
  getOrderBook: [w('GET /book', 200)],
  getOrderBooks: [w('POST /books', 80)],
  getPrice: [w('GET /price', 200)],
  getPrices: [w('POST /prices', 80)],
  getMidpoint: [w('GET /midpoint', 200)],
  getPricesHistory: [w('GET /prices-history', 100)],
  getBatchPricesHistory: [w('POST /batch-prices-history', 80)],
  getAccountTrades: [w('GET /data/trades', 150)],
  postOrder: [ORDER_BURST, ORDER_SUSTAINED],
  postOrders: [ORDER_BURST, ORDER_SUSTAINED],
  cancelOrder: [CANCEL_BURST, CANCEL_SUSTAINED],
  cancelOrders: [CANCEL_BURST, CANCEL_SUSTAINED],
});

/** `POST /orders` costs one per item; `DELETE /orders` one per id. */
export function requestCost(route: RouteId, items: number): number {
  return route === 'postOrders' || route === 'cancelOrders' ? Math.max(1, items) : 1;
}

/**
 * How a client or the sandbox adapts the table: tests shrink the windows (`windowScale: 0.02`
 * turns 10 s into 200 ms) or override one route's windows. Both sides read the same table
 * through `windowsFor`, so they agree on every budget.
 */
export interface RateLimitConfig {
  /** Multiplies every window length (limits unchanged). Default 1. */
  readonly windowScale?: number;
  /** Replaces the route-specific windows of a route (its group window still applies). */
  readonly routeOverrides?: Readonly<Partial<Record<RouteId, readonly RateWindow[]>>>;
  /** Off: no budget at all (the sandbox then never answers 429 unless a fault says so). */
  readonly enabled?: boolean;
  /**
   * Divides every limit (rounded down, at least 1): one bot's share of a key's limits when N bots
   * share them and cannot agree through Redis (venue.rateBudget). Default 1.
   */
  readonly limitDivisor?: number;
}

/** Every window a request on `route` must fit: the route's own, then its group's. */
export function windowsFor(route: RouteId, group: keyof typeof GROUP_WINDOWS, config: RateLimitConfig = {}): RateWindow[] {
  const scale = config.windowScale ?? 1;
  const own = config.routeOverrides?.[route] ?? ROUTE_WINDOWS[route] ?? [];
  const all = [...own, GROUP_WINDOWS[group]];
  const divisor = config.limitDivisor ?? 1;
  if (scale === 1 && divisor === 1) return all;
  return all.map((win) => ({ ...win, limit: Math.max(1, Math.floor(win.limit / divisor)), windowMs: Math.max(1, Math.round(win.windowMs * scale)) }));
}
