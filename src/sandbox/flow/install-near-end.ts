import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { flowMarketsOf } from './install-flow.ts';
import { NearEndEpisodes, type NearEndEpisodeOptions, type NearEndMarket, type NearEndRequest } from './near-end-episodes.ts';
import type { SyntheticFlow } from './synthetic-flow.ts';

/** The coarsest tick a near-end market may have, micros (0.01). */
const MAX_TICK = 10_000;

const REQUEST_KEYS = ['market', 'favourite', 'approachMs', 'startPrice', 'endPrice', 'breakdown'] as const;

/**
 * The near-end episodes (near-end-episodes.ts) in a sandbox app, over the binary (not neg-risk)
 * markets with a tick of 0.01 or finer the synthetic flow trades: planned and stepped on the sandbox clock from when the app
 * is ready until it closes; the markets close and resolve through the sandbox's market lifecycle
 * (`ctx.resolutions`). Admin routes (loopback, behind the admin token when one is set):
 * `GET /admin/near-end` (the episodes, planned or past, and the counts) and `POST /admin/near-end
 * {"market"?, "favourite"?, "approachMs"?, "startPrice"?, "endPrice"?, "breakdown"?}` (one now: 200
 * with the episode, 409 saying why none could start); `POST /admin/near-end/collapse {"market"}` makes
 * the favourite of a running episode collapse now and lose (a breakdown on demand).
 */
export function installNearEndEpisodes(app: FastifyInstance, ctx: SandboxContext, flow: SyntheticFlow | undefined, options: NearEndEpisodeOptions = {}): NearEndEpisodes {
  const markets: NearEndMarket[] = [];
  if (flow !== undefined) {
    flowMarketsOf(ctx.world, ctx.engine).forEach((m, i) => {
      const market = ctx.world.marketByConditionId(m.conditionId);
      // a price near certainty needs a fine tick (0.01 or finer): 0.97 is not on a 0.1 grid
      if (market === undefined || market.negRisk || market.tickSize > MAX_TICK) return;
      markets.push({ market, latent: () => flow.agent(i)?.latent, nudge: (dp) => flow.nudge(m.conditionId, dp) });
    });
  }
  const episodes = new NearEndEpisodes(ctx.engine, markets, ctx.resolutions, ctx.world.seed, ctx.clock, options);
  app.addHook('onReady', (done) => {
    episodes.start();
    done();
  });
  app.addHook('preClose', (done) => {
    episodes.stop();
    done();
  });
  app.get('/admin/near-end', { config: { admin: true } }, () => episodes.stats());
  app.post('/admin/near-end', { config: { admin: true } }, (request) => {
    const started = episodes.begin(parseRequest(request.body));
    if (typeof started === 'string') throw new SandboxHttpError(409, `admin/near-end: ${started}`);
    return started;
  });
  app.post('/admin/near-end/collapse', { config: { admin: true } }, (request) => {
    const body = request.body;
    const market = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)['market'] : undefined;
    if (typeof market !== 'string' || market === '') throw badRequest('admin/near-end/collapse: market must be the condition id or slug of a market in a near-end episode');
    const collapsed = episodes.collapse(market);
    if (typeof collapsed === 'string') throw new SandboxHttpError(409, `admin/near-end/collapse: ${collapsed}`);
    return collapsed;
  });
  return episodes;
}

function parseRequest(body: unknown): NearEndRequest {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(`admin/near-end: the body must be a JSON object {${REQUEST_KEYS.join(', ')}} (each optional)`);
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(REQUEST_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) throw badRequest(`admin/near-end: unknown key ${unknown} (keys: ${REQUEST_KEYS.join(', ')})`);
  const { market, favourite, approachMs, startPrice, endPrice, breakdown } = b;
  if (market !== undefined && (typeof market !== 'string' || market === '')) throw badRequest('admin/near-end: market must be a condition id or slug');
  if (favourite !== undefined && favourite !== 0 && favourite !== 1) throw badRequest(`admin/near-end: favourite must be 0 (YES) or 1 (NO), was ${JSON.stringify(favourite)}`);
  if (approachMs !== undefined && !(typeof approachMs === 'number' && Number.isSafeInteger(approachMs) && approachMs >= 1_000)) throw badRequest(`admin/near-end: approachMs must be a whole number >= 1000, was ${JSON.stringify(approachMs)}`);
  for (const [key, v] of [['startPrice', startPrice], ['endPrice', endPrice]] as const) {
    if (v !== undefined && !(typeof v === 'number' && v > 0 && v < 1)) throw badRequest(`admin/near-end: ${key} must be a price in (0, 1), was ${JSON.stringify(v)}`);
  }
  if (breakdown !== undefined && typeof breakdown !== 'boolean') throw badRequest('admin/near-end: breakdown must be true or false');
  return {
    ...(market === undefined ? {} : { market }),
    ...(favourite === undefined ? {} : { favourite }),
    ...(approachMs === undefined ? {} : { approachMs: approachMs }),
    ...(startPrice === undefined ? {} : { startPrice: startPrice as number }),
    ...(endPrice === undefined ? {} : { endPrice: endPrice as number }),
    ...(breakdown === undefined ? {} : { breakdown }),
  };
}
