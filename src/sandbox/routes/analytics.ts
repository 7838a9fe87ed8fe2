import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { RouteId } from '../../venue/endpoints.ts';
import type { WireActivity, WireClosedPosition, WireHolderGroup, WireTradeFill } from '../../venue/wire/analytics.ts';
import type { SandboxContext } from '../context.ts';
import { notFound } from '../http-error.ts';
import { analyticsAsset, authHeaderNames } from '../profile.ts';
import { notional, toActivity, toClosedPosition, toHolder, toTradeFill } from '../wire/analytics.ts';
import type { SandboxClosedPosition, SandboxFill } from '../world/model.ts';
import { boolOf, checkedQuery, intOf, listOf, numberOf, slice, sortBy, stringOf } from './query.ts';

/**
 * The wallet-analytics routes (4.3). Under the `/data` mount, `GET /data/trades` is also the
 * authenticated account-trades route of 4.8: `resolveDataTrades` sends a request carrying the
 * profile's API-key header there once the trading step has set `ctx.accountTrades`.
 */

const DEFAULT_TRADES_LIMIT = 100;
const DEFAULT_CLOSED_LIMIT = 10;
const DEFAULT_ACTIVITY_LIMIT = 100;
const DEFAULT_HOLDERS_LIMIT = 100;
const DEFAULT_MIN_BALANCE = 1;

const CLOSED_SORT: Readonly<Record<string, (p: SandboxClosedPosition) => number | string>> = {
  REALIZEDPNL: (p) => p.realizedPnl,
  TITLE: (p) => p.token.market.question,
  PRICE: (p) => p.curPrice,
  AVGPRICE: (p) => p.avgPrice,
  TIMESTAMP: (p) => p.timestamp,
};

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: SandboxContext, options: { dataMount: boolean }): void {
  const { world } = ctx;

  const trades = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    if (request.sandboxRoute === 'getAccountTrades' && ctx.accountTrades) return ctx.accountTrades(request, reply);
    const query = checkedQuery('getTrades', request);
    const user = stringOf(query, 'user');
    const wallet = user === undefined ? undefined : world.wallet(user);
    if (user !== undefined && !wallet) return [];
    const markets = listOf(query, 'market')?.map((m) => m.toLowerCase());
    const marketSet = markets ? new Set(markets) : undefined;
    const takerOnly = boolOf(query, 'takerOnly', true);
    const side = stringOf(query, 'side');
    const filterType = stringOf(query, 'filterType');
    const threshold = Math.round(numberOf(query, 'filterAmount', 0) * MICROS_PER_UNIT);
    const source: readonly SandboxFill[] = wallet ? world.fillsOf(wallet) : world.fills;
    const offset = intOf(query, 'offset', 0);
    const limit = intOf(query, 'limit', DEFAULT_TRADES_LIMIT);
    const out: WireTradeFill[] = [];
    let skipped = 0;
    for (const f of source) {
      if (out.length >= limit) break;
      if (takerOnly && !f.taker) continue;
      if (side !== undefined && f.side !== side) continue;
      if (marketSet && !marketSet.has(f.token.market.conditionId)) continue;
      if (filterType === 'CASH' && notional(f.size, f.price) < threshold) continue;
      if (filterType === 'TOKENS' && f.size < threshold) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(toTradeFill(f, ctx.profile));
    }
    return out;
  };
  const resolveDataTrades = (request: FastifyRequest): RouteId =>
    ctx.accountTrades && request.headers[authHeaderNames(ctx.profile).apiKey] !== undefined ? 'getAccountTrades' : 'getTrades';
  app.get('/trades', { config: options.dataMount ? { resolveRoute: resolveDataTrades } : { routeId: 'getTrades' } }, trades);

  app.get('/closed-positions', { config: { routeId: 'getClosedPositions' } }, async (request) => {
    const query = checkedQuery('getClosedPositions', request);
    const wallet = world.wallet(query['user'] as string);
    if (!wallet) return [];
    const markets = listOf(query, 'market')?.map((m) => m.toLowerCase());
    const title = stringOf(query, 'title')?.toLowerCase();
    let positions = world
      .closedPositionsOf(wallet)
      .filter((p) => (!markets || markets.includes(p.token.market.conditionId)) && (title === undefined || p.token.market.question.toLowerCase().includes(title)));
    const key = CLOSED_SORT[stringOf(query, 'sortBy') ?? 'REALIZEDPNL'] as (p: SandboxClosedPosition) => number | string;
    positions = sortBy(positions, key, stringOf(query, 'sortDirection') === 'ASC');
    return slice(positions, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_CLOSED_LIMIT)).map((p) => toClosedPosition(p, ctx.profile)) satisfies WireClosedPosition[];
  });

  app.get('/activity', { config: { routeId: 'getActivity' } }, async (request) => {
    const query = checkedQuery('getActivity', request);
    const wallet = world.wallet(query['user'] as string);
    if (!wallet) return [];
    return slice(world.fillsOf(wallet), intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_ACTIVITY_LIMIT)).map((f) => toActivity(f, ctx.profile)) satisfies WireActivity[];
  });

  app.get('/holders', { config: { routeId: 'getHolders' } }, async (request) => {
    const query = checkedQuery('getHolders', request);
    const limit = intOf(query, 'limit', DEFAULT_HOLDERS_LIMIT);
    const minBalance = Math.round(numberOf(query, 'minBalance', DEFAULT_MIN_BALANCE) * MICROS_PER_UNIT);
    const groups: WireHolderGroup[] = [];
    for (const conditionId of listOf(query, 'market') ?? []) {
      const market = world.marketByConditionId(conditionId);
      if (!market) throw notFound(`market '${conditionId.slice(0, 80)}' not found`);
      for (const token of market.tokens) {
        const holders = world
          .holdersOf(token.tokenId)
          .filter((h) => h.size >= minBalance)
          .slice(0, limit)
          .map((h) => toHolder(h, ctx.profile));
        groups.push({ token: analyticsAsset(ctx.profile, token), holders });
      }
    }
    return groups;
  });
}
