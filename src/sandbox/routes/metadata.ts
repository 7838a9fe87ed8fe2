import type { FastifyInstance } from 'fastify';
import type { WireEvent, WireEventCreator, WireMetadataMarket, WirePublicSearch, WireTag } from '../../venue/wire/metadata.ts';
import type { SandboxContext } from '../context.ts';
import { notFound } from '../http-error.ts';
import { toCreator, toEvent, toMetadataMarket, toSearchProfile, toTag } from '../wire/metadata.ts';
import type { SandboxCreator, SandboxEvent, SandboxMarket } from '../world/model.ts';
import { boolOf, checkedQuery, intOf, orderKeyOf, slice, sortBy, stringOf, type Query } from './query.ts';

/**
 * The metadata routes (4.5, 4.9, PROTOCOL's table): markets in metadata form, events, creators,
 * tags, search. `/markets/{id}` is registered here only under the `/gamma` mount; at the root
 * the `/markets/{x}` dispatcher serves it for numeric ids.
 */

/** Site identifier that the `creator` query accepts for every market of the sandbox. */
export const SANDBOX_SITE_ID = 'sandbox';

const DEFAULT_EVENTS_LIMIT = 100;
const DEFAULT_TAGS_LIMIT = 100;
const DEFAULT_CREATORS_LIMIT = 20;
const DEFAULT_SEARCH_LIMIT = 5;

/** Sort columns of `GET /events/creators` (default id); any other `order` is a 400. */
const creatorById = (c: SandboxCreator): number => Number(c.id);
const CREATOR_ORDER: Readonly<Record<string, (c: SandboxCreator) => number | string>> = {
  id: creatorById,
  creatorName: (c) => c.creatorName,
  creatorHandle: (c) => c.creatorHandle,
  createdAt: (c) => c.createdAt,
  updatedAt: (c) => c.updatedAt,
};

/** Sort columns of `GET /events` (unsorted when absent); any other `order` is a 400. */
const EVENT_ORDER: Readonly<Record<string, (e: SandboxEvent) => number | string>> = {
  id: (e) => e.index,
  title: (e) => e.title,
  slug: (e) => e.slug,
  startDate: (e) => e.startDate,
  endDate: (e) => e.endDate,
  createdAt: (e) => e.createdAt,
  updatedAt: (e) => e.updatedAt,
};

export function registerMetadataRoutes(app: FastifyInstance, ctx: SandboxContext, options: { marketsById: boolean }): void {
  const { world } = ctx;

  app.get('/markets/slug/:slug', { config: { routeId: 'getMarketBySlug' } }, (request) => {
    const query = checkedQuery('getMarketBySlug', request);
    const { slug } = request.params as { slug: string };
    const market = world.marketBySlug(slug);
    if (!market || !creatorMatches(market.event, query)) throw notFound(`market with slug '${slug}' not found`);
    return toMetadataMarket(market, true) satisfies WireMetadataMarket;
  });

  if (options.marketsById) {
    app.get('/markets/:id', { config: { routeId: 'getMetadataMarket' } }, (request) => {
      const { id } = request.params as { id: string };
      return metadataMarket(ctx, id, checkedQuery('getMetadataMarket', request));
    });
  }

  app.get('/events/slug/:slug', { config: { routeId: 'getEventBySlug' } }, (request) => {
    const query = checkedQuery('getEventBySlug', request);
    const { slug } = request.params as { slug: string };
    const event = world.eventBySlug(slug);
    if (!event || !creatorMatches(event, query)) throw notFound(`event with slug '${slug}' not found`);
    return toEvent(event) satisfies WireEvent;
  });

  app.get('/events/creators', { config: { routeId: 'getEventCreators' } }, (request) => {
    const query = checkedQuery('getEventCreators', request);
    const name = stringOf(query, 'creator_name')?.toLowerCase();
    const handle = stringOf(query, 'creator_handle')?.toLowerCase();
    let creators = world.creators.filter(
      (c) => (name === undefined || c.creatorName.toLowerCase().includes(name)) && (handle === undefined || c.creatorHandle.toLowerCase().includes(handle)),
    );
    const key = orderKeyOf('getEventCreators', query, CREATOR_ORDER, 'id');
    creators = sortBy(creators, key, boolOf(query, 'ascending', false));
    return slice(creators, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_CREATORS_LIMIT)).map(toCreator) satisfies WireEventCreator[];
  });

  app.get('/events', { config: { routeId: 'getEvents' } }, (request) => {
    const query = checkedQuery('getEvents', request);
    const slug = stringOf(query, 'slug');
    const tagId = stringOf(query, 'tag_id');
    const flags = (['active', 'closed', 'archived'] as const).map((name) => [name, query[name] === undefined || query[name] === '' ? undefined : query[name] === 'true'] as const);
    let events = world.events.filter(
      (e) =>
        (slug === undefined || e.slug === slug) &&
        (tagId === undefined || e.tags.some((t) => t.id === tagId)) &&
        flags.every(([name, want]) => want === undefined || e[name] === want),
    );
    if (stringOf(query, 'order') !== undefined) events = sortBy(events, orderKeyOf('getEvents', query, EVENT_ORDER, 'id'), boolOf(query, 'ascending', false));
    return slice(events, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_EVENTS_LIMIT)).map(toEvent) satisfies WireEvent[];
  });

  app.get('/tags', { config: { routeId: 'getTags' } }, (request) => {
    const query = checkedQuery('getTags', request);
    return slice(world.tags, intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_TAGS_LIMIT)).map(toTag) satisfies WireTag[];
  });

  app.get('/public-search', { config: { routeId: 'publicSearch' } }, (request) => {
    const query = checkedQuery('publicSearch', request);
    const q = (stringOf(query, 'q') ?? '').toLowerCase();
    const limit = intOf(query, 'limit_per_type', DEFAULT_SEARCH_LIMIT);
    const events: SandboxEvent[] = [];
    for (const e of world.events) {
      if (events.length >= limit) break;
      if (e.title.toLowerCase().includes(q) || e.markets.some((m) => m.question.toLowerCase().includes(q))) events.push(e);
    }
    const tags = world.tags.filter((t) => t.label.toLowerCase().includes(q)).slice(0, limit);
    const profiles = world.wallets
      .filter((w) => (w.name !== '' && w.name.toLowerCase().includes(q)) || w.pseudonym.toLowerCase().includes(q))
      .slice(0, limit);
    return { events: events.map(toEvent), tags: tags.map(toTag), profiles: profiles.map(toSearchProfile) } satisfies WirePublicSearch;
  });
}

/** `GET /markets/{id}`, metadata form: a numeric market id or a condition id. */
export function metadataMarket(ctx: SandboxContext, id: string, query: Query): WireMetadataMarket {
  const market: SandboxMarket | undefined = /^0x[0-9a-fA-F]{64}$/.test(id) ? ctx.world.marketByConditionId(id) : ctx.world.marketById(id);
  if (!market || !creatorMatches(market.event, query)) throw notFound(`market '${id}' not found`);
  return toMetadataMarket(market, true);
}

/**
 * The optional `creator` query of 4.5/4.9: a creator wallet address, or a site identifier. The
 * sandbox's site (`sandbox`) holds every market; a creator's address or handle scopes to its
 * events; anything else matches nothing.
 */
function creatorMatches(event: SandboxEvent, query: Query): boolean {
  const creator = stringOf(query, 'creator');
  if (creator === undefined || creator === SANDBOX_SITE_ID) return true;
  const c = event.creator;
  return creator.toLowerCase() === c.address.toLowerCase() || creator === c.creatorHandle;
}
