import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { flowMarketsOf } from './install-flow.ts';
import { LeaderWallets, type LeaderMarket, type LeaderRequest, type LeaderWalletOptions } from './leader-wallets.ts';
import type { SyntheticFlow } from './synthetic-flow.ts';

const REQUEST_KEYS = ['market', 'wallet', 'direction', 'move', 'leadMs', 'holdMs', 'sizeShares'] as const;

/**
 * The leader wallets (leader-wallets.ts) in a sandbox app, over the markets the synthetic flow
 * trades (whose prices it moves): stepped on the sandbox clock from when the app is ready until
 * it closes. Admin routes (loopback, behind the admin token when one is set): `GET /admin/leaders`
 * (the leaders' addresses, the active episodes and the counts) and `POST /admin/leaders
 * {"market"?, "wallet"?, "direction"?, "move"?, "leadMs"?, "holdMs"?, "sizeShares"?}` (one now:
 * 200 with the episode, 409 saying why none could start).
 */
export function installLeaderWallets(app: FastifyInstance, ctx: SandboxContext, flow: SyntheticFlow | undefined, options: LeaderWalletOptions = {}): LeaderWallets {
  const markets: LeaderMarket[] = flowMarketsOf(ctx.world, ctx.engine).map((m) => ({
    conditionId: m.conditionId,
    slug: ctx.world.marketByConditionId(m.conditionId)?.slug ?? m.conditionId,
    tokenIds: m.tokenIds,
  }));
  const mover = flow === undefined ? undefined : (conditionId: string, dp: number) => flow.nudge(conditionId, dp);
  const leaders = new LeaderWallets(ctx.engine, markets, mover, ctx.world.seed, ctx.clock, options);
  app.addHook('onReady', (done) => {
    leaders.start();
    done();
  });
  app.addHook('preClose', (done) => {
    leaders.stop();
    done();
  });
  app.get('/admin/leaders', { config: { admin: true } }, () => leaders.stats());
  app.post('/admin/leaders', { config: { admin: true } }, (request) => {
    const started = leaders.begin(parseRequest(request.body));
    if (typeof started === 'string') throw new SandboxHttpError(409, `admin/leaders: ${started}`);
    return started;
  });
  return leaders;
}

function parseRequest(body: unknown): LeaderRequest {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(`admin/leaders: the body must be a JSON object {${REQUEST_KEYS.join(', ')}} (each optional)`);
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(REQUEST_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) throw badRequest(`admin/leaders: unknown key ${unknown} (keys: ${REQUEST_KEYS.join(', ')})`);
  const { market, wallet, direction, move, leadMs, holdMs, sizeShares } = b;
  if (market !== undefined && (typeof market !== 'string' || market === '')) throw badRequest('admin/leaders: market must be a condition id or slug');
  if (wallet !== undefined && !(typeof wallet === 'string' || (typeof wallet === 'number' && Number.isSafeInteger(wallet)))) throw badRequest('admin/leaders: wallet must be a leader index or address');
  if (direction !== undefined && direction !== 'up' && direction !== 'down') throw badRequest(`admin/leaders: direction must be "up" or "down", was ${JSON.stringify(direction)}`);
  if (move !== undefined && !(typeof move === 'number' && move > 0 && move < 0.5)) throw badRequest(`admin/leaders: move must be a number in (0, 0.5), was ${JSON.stringify(move)}`);
  for (const [key, v] of [['leadMs', leadMs], ['holdMs', holdMs]] as const) {
    if (v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) throw badRequest(`admin/leaders: ${key} must be a whole number >= 0, was ${JSON.stringify(v)}`);
  }
  if (sizeShares !== undefined && !(typeof sizeShares === 'number' && sizeShares > 0 && Number.isSafeInteger(sizeShares * 100))) throw badRequest(`admin/leaders: sizeShares must be a positive number in steps of 0.01, was ${JSON.stringify(sizeShares)}`);
  return {
    ...(market === undefined ? {} : { market }),
    ...(wallet === undefined ? {} : { wallet }),
    ...(direction === undefined ? {} : { direction }),
    ...(move === undefined ? {} : { move }),
    ...(leadMs === undefined ? {} : { leadMs: leadMs as number }),
    ...(holdMs === undefined ? {} : { holdMs: holdMs as number }),
    ...(sizeShares === undefined ? {} : { sizeShares }),
  };
}
