import type { FastifyInstance } from 'fastify';
import { interval, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { formatMicros } from '../../core/fixed.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest } from '../http-error.ts';
import { DEFAULT_NEW_MARKETS_MAX, MarketCreation, type NewMarketOptions, type NewMarketSpec } from './market-creation.ts';
import type { SandboxMarket } from './model.ts';

/**
 * New markets in a running sandbox (market-creation.ts): with `options.everyMs` > 0, one market
 * every `everyMs` of the sandbox clock once the app is ready (at most `options.max`). Admin route
 * (loopback, behind the admin token when one is set, like every `/admin` route):
 * `POST /admin/markets/create {"question"?, "tags"?: [slug or label]}` creates one now and
 * answers its condition id, slug, question, tick and tokens.
 */
export function installMarketCreation(app: FastifyInstance, ctx: SandboxContext, options: NewMarketOptions = {}, logger?: Logger): MarketCreation {
  const creation = new MarketCreation(ctx.world, ctx.engine);
  const create = (spec?: NewMarketSpec): SandboxMarket => {
    const market = creation.create(ctx.clock.now(), spec);
    logger?.info({ conditionId: market.conditionId, question: market.question }, 'market created');
    return market;
  };
  let timer: Subscription | undefined;
  const everyMs = options.everyMs ?? 0;
  const max = options.max ?? DEFAULT_NEW_MARKETS_MAX;
  app.addHook('onReady', (done) => {
    if (everyMs > 0 && max > 0) {
      let made = 0;
      timer = interval(everyMs, ctx.clock.scheduler).subscribe(() => {
        create();
        if (++made >= max) timer?.unsubscribe();
      });
    }
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    timer?.unsubscribe();
    done();
  });
  app.post('/admin/markets/create', { config: { admin: true } }, (request) => {
    const market = create(parseSpec(ctx, request.body));
    return {
      conditionId: market.conditionId,
      slug: market.slug,
      question: market.question,
      tickSize: formatMicros(market.tickSize),
      minOrderSize: formatMicros(market.minOrderSize),
      tags: market.event.tags.map((t) => t.slug),
      tokens: market.tokens.map((t) => ({ tokenId: t.tokenId, outcome: t.outcome })),
    };
  });
  return creation;
}

function parseSpec(ctx: SandboxContext, body: unknown): NewMarketSpec {
  // no body at all is the empty spec; a JSON null, array or scalar is not an object
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('admin/markets/create: the body must be a JSON object {"question"?, "tags"?}');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => k !== 'question' && k !== 'tags');
  if (unknown.length > 0) throw badRequest(`admin/markets/create: unknown key ${unknown[0]} (keys: question, tags)`);
  const question = b['question'];
  if (question !== undefined && (typeof question !== 'string' || question.trim() === '' || question.length > 300)) {
    throw badRequest('admin/markets/create: question must be a non-empty string of at most 300 characters');
  }
  const tags = b['tags'];
  if (tags !== undefined && (!Array.isArray(tags) || !tags.every((t): t is string => typeof t === 'string'))) {
    throw badRequest('admin/markets/create: tags must be an array of tag slugs or labels');
  }
  if (tags !== undefined) {
    for (const t of tags) {
      const l = t.toLowerCase();
      if (!ctx.world.tags.some((x) => x.slug === l || x.label.toLowerCase() === l)) {
        throw badRequest(`admin/markets/create: unknown tag '${t.slice(0, 60)}' (known: ${ctx.world.tags.map((x) => x.slug).join(', ')})`);
      }
    }
  }
  return { ...(question === undefined ? {} : { question: question.trim() }), ...(tags === undefined ? {} : { tags }) };
}
