import type { FastifyInstance } from 'fastify';
import { formatMicros } from '../../core/fixed.ts';
import { bestAsk, bestBid, bookMid } from '../../core/book.ts';
import { PRICE_HISTORY_INTERVALS } from '../../venue/domain/trading.ts';
import { ParameterError } from '../../core/errors.ts';
import type { RouteId } from '../../venue/endpoints.ts';
import { MAX_TOKENS_PER_BOOKS_REQUEST } from '../../venue/params.ts';
import type {
  WireBatchPricesHistory,
  WireFeeRate,
  WireMidpoint,
  WireNegRisk,
  WirePrice,
  WirePriceMap,
  WirePricesHistory,
  WireTickSize,
  WireTradingMarketDetail,
  WireVersion,
} from '../../venue/wire/trading.ts';
import type { SandboxContext } from '../context.ts';
import { page } from '../cursor.ts';
import { badRequest, notFound } from '../http-error.ts';
import { orderBookJson, toSimplifiedMarket, toTradingMarket, toTradingMarketDetail } from '../wire/trading.ts';
import type { BookView } from '../world/book-source.ts';
import type { SandboxMarket, SandboxToken } from '../world/model.ts';
import { priceHistory, type HistoryRequest } from './price-history.ts';
import { checkedQuery, intOf, stringOf } from './query.ts';

/**
 * The trading read routes (4.6, 4.7, PROTOCOL's small routes). Prices and sizes go out as
 * decimal strings on the book and price routes. `GET /price` and `POST /prices` follow the
 * venue: `BUY` is the best bid (what a seller gets), `SELL` the best ask (what a buyer pays).
 * `/markets/{condition_id}` is registered here only under the `/clob` mount.
 */

/** The CLOB generation the sandbox speaks (`GET /version`). */
export const CLOB_VERSION = 2;

