import type { EventInfo } from '../core/types.ts';
import type { VenueClient } from '../venue/client.ts';
import { getEventBySlug } from '../venue/actions/get-event-by-slug.ts';
import { getTradingMarket } from '../venue/actions/get-trading-market.ts';
import type { VenueEvent } from '../venue/domain/metadata.ts';
import type { MarketEventRef, TradingMarket } from '../venue/domain/trading.ts';

/**
 * The events of a run's markets, from the venue's metadata: a market names its event (`event` on
 * the single-market route and the sampling list; a market from the plain list is looked up once),
 * and each event is read once by its slug (`GET /events/slug/{slug}`) for its flags and its
 * markets. A market whose event cannot be read is left without one (a warning names it): a flag
 * the venue did not give is never guessed.
 */
export async function venueEvents(venue: VenueClient, markets: readonly TradingMarket[], warn: (msg: string, fields: Record<string, unknown>) => void): Promise<EventInfo[]> {
  const refs = new Map<string, { ref: MarketEventRef; markets: TradingMarket[] }>();
  for (const market of markets) {
    let ref = market.event;
    if (ref === undefined) {
      try {
        ref = (await getTradingMarket(venue, market.conditionId)).event;
      } catch (err) {
        warn('market event unknown: the market lookup failed', { conditionId: market.conditionId, err: String(err) });
        continue;
      }
    }
    if (ref === undefined || ref.slug === '') continue;
    const held = refs.get(ref.slug);
    if (held === undefined) refs.set(ref.slug, { ref, markets: [market] });
    else held.markets.push(market);
  }
  const out: EventInfo[] = [];
  for (const { ref, markets: selected } of refs.values()) {
    let event: VenueEvent;
    try {
      event = await getEventBySlug(venue, ref.slug);
    } catch (err) {
      warn('market event unknown: the event lookup failed', { event: ref.slug, markets: selected.map((m) => m.conditionId), err: String(err) });
      continue;
    }
    out.push(eventInfoOf(event, selected));
  }
  return out;
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
