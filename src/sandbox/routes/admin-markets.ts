import type { FastifyInstance } from 'fastify';
import { interval, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { formatMicros } from '../../core/fixed.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import type { MarketResolutions, ResolutionOptions, ResolutionStep } from '../world/market-resolution.ts';

/** How often the end dates of the scheduled markets are checked on the sandbox clock, ms. */
export const RESOLUTION_CHECK_MS = 250;

/**
 * Markets closing and resolving in a running sandbox (world/market-resolution.ts): when the app
 * is ready, the first `options.markets` open markets get seeded end dates shortly after start,
 * and a timer on the sandbox clock closes and resolves them when due. Admin routes (loopback,
 * behind the admin token when one is set, like every `/admin` route):
 *
 * - `GET /admin/markets/resolution`: the scheduled markets with end date, closed and winner;
 * - `POST /admin/markets/close {"conditionId"}`: closes a market now (its open orders cancelled);
 *   a scheduled one resolves `resolveAfterMs` later to its drawn winner, as at its end date;
 * - `POST /admin/markets/resolve {"conditionId", "winner": "<token id>"}`: resolves it now
 *   (closing it first): the winner's holders are paid 1 a share, both tokens are burnt.
 */
export function installMarketResolution(app: FastifyInstance, ctx: SandboxContext, options: ResolutionOptions = {}, logger?: Logger): MarketResolutions {
  const resolutions = ctx.resolutions;
  let timer: Subscription | undefined;
  let closed = false;
  const check = (): void => {
    if (closed) return;
    timer ??= interval(RESOLUTION_CHECK_MS, ctx.clock.scheduler).subscribe(() => report(resolutions.tick(ctx.clock.now())));
  };
  const report = (steps: readonly ResolutionStep[]): void => {
    for (const step of steps) logger?.info({ ...step, redeemed: formatMicros(step.redeemed) }, step.winnerIndex === undefined ? 'market closed' : 'market resolved');
  };
  app.addHook('onReady', (done) => {
    const scheduled = resolutions.schedule(options, ctx.clock.now());
    if (scheduled.length > 0) logger?.info({ markets: scheduled.map((m) => ({ conditionId: m.conditionId, endDate: new Date(m.endDate).toISOString() })) }, 'markets scheduled to close and resolve');
    // end dates are checked from the first market scheduled (here, or later: near-end episodes)
    if (resolutions.scheduled().length > 0) check();
    resolutions.onScheduled(check);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    closed = true;
    timer?.unsubscribe();
    done();
  });

  const admin = { config: { admin: true } };
  app.get('/admin/markets/resolution', admin, () =>
    resolutions.scheduled().map((m) => ({
      conditionId: m.conditionId,
      endDate: new Date(m.endDate).toISOString(),
      closed: m.closed,
      winner: m.winnerIndex === undefined ? null : m.tokens[m.winnerIndex].tokenId,
    })),
  );
  app.post('/admin/markets/close', admin, (request) => {
    const conditionId = conditionIdOf(request.body, 'admin/markets/close');
    const step = resolutions.close(conditionId, ctx.clock.now());
    report([step]);
    return answer(step);
  });
  app.post('/admin/markets/resolve', admin, (request) => {
    const conditionId = conditionIdOf(request.body, 'admin/markets/resolve');
    const market = ctx.world.marketByConditionId(conditionId)!;
    const winner = bodyOf(request.body)['winner'];
    const index = market.tokens.findIndex((t) => t.tokenId === winner);
    if (index !== 0 && index !== 1) throw badRequest(`admin/markets/resolve: winner must be one of the market's token ids (${market.tokens.map((t) => t.tokenId).join(', ')}), was ${JSON.stringify(winner)}`);
    if (market.winnerIndex !== undefined && market.winnerIndex !== index) throw new SandboxHttpError(409, `admin/markets/resolve: market ${market.conditionId} already resolved to ${market.tokens[market.winnerIndex].tokenId}`);
    const step = resolutions.resolve(conditionId, index, ctx.clock.now());
    report([step]);
    return answer(step);
  });
  return resolutions;

  function conditionIdOf(body: unknown, route: string): string {
    const conditionId = bodyOf(body)['conditionId'];
    if (typeof conditionId !== 'string' || conditionId === '') throw badRequest(`${route}: conditionId must be a condition id string`);
    const market = ctx.world.marketByConditionId(conditionId);
    if (market === undefined) throw new SandboxHttpError(404, `${route}: no market ${conditionId}`);
    return market.conditionId;
  }
}

function bodyOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function answer(step: ResolutionStep): Record<string, unknown> {
  return { conditionId: step.conditionId, closed: step.closed, winnerIndex: step.winnerIndex ?? null, canceled: step.canceled, redeemed: formatMicros(step.redeemed) };
}