export function registerTradingRoutes(app: FastifyInstance, ctx: SandboxContext, options: { marketsByConditionId: boolean }): void {
  const { world } = ctx;
  const sampling = (): readonly SandboxMarket[] => world.markets.filter((m) => m.rewards !== undefined && m.acceptingOrders);

  app.get('/markets', { config: { routeId: 'getMarkets' } }, (request) => {
    const query = checkedQuery('getMarkets', request);
    return page('getMarkets', world.markets, stringOf(query, 'next_cursor'), (m) => toTradingMarket(m, world.books));
  });

  if (options.marketsByConditionId) {
    app.get('/markets/:condition_id', { config: { routeId: 'getTradingMarket' } }, (request) => {
      checkedQuery('getTradingMarket', request);
      return tradingMarket(ctx, (request.params as { condition_id: string }).condition_id);
    });
  }

  app.get('/sampling-markets', { config: { routeId: 'getSamplingMarkets' } }, (request) => {
    const query = checkedQuery('getSamplingMarkets', request);
    return page('getSamplingMarkets', sampling(), stringOf(query, 'next_cursor'), (m) => toTradingMarketDetail(m, world.books));
  });

  app.get('/simplified-markets', { config: { routeId: 'getSimplifiedMarkets' } }, (request) => {
    const query = checkedQuery('getSimplifiedMarkets', request);
    return page('getSimplifiedMarkets', world.markets, stringOf(query, 'next_cursor'), (m) => toSimplifiedMarket(m, world.books));
  });

  app.get('/sampling-simplified-markets', { config: { routeId: 'getSamplingSimplifiedMarkets' } }, (request) => {
    const query = checkedQuery('getSamplingSimplifiedMarkets', request);
    return page('getSamplingSimplifiedMarkets', sampling(), stringOf(query, 'next_cursor'), (m) => toSimplifiedMarket(m, world.books));
  });

  app.post('/books', { config: { routeId: 'getOrderBooks' } }, async (request, reply) => {
    const items = tokenRequests('getOrderBooks', request.body);
    let text = '[';
    for (let i = 0; i < items.length; i++) {
      if (i > 0) text += ',';
      text += orderBookJson(bookOf(ctx, (items[i] as TokenRequest).token_id));
    }
    return reply.type('application/json; charset=utf-8').send(text + ']');
  });

  app.post('/prices', { config: { routeId: 'getPrices' } }, (request) => {
    const items = tokenRequests('getPrices', request.body);
    const out: WirePriceMap = {};
    for (const item of items) {
      const view = bookOf(ctx, item.token_id);
      const entry = (out[item.token_id] ??= {});
      const bid = bestBid(view);
      const ask = bestAsk(view);
      if (bid !== undefined && item.side !== 'SELL') entry.BUY = formatMicros(bid);
      if (ask !== undefined && item.side !== 'BUY') entry.SELL = formatMicros(ask);
    }
    return out;
  });

  app.get('/', { config: { routeId: 'getOk' } }, async (_request, reply) => reply.type('application/json; charset=utf-8').send('"OK"'));

  app.get('/book', { config: { routeId: 'getOrderBook' } }, async (request, reply) => {
    const query = checkedQuery('getOrderBook', request);
    return reply.type('application/json; charset=utf-8').send(orderBookJson(bookOf(ctx, query['token_id'] as string)));
  });

  app.get('/price', { config: { routeId: 'getPrice' } }, (request) => {
    const query = checkedQuery('getPrice', request);
    const tokenId = query['token_id'] as string;
    const view = bookOf(ctx, tokenId);
    const level = query['side'] === 'BUY' ? view.bids[0] : view.asks[0];
    if (!level) throw notFound(`no ${query['side'] === 'BUY' ? 'bids' : 'asks'} in the book of token '${tokenId}'`);
    return { price: formatMicros(level.price) } satisfies WirePrice;
  });

  app.get('/midpoint', { config: { routeId: 'getMidpoint' } }, (request) => {
    const query = checkedQuery('getMidpoint', request);
    const tokenId = query['token_id'] as string;
    const view = bookOf(ctx, tokenId);
    const mid = bookMid(view);
    if (mid === undefined) throw notFound(`no midpoint: the book of token '${tokenId}' has an empty side`);
    return { mid: formatMicros(mid) } satisfies WireMidpoint;
  });

  app.get('/prices-history', { config: { routeId: 'getPricesHistory' } }, (request) => {
    const query = checkedQuery('getPricesHistory', request);
    const token = tokenOf(ctx, query['market'] as string);
    const history = priceHistory('getPricesHistory', world.seed, token, ctx.clock.now(), {
      startTs: query['startTs'] ? intOf(query, 'startTs', 0) : undefined,
      endTs: query['endTs'] ? intOf(query, 'endTs', 0) : undefined,
      interval: stringOf(query, 'interval'),
      fidelity: query['fidelity'] ? intOf(query, 'fidelity', 1) : undefined,
    });
    return { history } satisfies WirePricesHistory;
  });

  app.post('/batch-prices-history', { config: { routeId: 'getBatchPricesHistory' } }, (request) => {
    const body = batchHistoryBody(request.body);
    const tokens = body.markets.map((id) => tokenOf(ctx, id));
    const history: WireBatchPricesHistory['history'] = {};
    for (const token of tokens) history[token.tokenId] = priceHistory('getBatchPricesHistory', world.seed, token, ctx.clock.now(), body);
    return { history } satisfies WireBatchPricesHistory;
  });

  app.get('/time', { config: { routeId: 'getServerTime' } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(String(Math.floor((ctx.clock.now() + ctx.faults.settings.clockSkewMs) / 1000))),
  );

  app.get('/tick-size', { config: { routeId: 'getTickSize' } }, (request) => {
    const token = tokenOf(ctx, checkedQuery('getTickSize', request)['token_id'] as string);
    return { minimum_tick_size: token.market.tickSize / 1_000_000 } satisfies WireTickSize;
  });

  app.get('/neg-risk', { config: { routeId: 'getNegRisk' } }, (request) => {
    const token = tokenOf(ctx, checkedQuery('getNegRisk', request)['token_id'] as string);
    return { neg_risk: token.market.negRisk } satisfies WireNegRisk;
  });

  app.get('/fee-rate', { config: { routeId: 'getFeeRate' } }, (request) => {
    const token = tokenOf(ctx, checkedQuery('getFeeRate', request)['token_id'] as string);
    return { base_fee: token.market.takerBaseFee } satisfies WireFeeRate;
  });

  app.get('/version', { config: { routeId: 'getVersion' } }, () => ({ version: CLOB_VERSION }) satisfies WireVersion);
}

/** `GET /markets/{condition_id}`, trading form with the extra fields. */
export function tradingMarket(ctx: SandboxContext, conditionId: string): WireTradingMarketDetail {
  const market = /^0x[0-9a-fA-F]{64}$/.test(conditionId) ? ctx.world.marketByConditionId(conditionId) : undefined;
  if (!market) throw notFound(`market '${conditionId}' not found`);
  return toTradingMarketDetail(market, ctx.world.books);
}

function tokenOf(ctx: SandboxContext, tokenId: string): SandboxToken {
  const token = ctx.world.token(tokenId);
  if (!token) throw notFound(`token '${tokenId.slice(0, 80)}' not found`);
  return token;
}

function bookOf(ctx: SandboxContext, tokenId: string): BookView {
  const view = ctx.world.books.book(tokenId);
  if (!view) throw notFound(`no order book for token '${tokenId.slice(0, 80)}'`);
  return view;
}

interface TokenRequest {
  readonly token_id: string;
  readonly side?: 'BUY' | 'SELL';
}

/** The body of `POST /books` and `POST /prices`: a JSON array of 1 to 500 `{token_id}` (an optional `side` on prices). */
function tokenRequests(route: RouteId, body: unknown): TokenRequest[] {
  if (!Array.isArray(body)) throw badRequest(`${route}: body must be a JSON array of {"token_id": string}`);
  if (body.length === 0 || body.length > MAX_TOKENS_PER_BOOKS_REQUEST) {
    throw badRequest(`${route}: body must hold 1 to ${MAX_TOKENS_PER_BOOKS_REQUEST} items, held ${body.length}`);
  }
  return body.map((item: unknown, i) => {
    const tokenId = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['token_id'] : undefined;
    if (typeof tokenId !== 'string' || tokenId === '') throw badRequest(`${route}: body[${i}].token_id must be a non-empty string`);
    const side = (item as Record<string, unknown>)['side'];
    if (side !== undefined && side !== 'BUY' && side !== 'SELL') throw badRequest(`${route}: body[${i}].side must be BUY or SELL`);
    return side === undefined ? { token_id: tokenId } : { token_id: tokenId, side };
  });
}

/** The body of `POST /batch-prices-history`, checked field by field. */
function batchHistoryBody(body: unknown): HistoryRequest & { markets: string[] } {
  const route: RouteId = 'getBatchPricesHistory';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`${route}: body must be a JSON object`);
  const b = body as Record<string, unknown>;
  const markets = b['markets'];
  if (!Array.isArray(markets) || markets.length === 0 || markets.length > MAX_TOKENS_PER_BOOKS_REQUEST) {
    throw new ParameterError(route, 'markets', `must be an array of 1 to ${MAX_TOKENS_PER_BOOKS_REQUEST} token ids`);
  }
  markets.forEach((m, i) => {
    if (typeof m !== 'string' || m === '') throw new ParameterError(route, `markets[${i}]`, 'must be a non-empty string');
  });
  const int = (name: string, min: number): number | undefined => {
    const v = b[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new ParameterError(route, name, `must be a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}`);
    return v;
  };
  const interval = b['interval'];
  if (interval !== undefined && interval !== null && !(PRICE_HISTORY_INTERVALS as readonly unknown[]).includes(interval)) {
    throw new ParameterError(route, 'interval', `must be one of ${PRICE_HISTORY_INTERVALS.join(', ')}`);
  }
  return {
    markets: markets as string[],
    startTs: int('start_ts', 0),
    endTs: int('end_ts', 0),
    interval: typeof interval === 'string' ? interval : undefined,
    fidelity: int('fidelity', 1),
  };
}
