import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { interval, type Subscription } from 'rxjs';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { FeeChanges, type FeeChangeOptions } from '../world/fee-changes.ts';
import { GameStarts, type GameStartOptions } from '../world/game-starts.ts';

/** How often fee changes and game starts are checked on the sandbox clock, ms. */
export const VENUE_CHANGE_CHECK_MS = 100;

/**
 * What the venue changes about its markets while they trade, in a running sandbox: a fee rate
 * (world/fee-changes.ts) and a sports market's game start clearing its book (world/game-starts.ts).
 * When the app is ready the options' change and games are scheduled, and a timer on the sandbox
 * clock applies them when due. Admin routes (loopback, behind the admin token when one is set):
 *
 * - `POST /admin/fee-rate {"conditionId" | "tokenId", "takerBps"}`: the market's taker (base) fee now;
 * - `GET /admin/games`: the markets with a game start, when, and whether it started;
 * - `POST /admin/games/start {"conditionId"}`: the market's game starts now (its book cleared).
 */
export function installVenueChanges(app: FastifyInstance, ctx: SandboxContext, options: { fees?: FeeChangeOptions; games?: GameStartOptions }, logger?: Logger): { fees: FeeChanges; games: GameStarts } {
  const fees = new FeeChanges(ctx.world, ctx.engine);
  const games = new GameStarts(ctx.world, ctx.engine);
  let timer: Subscription | undefined;
  const tick = (): void => {
    const now = ctx.clock.now();
    for (const step of fees.tick(now)) logger?.info(step, 'fee rate changed');
    for (const step of games.tick(now)) logger?.info(step, 'game started: book cleared');
  };
  app.addHook('onReady', (done) => {
    const now = ctx.clock.now();
    fees.schedule(options.fees ?? {}, now);
    const scheduled = games.schedule(options.games ?? {}, now);
    if (scheduled.length > 0) logger?.info({ markets: scheduled.map((m) => ({ conditionId: m.conditionId, gameStartTime: new Date(m.gameStartTime!).toISOString() })) }, 'games scheduled to start');
    timer = interval(VENUE_CHANGE_CHECK_MS, ctx.clock.scheduler).subscribe(tick);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    timer?.unsubscribe();
    done();
  });

  const admin = { config: { admin: true } };
  app.post('/admin/fee-rate', admin, (request) => {
    const b = bodyOf(request.body, 'admin/fee-rate');
    const takerBps = b['takerBps'];
    if (typeof takerBps !== 'number' || !Number.isSafeInteger(takerBps) || takerBps < 0 || takerBps > 10_000) {
      throw badRequest(`admin/fee-rate: takerBps must be a whole number of basis points in 0..10000, was ${JSON.stringify(takerBps)}`);
    }
    const step = fees.change(marketOf(b, 'admin/fee-rate'), takerBps, ctx.clock.now());
    logger?.info(step, 'fee rate changed');
    return step;
  });
  app.get('/admin/games', admin, () =>
    games.scheduled().map(({ market, started }) => ({
      conditionId: market.conditionId,
      gameStartTime: market.gameStartTime === undefined ? null : new Date(market.gameStartTime).toISOString(),
      secondsDelay: market.secondsDelay,
      started,
    })),
  );
  app.post('/admin/games/start', admin, (request) => {
    const conditionId = marketOf(bodyOf(request.body, 'admin/games/start'), 'admin/games/start');
    const started = games.scheduled().find((g) => g.market.conditionId === conditionId)?.started === true;
    if (started) throw new SandboxHttpError(409, `admin/games/start: the game of market ${conditionId} already started`);
    const step = games.start(conditionId, ctx.clock.now());
    logger?.info(step, 'game started: book cleared');
    return step;
  });
  return { fees, games };

  /** The market a body names by `conditionId` or `tokenId`; 400 without one, 404 for one the world does not have. */
  function marketOf(b: Record<string, unknown>, route: string): string {
    const { conditionId, tokenId } = b;
    if (typeof conditionId === 'string' && conditionId !== '') {
      const market = ctx.world.marketByConditionId(conditionId);
      if (market === undefined) throw new SandboxHttpError(404, `${route}: no market ${conditionId}`);
      return market.conditionId;
    }
    if (typeof tokenId === 'string' && tokenId !== '') {
      const token = ctx.world.token(tokenId);
      if (token === undefined) throw new SandboxHttpError(404, `${route}: no token ${tokenId}`);
      return token.market.conditionId;
    }
    throw badRequest(`${route}: conditionId (or tokenId) must be given as a string`);
  }
}

function bodyOf(body: unknown, route: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`${route}: the body must be a JSON object`);
  return body as Record<string, unknown>;
}
