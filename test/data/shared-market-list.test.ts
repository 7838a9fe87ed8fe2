import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { sharedMarketList } from '../../src/data/market-reselection.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/** One reader of the venue's market list for a run's parts, against the sandbox over loopback. */

let sb: RunningSandbox;
let venue: VenueClient;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 3, markets: 250, events: 60, flow: { enabled: false } });
  venue = createVenueClient({ baseUrl: sb.url, limits: { enabled: false } });
});
afterAll(async () => {
  await sb.close();
});

async function pages(): Promise<number> {
  return ((await (await fetch(`${sb.url}/admin/stats`)).json()) as { routes: Record<string, number> }).routes['getMarkets'] ?? 0;
}

describe('sharedMarketList', () => {
  it('reads that overlap share one scan; one within reuseMs of its end gets it again; a later one scans anew', async () => {
    const clock = new SimulatedClock(1_000_000);
    const list = sharedMarketList(venue, () => clock.now(), 5_000);
    const before = await pages();
    const [a, b, c] = await Promise.all([list(), list(), list()]);
    expect(a.markets).toHaveLength(250);
    expect(b).toBe(a);
    expect(c).toBe(a);
    const one = (await pages()) - before;
    expect(one).toBe(a.requests);
    clock.advanceBy(4_999);
    expect(await list()).toBe(a);
    expect((await pages()) - before).toBe(one);
    clock.advanceBy(1);
    const d = await list();
    expect(d).not.toBe(a);
    expect(d.markets.map((m) => m.conditionId)).toEqual(a.markets.map((m) => m.conditionId));
    expect((await pages()) - before).toBe(2 * one);
  });
});
