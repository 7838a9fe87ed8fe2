import type { EventInfo } from '../core/types.ts';
import type { VenueClient } from '../venue/client.ts';
import { getEventBySlug } from '../venue/actions/get-event-by-slug.ts';
import { getEvents } from '../venue/actions/get-events.ts';
import { getTradingMarket } from '../venue/actions/get-trading-market.ts';
import type { VenueEvent } from '../venue/domain/metadata.ts';
import type { MarketEventRef, TradingMarket } from '../venue/domain/trading.ts';

/**
 * The events of a run's markets, from the venue's metadata: a market names its event (`event` on
 * the single-market route and the sampling list; a market from the plain list is looked up once),
 * and each event is read once by its slug (`GET /events/slug/{slug}`) for its flags and its
 * markets. When more than `EVENT_LOOKUPS_BEFORE_LISTING` lookups would be needed, the event list
 * (`GET /events`, `EVENTS_PAGE` a page) is read first, until every market and event is found or the
 * list ends: a run over the whole venue takes a few dozen requests, not one or two per market; what
 * the list did not show is looked up one by one. A market whose event cannot be read is left
 * without one (a warning names it): a flag the venue did not give is never guessed.
 */
export async function venueEvents(venue: VenueClient, markets: readonly TradingMarket[], warn: (msg: string, fields: Record<string, unknown>) => void): Promise<EventInfo[]> {
  const named = new Set<string>();
  let unnamed = 0;
  for (const m of markets) {
    if (m.event === undefined) unnamed++;
    else if (m.event.slug !== '') named.add(m.event.slug);
  }
  const listing = unnamed + named.size > EVENT_LOOKUPS_BEFORE_LISTING ? await listEvents(venue, markets, named, warn) : undefined;
  const refs = new Map<string, { ref: MarketEventRef; event: VenueEvent | undefined; markets: TradingMarket[] }>();
  for (const market of markets) {
    let ref: MarketEventRef | undefined = market.event;
    let event = ref === undefined ? listing?.byMarket.get(market.conditionId.toLowerCase()) : listing?.bySlug.get(ref.slug);
    if (ref === undefined && event !== undefined) ref = { id: event.id, slug: event.slug, title: event.title, ticker: event.ticker ?? '', description: event.description ?? '' };
    if (ref === undefined) {
      try {
        ref = (await getTradingMarket(venue, market.conditionId)).event;
      } catch (err) {
        warn('market event unknown: the market lookup failed', { conditionId: market.conditionId, err: String(err) });
        continue;
      }
      event = ref === undefined ? undefined : listing?.bySlug.get(ref.slug);
    }
    if (ref === undefined || ref.slug === '') continue;
    const held = refs.get(ref.slug);
    if (held === undefined) refs.set(ref.slug, { ref, event, markets: [market] });
    else held.markets.push(market);
  }
  const out: EventInfo[] = [];
  for (const { ref, event: listed, markets: selected } of refs.values()) {
    let event = listed;
    if (event === undefined) {
      try {
        event = await getEventBySlug(venue, ref.slug);
      } catch (err) {
        warn('market event unknown: the event lookup failed', { event: ref.slug, markets: selected.map((m) => m.conditionId), err: String(err) });
        continue;
      }
    }
    out.push(eventInfoOf(event, selected));
  }
  return out;
}

/** More lookups than this read the event list (`GET /events`) first. */
export const EVENT_LOOKUPS_BEFORE_LISTING = 20;
/** Events per `GET /events` page. */
const EVENTS_PAGE = 100;

interface EventListing {
  readonly bySlug: Map<string, VenueEvent>;
  /** By a listed market's condition id, lowercase. */
  readonly byMarket: Map<string, VenueEvent>;
}

/**
 * The venue's event list, page by page until every market of `markets` without an event and
 * every slug of `slugs` is found, or the list ends. A failed page ends it (reported): what it did
 * not show is looked up one by one.
 */
async function listEvents(venue: VenueClient, markets: readonly TradingMarket[], slugs: ReadonlySet<string>, warn: (msg: string, fields: Record<string, unknown>) => void): Promise<EventListing> {
  const wanted = new Set(markets.filter((m) => m.event === undefined).map((m) => m.conditionId.toLowerCase()));
  const slugsLeft = new Set(slugs);
  const listing: EventListing = { bySlug: new Map(), byMarket: new Map() };
  try {
    for (let offset = 0; wanted.size > 0 || slugsLeft.size > 0; offset += EVENTS_PAGE) {
      const page = await getEvents(venue, { limit: EVENTS_PAGE, offset });
      for (const e of page) {
        listing.bySlug.set(e.slug, e);
        slugsLeft.delete(e.slug);
        for (const m of e.markets) {
          const cid = m.conditionId.toLowerCase();
          listing.byMarket.set(cid, e);
          wanted.delete(cid);
        }
      }
      if (page.length < EVENTS_PAGE) break;
    }
  } catch (err) {
    warn('event list failed: the events not read yet are looked up one by one', { events: listing.bySlug.size, err: String(err) });
  }
  return listing;
}

/**
 * One venue event as the strategy API shows it. Neg-risk: the event's `enableNegRisk` (or
 * `negRisk`), else its markets' own `negRisk` flag; augmented: `negRiskAugmented` (absent: not
 * augmented). Its markets: every one the event lists, else the run's markets that name it.
 */
export function eventInfoOf(event: VenueEvent, selected: readonly TradingMarket[]): EventInfo {
  const listed = event.markets.map((m) => m.conditionId);
  const negRisk = event.enableNegRisk ?? event.negRisk ?? (selected.length > 0 && selected.every((m) => m.negRisk));
  return Object.freeze({
    id: event.id,
    slug: event.slug,
    title: event.title,
    negRisk,
    augmented: negRisk && event.negRiskAugmented === true,
    marketConditionIds: Object.freeze(listed.length > 0 ? listed : selected.map((m) => m.conditionId)),
  });
}
