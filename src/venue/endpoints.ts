/**
 * The endpoint table: every route of the interface, its method, path template, route group
 * (which base URL serves it) and whether it needs L2 authentication. Client actions, the rate
 * budgets and the sandbox all key on `RouteId`.
 */

/**
 * Venue limit (interface 4.2): a `POST /orders` body holds 1 to 15 signed orders. The one copy of
 * the number: the client's post action, the engine's batcher, the config schema and the sandbox
 * all import it.
 */
export const MAX_ORDERS_PER_BATCH = 15;

/** Route groups take their own base URL (PROTOCOL "Profiles"). */
export type RouteGroup = 'metadata' | 'trading' | 'analytics';

export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path template; `{name}` marks a path parameter. */
  readonly path: string;
  readonly group: RouteGroup;
  /** Needs the five L2 headers. */
  readonly auth: 'none' | 'l1' | 'l2';
  /** Safe to retry automatically (reads). Writes are never retried. */
  readonly idempotent: boolean;
}

function route(method: Endpoint['method'], path: string, group: RouteGroup, auth: Endpoint['auth'] = 'none'): Endpoint {
  return Object.freeze({ method, path, group, auth, idempotent: method === 'GET' || path === '/books' || path === '/prices' || path === '/batch-prices-history' });
}

export const ENDPOINTS = Object.freeze({
  // metadata (4.5, 4.9)
  getMarketBySlug: route('GET', '/markets/slug/{slug}', 'metadata'),
  getMetadataMarket: route('GET', '/markets/{id}', 'metadata'),
  getEventBySlug: route('GET', '/events/slug/{slug}', 'metadata'),
  getEventCreators: route('GET', '/events/creators', 'metadata'),
  getEvents: route('GET', '/events', 'metadata'),
  getTags: route('GET', '/tags', 'metadata'),
  publicSearch: route('GET', '/public-search', 'metadata'),
  // trading data (4.6, 4.7, PROTOCOL's small routes)
  getMarkets: route('GET', '/markets', 'trading'),
  getTradingMarket: route('GET', '/markets/{condition_id}', 'trading'),
  getSamplingMarkets: route('GET', '/sampling-markets', 'trading'),
  getSimplifiedMarkets: route('GET', '/simplified-markets', 'trading'),
  getSamplingSimplifiedMarkets: route('GET', '/sampling-simplified-markets', 'trading'),
  getOrderBooks: route('POST', '/books', 'trading'),
  getPrices: route('POST', '/prices', 'trading'),
  getOk: route('GET', '/', 'trading'),
  getOrderBook: route('GET', '/book', 'trading'),
  getPrice: route('GET', '/price', 'trading'),
  getMidpoint: route('GET', '/midpoint', 'trading'),
  getPricesHistory: route('GET', '/prices-history', 'trading'),
  getBatchPricesHistory: route('POST', '/batch-prices-history', 'trading'),
  getServerTime: route('GET', '/time', 'trading'),
  getTickSize: route('GET', '/tick-size', 'trading'),
  getNegRisk: route('GET', '/neg-risk', 'trading'),
  getFeeRate: route('GET', '/fee-rate', 'trading'),
  getVersion: route('GET', '/version', 'trading'),
  // auth (5.3)
  createApiKey: route('POST', '/auth/api-key', 'trading', 'l1'),
  deriveApiKey: route('GET', '/auth/derive-api-key', 'trading', 'l1'),
  // orders (4.2, 4.9)
  postOrders: route('POST', '/orders', 'trading', 'l2'),
  postOrder: route('POST', '/order', 'trading', 'l2'),
  cancelOrder: route('DELETE', '/order', 'trading', 'l2'),
  cancelOrders: route('DELETE', '/orders', 'trading', 'l2'),
  cancelAll: route('DELETE', '/cancel-all', 'trading', 'l2'),
  cancelMarketOrders: route('DELETE', '/cancel-market-orders', 'trading', 'l2'),
  // account data (4.8)
  getAccountOrders: route('GET', '/data/orders', 'trading', 'l2'),
  getAccountTrades: route('GET', '/data/trades', 'trading', 'l2'),
  getAccountOrder: route('GET', '/data/order/{id}', 'trading', 'l2'),
  // account state (issue 13; docs/protocol-additions.md)
  getBalanceAllowance: route('GET', '/balance-allowance', 'trading', 'l2'),
  // liquidity rewards (issue 22; docs/rewards.md): whether an order scores now
  getOrderScoring: route('GET', '/order-scoring', 'trading', 'l2'),
  // liquidity rewards: our real-time share of each market's rewards, percent by condition id
  getRewardPercentages: route('GET', '/rewards/user/percentages', 'trading', 'l2'),
  // heartbeats (4.1)
  postHeartbeatV1: route('POST', '/v1/heartbeats', 'trading', 'l2'),
  postHeartbeat: route('POST', '/heartbeats', 'trading', 'l2'),
  // wallet analytics (4.3)
  getTrades: route('GET', '/trades', 'analytics'),
  getClosedPositions: route('GET', '/closed-positions', 'analytics'),
  getActivity: route('GET', '/activity', 'analytics'),
  getHolders: route('GET', '/holders', 'analytics'),
  getPositions: route('GET', '/positions', 'analytics'),
  // comments (4.4)
  getComments: route('GET', '/comments', 'analytics'),
  getCommentsByUser: route('GET', '/comments/user_address/{user_address}', 'analytics'),
  getCommentReplies: route('GET', '/comments/{id}', 'analytics'),
});

export type RouteId = keyof typeof ENDPOINTS;

/** Fills a path template: `/markets/{id}` with `{id: '12'}` gives `/markets/12` (values URI-encoded). */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path parameter '${name}' missing for ${template}`);
    return encodeURIComponent(value);
  });
}
