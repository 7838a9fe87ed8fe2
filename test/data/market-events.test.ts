import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LOOKUPS_BEFORE_LISTING, venueEvents } from '../../src/data/market-events.ts';
import { resolveMarkets } from '../../src/data/market-selection.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/** The events of a run's markets against the sandbox over loopback: few one by one, many from the event list. */

let sb: RunningSandbox;
let venue: VenueClient;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 7, markets: 300, events: 120, flow: { enabled: false } });
  venue = createVenueClient({ baseUrl: sb.url, limits: { enabled: false } });
});
afterAll(async () => {
  await sb.close();
});

async function routes(): Promise<Record<string, number>> {
  return ((await (await fetch(`${sb.url}/admin/stats`)).json()) as { routes: Record<string, number> }).routes;
}

describe('venueEvents', () => {
  it(`reads more than ${EVENT_LOOKUPS_BEFORE_LISTING} lookups' worth from GET /events pages, not a request per market, with the same events as one by one`, async () => {
    const all = await resolveMarkets(venue, { tokenIds: [], conditionIds: [], slugs: [], filter: { tags: [], active: true, acceptingOrders: true, maxCount: 1_000 } });
    expect(all.length).toBeGreaterThan(EVENT_LOOKUPS_BEFORE_LISTING * 5);
    const warnings: string[] = [];
    const before = await routes();
    const listed = await venueEvents(venue, all, (msg) => warnings.push(msg));
    const after = await routes();
    const used = (route: string): number => (after[route] ?? 0) - (before[route] ?? 0);
    expect(warnings).toEqual([]);
    expect([used('getTradingMarket'), used('getEventBySlug')]).toEqual([0, 0]);
    expect(used('getEvents')).toBeLessThanOrEqual(2);
    // every market has its event, which lists it
    const byMarket = new Map(listed.flatMap((e) => e.marketConditionIds.map((c) => [c, e] as const)));
    for (const m of all) expect(byMarket.get(m.conditionId)?.id, m.conditionId).toBe(sb.world.marketByConditionId(m.conditionId)?.event.id);
    // a few markets: looked up one by one, the same events
    const few = all.slice(0, 3);
    const one = await venueEvents(venue, few, (msg) => warnings.push(msg));
    expect(one.map((e) => e.id).sort()).toEqual(listed.filter((e) => few.some((m) => e.marketConditionIds.includes(m.conditionId))).map((e) => e.id).sort());
  });
});
