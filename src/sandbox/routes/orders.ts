import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CancelResult } from '../../sim/types.ts';
import { MAX_ORDERS_PER_BATCH } from '../../venue/endpoints.ts';
import { requestCost } from '../../venue/rate-limits.ts';
import type { WireCancelResult, WireOrderResult } from '../../venue/wire/account.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { enforceLimits } from '../pipeline.ts';
import { authenticateL2 } from '../trading/auth.ts';
import {
  CANCEL_ONLY_MODE_MESSAGE,
  MAX_CANCELS_PER_REQUEST,
  POST_ONLY_MODE_MESSAGE,
  RESTARTING_MESSAGE,
  tooManyOrdersMessage,
  VENUE_CANCEL_ONLY_MESSAGE,
} from '../trading/messages.ts';
import { checkExpiration, processOrderItem } from '../trading/order-intake.ts';
import { checkOrderShape } from '../trading/order-shape.ts';

/**
 * The order routes (4.2, PROTOCOL "Orders"): `POST /orders` (1 to 15 items, one result per item
 * in order, each charged against the order budgets), `POST /order` (one item; its result, 200
 * whether the item was taken or refused), and the cancel family `DELETE /order`, `/orders` (1 to
 * 1000 ids, one budget unit each), `/cancel-all`, `/cancel-market-orders`. All need L2 auth.
 *
 * Faults: in mode `cancel-only` every order post is a 503 with Retry-After; in mode `post-only`
 * an order post with an item that is not `postOnly: true` is (the whole request); cancels pass
 * in both. While a staged restart restarts, every one of these routes is a 425 with Retry-After
 * (what is left of the phase), nothing taken; its post-only phase is mode `post-only`. `dropAfterAccept` places the orders and then destroys the connection unanswered;
 * `stallMs` holds the answer after the orders were placed (pipeline). An expiration that is not
 * unix seconds, or not "0" on an order that is not GTD, is a 400 for the whole request
 * (`checkExpiration`), before anything is placed; so is an item that is not the wire's JSON shape
 * (`checkOrderShape`: an unknown field, an amount sent as a JSON number).
 */
export function registerOrderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/orders', { config: { routeId: 'postOrders' } }, async (request, reply) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    const body = request.body;
    if (!Array.isArray(body)) throw badRequest('Invalid order payload: the body must be a JSON array of orders');
    if (body.length === 0) throw badRequest('Invalid order payload: the batch holds no orders');
    if (body.length > MAX_ORDERS_PER_BATCH) throw badRequest(tooManyOrdersMessage(body.length));
    body.forEach((item: unknown, i) => {
      checkExpiration(item, `body[${i}]`);
      checkOrderShape(item, `body[${i}]`);
    });
    const extra = requestCost('postOrders', body.length) - 1;
    if (extra > 0) enforceLimits(ctx, request, 'postOrders', extra);
    checkMode(ctx, body);
    const results: WireOrderResult[] = body.map((item: unknown) => processOrderItem(ctx, caller, item, 'postOrders').result);
    return answerOrDrop(ctx, request, reply, results);
  });

  app.post('/order', { config: { routeId: 'postOrder' } }, async (request, reply) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('Invalid order payload: the body must be one order item {order, orderType, owner}');
    }
    checkExpiration(body, 'body');
    checkOrderShape(body, 'body');
    checkMode(ctx, [body]);
    return answerOrDrop(ctx, request, reply, processOrderItem(ctx, caller, body, 'postOrder').result);
  });

  app.delete('/order', { config: { routeId: 'cancelOrder' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    const body = request.body as Record<string, unknown> | undefined;
    const id = typeof body === 'object' && body !== null ? body['orderID'] : undefined;
    if (typeof id !== 'string' || id === '') throw badRequest('cancelOrder: body must be {"orderID": "0x..."}');
    return cancelAnswer(ctx.engine.cancel(id, caller.apiKey, ctx.clock.now()));
  });

  app.delete('/orders', { config: { routeId: 'cancelOrders' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    const body = request.body;
    if (!Array.isArray(body) || body.length === 0 || body.length > MAX_CANCELS_PER_REQUEST || !body.every((id) => typeof id === 'string')) {
      throw badRequest(`cancelOrders: body must be a JSON array of 1 to ${MAX_CANCELS_PER_REQUEST} order ids`);
    }
    const extra = requestCost('cancelOrders', body.length) - 1;
    if (extra > 0) enforceLimits(ctx, request, 'cancelOrders', extra);
    return cancelAnswer(ctx.engine.cancelOrders(body, caller.apiKey, ctx.clock.now()));
  });

  app.delete('/cancel-all', { config: { routeId: 'cancelAll' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    return cancelAnswer(ctx.engine.cancelAll(caller.apiKey, ctx.clock.now()));
  });

  app.delete('/cancel-market-orders', { config: { routeId: 'cancelMarketOrders' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    checkRestarting(ctx);
    const body = request.body ?? {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('cancelMarketOrders: body must be {"market"?: condition id, "asset_id"?: token id}');
    }
    const b = body as Record<string, unknown>;
    const market = b['market'];
    const assetId = b['asset_id'];
    if ((market !== undefined && typeof market !== 'string') || (assetId !== undefined && typeof assetId !== 'string')) {
      throw badRequest('cancelMarketOrders: market and asset_id must be strings');
    }
    const scope: { conditionId?: string; tokenId?: string } = {};
    if (market !== undefined && market !== '') scope.conditionId = market.toLowerCase();
    if (assetId !== undefined && assetId !== '') scope.tokenId = assetId;
    return cancelAnswer(ctx.engine.cancelMarket(caller.apiKey, scope, ctx.clock.now()));
  });
}

/** A staged restart in its first phase: 425 Too Early, Retry-After what is left of it. */
function checkRestarting(ctx: SandboxContext): void {
  const phase = ctx.faults.restartPhase();
  if (phase?.phase === 'restarting') throw new SandboxHttpError(425, RESTARTING_MESSAGE, retryAfterSeconds(phase.remainingMs));
}

function checkMode(ctx: SandboxContext, items: readonly unknown[]): void {
  const mode = ctx.faults.tradingMode();
  if (mode === 'normal') return;
  const phase = ctx.faults.restartPhase();
  const retryAfter = phase === undefined ? ctx.trading.modeRetryAfterSeconds : retryAfterSeconds(phase.remainingMs);
  if (mode === 'cancel-only') {
    throw new SandboxHttpError(503, ctx.profile === 'polymarket' ? VENUE_CANCEL_ONLY_MESSAGE : CANCEL_ONLY_MODE_MESSAGE, retryAfter, { code: 'cancel_only_mode' });
  }
  if (!items.every((item) => typeof item === 'object' && item !== null && (item as Record<string, unknown>)['postOnly'] === true)) {
    throw new SandboxHttpError(503, POST_ONLY_MODE_MESSAGE, retryAfter, { code: 'post_only_mode' });
  }
}

/** Whole seconds, at least 1, of a wait in ms (what Retry-After carries). */
function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The answer, unless `dropAfterAccept` draws this post: then the connection goes, unanswered. */
function answerOrDrop(ctx: SandboxContext, request: FastifyRequest, reply: FastifyReply, answer: unknown): unknown {
  if (ctx.faults.drawDropAfterAccept()) {
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  return answer;
}

function cancelAnswer(result: CancelResult): WireCancelResult {
  return { canceled: result.canceled, not_canceled: result.notCanceled };
}
