import type { FastifyInstance, FastifyRequest } from 'fastify';
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
 * The wallet-analytics routes (4.3), over the generated world merged with the sandbox's own
 * trades and positions (trading/sandbox-activity.ts). Under the `/data` mount, `GET /data/trades` is also the
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

  const trades = (request: FastifyRequest): unknown => {
    if (request.sandboxRoute === 'getAccountTrades' && ctx.accountTrades) return ctx.accountTrades(request);
    const query = checkedQuery('getTrades', request);
    const user = stringOf(query, 'user');
    const markets = listOf(query, 'market')?.map((m) => m.toLowerCase());
    const marketSet = markets ? new Set(markets) : undefined;
    const takerOnly = boolOf(query, 'takerOnly', true);
    const side = stringOf(query, 'side');
    const filterType = stringOf(query, 'filterType');
    const threshold = Math.round(numberOf(query, 'filterAmount', 0) * MICROS_PER_UNIT);
    const source = fillsFor(ctx, user);
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

  app.get('/closed-positions', { config: { routeId: 'getClosedPositions' } }, (request) => {
    const query = checkedQuery('getClosedPositions', request);
    const user = query['user'] as string;
    const wallet = world.wallet(user);
    const markets = listOf(query, 'market')?.map((m) => m.toLowerCase());
    const title = stringOf(query, 'title')?.toLowerCase();
    let positions = [...(wallet ? world.closedPositionsOf(wallet) : []), ...ctx.activity.closedPositionsOf(user)]
      .filter((p) => (!markets || markets.includes(p.token.market.conditionId)) && (title === undefined || p.token.market.question.toLowerCase().includes(title)));
    const key = CLOSED_SORT[stringOf(query, 'sortBy') ?? 'REALIZEDPNL'] as (p: SandboxClosedPosition) => number | string;
    positions = sortBy(positions, key, stringOf(query, 'sortDirection') === 'ASC');
    return slice(positions, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_CLOSED_LIMIT)).map((p) => toClosedPosition(p, ctx.profile)) satisfies WireClosedPosition[];
  });

  app.get('/activity', { config: { routeId: 'getActivity' } }, (request) => {
    const query = checkedQuery('getActivity', request);
    const offset = intOf(query, 'offset', 0);
    const limit = intOf(query, 'limit', DEFAULT_ACTIVITY_LIMIT);
    const out: WireActivity[] = [];
    let index = 0;
    for (const f of fillsFor(ctx, query['user'])) {
      if (out.length >= limit) break;
      if (index++ >= offset) out.push(toActivity(f, ctx.profile));
    }
    return out;
  });

  app.get('/holders', { config: { routeId: 'getHolders' } }, (request) => {
    const query = checkedQuery('getHolders', request);
    const limit = intOf(query, 'limit', DEFAULT_HOLDERS_LIMIT);
    const minBalance = Math.round(numberOf(query, 'minBalance', DEFAULT_MIN_BALANCE) * MICROS_PER_UNIT);
    const groups: WireHolderGroup[] = [];
    for (const conditionId of listOf(query, 'market') ?? []) {
      const market = world.marketByConditionId(conditionId);
      if (!market) throw notFound(`market '${conditionId.slice(0, 80)}' not found`);
      for (const token of market.tokens) {
        const holders = [...world.holdersOf(token.tokenId), ...ctx.activity.holdersOf(token)]
          .sort((a, b) => b.size - a.size)
          .filter((h) => h.size >= minBalance)
          .slice(0, limit)
          .map((h) => toHolder(h, ctx.profile));
        groups.push({ token: analyticsAsset(ctx.profile, token), holders });
      }
    }
    return groups;
  });
}

/**
 * Fills newest first: the world's generated ones merged by time with the sandbox's own trades
 * (every fill when `user` is undefined, else that address's).
 */
function* fillsFor(ctx: SandboxContext, user: string | undefined): Generator<SandboxFill> {
  const world = ctx.world;
  let generated: readonly SandboxFill[];
  let own: readonly SandboxFill[];
  if (user === undefined) {
    generated = world.fills;
    own = ctx.activity.fills();
  } else {
    const wallet = world.wallet(user);
    generated = wallet ? world.fillsOf(wallet) : [];
    own = ctx.activity.fillsOf(user);
  }
  // `generated` is newest first, `own` oldest first.
  let i = 0;
  let j = own.length - 1;
  while (i < generated.length || j >= 0) {
    const a = generated[i];
    const b = own[j];
    if (b === undefined || (a !== undefined && a.timestamp >= b.timestamp)) {
      yield a as SandboxFill;
      i++;
    } else {
      yield b;
      j--;
    }
  }
}
