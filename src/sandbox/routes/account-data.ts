import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteId } from '../../venue/endpoints.ts';
import { sameAddress } from '../../venue/signing/address.ts';
import type { WirePage } from '../../venue/wire/trading.ts';
import type { SandboxContext } from '../context.ts';
import { decodeCursor, encodeCursor, END_CURSOR } from '../cursor.ts';
import { notFound, SandboxHttpError } from '../http-error.ts';
import { toAccountOrder, toAccountTrade } from '../trading/account-wire.ts';
import { authenticateL2 } from '../trading/auth.ts';
import { checkedQuery, intOf, stringOf } from './query.ts';

/**
 * Account data (4.8, PROTOCOL's small routes), L2-authenticated and scoped to the caller's API
 * key: `GET /data/orders` (open orders; filters `id`, `market`, `asset_id`), `GET
 * /data/order/{id}` (any order of the caller, 404 otherwise), `GET /data/trades` (trades where
 * the caller's key was taker or maker; filters `id`, `taker`, `maker`, `market`, `before`,
 * `after` in unix seconds, strict). Pages of PAGE_SIZE from base64 offsets, oldest first; the
 * last page of `/data/orders` ends with an empty cursor in profile `interface` and `LTE=` in
 * `polymarket`, `/data/trades` ends with `LTE=` in both.
 *
 * `GET /data/trades` is registered here only under the `/clob` mount; at the root the `/data`
 * mount's analytics route hands requests carrying an API-key header to `accountTradesHandler`.
 */
export function registerAccountDataRoutes(app: FastifyInstance, ctx: SandboxContext, options: { accountTrades: boolean }): void {
  app.get('/data/orders', { config: { routeId: 'getAccountOrders' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const query = checkedQuery('getAccountOrders', request);
    const market = stringOf(query, 'market')?.toLowerCase();
    const assetId = stringOf(query, 'asset_id');
    const id = stringOf(query, 'id');
    let orders = ctx.engine.openOrders({ owner: caller.apiKey, conditionId: market, tokenId: assetId });
    if (id !== undefined) orders = orders.filter((o) => o.id === id.toLowerCase() || o.id === id);
    const end = ctx.profile === 'polymarket' ? END_CURSOR : '';
    return cursorPage(ctx, 'getAccountOrders', orders, stringOf(query, 'next_cursor'), end, (o) => toAccountOrder(ctx.world, ctx.profile, o));
  });

  app.get('/data/order/:id', { config: { routeId: 'getAccountOrder' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const id = (request.params as { id: string }).id;
    const order = ctx.engine.order(id) ?? ctx.engine.order(id.toLowerCase());
    if (order === undefined || order.owner !== caller.apiKey) throw notFound(`order '${id.slice(0, 80)}' not found`);
    return toAccountOrder(ctx.world, ctx.profile, order);
  });

  if (options.accountTrades) {
    app.get('/data/trades', { config: { routeId: 'getAccountTrades' } }, accountTradesHandler(ctx));
  }
}

/** `GET /data/trades` for an authenticated caller (also `ctx.accountTrades`). */
export function accountTradesHandler(ctx: SandboxContext): (request: FastifyRequest) => unknown {
  return (request) => {
    const caller = authenticateL2(ctx, request);
    const query = checkedQuery('getAccountTrades', request);
    const id = stringOf(query, 'id');
    const taker = stringOf(query, 'taker');
    const maker = stringOf(query, 'maker');
    const market = stringOf(query, 'market')?.toLowerCase();
    const before = query['before'] ? intOf(query, 'before', 0) : undefined;
    const after = query['after'] ? intOf(query, 'after', 0) : undefined;
    const trades = ctx.engine.trades({ owner: caller.apiKey, conditionId: market }).filter((t) => {
      const seconds = Math.floor(t.matchTime / 1000);
      return (
        (id === undefined || t.id === id) &&
        (taker === undefined || sameAddress(t.address, taker)) &&
        (maker === undefined || t.makerOrders.some((m) => sameAddress(m.address, maker))) &&
        (before === undefined || seconds < before) &&
        (after === undefined || seconds > after)
      );
    });
    return cursorPage(ctx, 'getAccountTrades', trades, stringOf(query, 'next_cursor'), END_CURSOR, (t) =>
      toAccountTrade(ctx.world, ctx.profile, t, caller.apiKey, ctx.engine.tradeStatus(t)),
    );
  };
}

/**
 * One page of `accountPageSize` from a base64 offset; `end` is the cursor of the last page. The
 * page fault (faults.ts) fails the page it names.
 */
function cursorPage<T, W>(ctx: SandboxContext, route: RouteId, items: readonly T[], cursor: string | undefined, end: string, map: (item: T) => W): WirePage<W> {
  const size = ctx.trading.accountPageSize;
  const offset = decodeCursor(route, cursor);
  if (offset === 'end') return { data: [], next_cursor: end, limit: size, count: 0 };
  if (ctx.faults.failsPage(route, Math.floor(offset / size) + 1)) throw new SandboxHttpError(500, `${route}: page ${Math.floor(offset / size) + 1} failed (fault pageFault)`);
  const data = items.slice(offset, offset + size).map(map);
  const next = offset + size;
  return { data, next_cursor: next >= items.length ? end : encodeCursor(next), limit: size, count: data.length };
}
