import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { installLeaderWallets } from './install-leader-wallets.ts';
import { installNearEndEpisodes } from './install-near-end.ts';
import type { LeaderWalletOptions } from './leader-wallets.ts';
import type { NearEndEpisodeOptions } from './near-end-episodes.ts';
import { NegRiskEpisodes, type EpisodeRequest, type NegRiskEpisodeOptions } from './neg-risk-episodes.ts';
import type { SyntheticFlow } from './synthetic-flow.ts';

const REQUEST_KEYS = ['event', 'direction', 'gap', 'durationMs', 'withdraw'] as const;

/** Each kind of episode's knobs (`SandboxOptions`). */
export interface SandboxEpisodeOptions {
  readonly episodes?: NegRiskEpisodeOptions;
  readonly leaders?: LeaderWalletOptions;
  readonly nearEnd?: NearEndEpisodeOptions;
}

/** Every kind of sandbox episode, one line each; `flow`: the synthetic flow (undefined when off). */
export function installEpisodes(app: FastifyInstance, ctx: SandboxContext, options: SandboxEpisodeOptions, flow: SyntheticFlow | undefined): void {
  installNegRiskEpisodes(app, ctx, options.episodes);
  installLeaderWallets(app, ctx, flow, options.leaders);
  installNearEndEpisodes(app, ctx, flow, options.nearEnd);
}

/**
 * The neg-risk episodes (neg-risk-episodes.ts) in a sandbox app: stepped on the sandbox clock from
 * when the app is ready until it closes (their depth is cancelled then). Admin routes (loopback,
 * behind the admin token when one is set): `GET /admin/episodes` (the active episodes and the
 * counts) and `POST /admin/episodes {"event"?, "direction"?, "gap"?, "durationMs"?, "withdraw"?}`
 * (one now: 200 with the episode, 409 saying why none could start).
 */
export function installNegRiskEpisodes(app: FastifyInstance, ctx: SandboxContext, options: NegRiskEpisodeOptions = {}): NegRiskEpisodes {
  const episodes = new NegRiskEpisodes(ctx.engine, ctx.world.events, ctx.world.seed, ctx.clock, options);
  app.addHook('onReady', (done) => {
    episodes.start();
    done();
  });
  app.addHook('preClose', (done) => {
    episodes.close();
    done();
  });
  app.get('/admin/episodes', { config: { admin: true } }, () => episodes.stats());
  app.post('/admin/episodes', { config: { admin: true } }, (request) => {
    const started = episodes.begin(parseRequest(request.body));
    if (typeof started === 'string') throw new SandboxHttpError(409, `admin/episodes: ${started}`);
    return started;
  });
  return episodes;
}

function parseRequest(body: unknown): EpisodeRequest {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(`admin/episodes: the body must be a JSON object {${REQUEST_KEYS.join(', ')}} (each optional)`);
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(REQUEST_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) throw badRequest(`admin/episodes: unknown key ${unknown} (keys: ${REQUEST_KEYS.join(', ')})`);
  const { event, direction, gap, durationMs, withdraw } = b;
  if (event !== undefined && (typeof event !== 'string' || event === '')) throw badRequest('admin/episodes: event must be an event id or slug');
  if (direction !== undefined && direction !== 'cheap' && direction !== 'rich') throw badRequest(`admin/episodes: direction must be "cheap" or "rich", was ${JSON.stringify(direction)}`);
  if (gap !== undefined && !(typeof gap === 'number' && gap > 0 && gap < 0.5)) throw badRequest(`admin/episodes: gap must be a number in (0, 0.5), was ${JSON.stringify(gap)}`);
  if (durationMs !== undefined && !(typeof durationMs === 'number' && Number.isSafeInteger(durationMs) && durationMs > 0)) throw badRequest(`admin/episodes: durationMs must be a whole number > 0, was ${JSON.stringify(durationMs)}`);
  if (withdraw !== undefined && typeof withdraw !== 'boolean') throw badRequest('admin/episodes: withdraw must be true or false');
  return {
    ...(event === undefined ? {} : { event }),
    ...(direction === undefined ? {} : { direction }),
    ...(gap === undefined ? {} : { gap }),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(withdraw === undefined ? {} : { withdraw }),
  };
}
