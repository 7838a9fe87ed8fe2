import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { pollFeeRates } from '../../src/data/fee-rate-poll.ts';
import { watchGameStarts } from '../../src/data/game-start-watch.ts';
import type { WatchedMarket } from '../../src/data/market-status-poll.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getFeeRate } from '../../src/venue/actions/get-fee-rate.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/**
 * The two watches of the venue's market changes (docs/fees-and-sports.md): the fee-rate poll
 * against the sandbox over loopback (a change read once, an unchanged rate never, a failed read
 * keeps the rate), and the game-start watch on a simulated clock (a clear once per market, grace
 * after the start; a start before the watch began never; a market added later watched too).
 */

let sb: RunningSandbox;
let venue: VenueClient;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 5, markets: 30, events: 10, flow: { enabled: false } });
  venue = createVenueClient({ urls: { metadata: sb.url, trading: sb.url, analytics: sb.url } });
});
afterAll(async () => {
  await sb.close();
});

/** Advances the clock by one poll interval, then waits (turn by turn, bounded by the test's timeout) until `until` holds. */
async function settle(clock: SimulatedClock, ms: number, until: () => boolean): Promise<void> {
  clock.advanceBy(ms);
  while (!until()) await new Promise((r) => setImmediate(r));
}

describe('pollFeeRates', () => {
  it('emits a token\'s new rate once, nothing while it holds, and keeps the rate through a failed read', async () => {
    const market = sb.world.markets.find((m) => !m.closed && m.acceptingOrders)!;
    const [yes, no] = market.tokens.map((t) => t.tokenId) as [string, string];
    const clock = new SimulatedClock(Date.now());
    const watched: WatchedMarket[] = [{ conditionId: market.conditionId, tokenIds: [yes, no], takerBps: market.takerBaseFee, makerBps: market.makerBaseFee }];
    const events: MarketEvent[] = [];
    const errors: unknown[] = [];
    // Reads answered, not started: a round still in flight when the clock next ticks would skip
    // that tick (the poll's exhaustMap), and a read started before the fee change may be served after it.
    let reads = 0;
    let fail = false;
    const sub = pollFeeRates({
      clock,
      fetch: (tokenId) => {
        const read = fail ? getFeeRate(venue, `9${tokenId}`) : getFeeRate(venue, tokenId);
        return read.finally(() => reads++);
      },
      markets: () => watched,
      intervalMs: 1000,
      onError: (err) => errors.push(err),
    }).subscribe((e) => events.push(e));
    try {
      await settle(clock, 1000, () => reads === 2);
      expect(events).toEqual([]); // the listed rate holds
      const next = market.takerBaseFee === 300 ? 40 : 300;
      const r = await fetch(`${sb.url}/admin/fee-rate`, { method: 'POST', body: JSON.stringify({ conditionId: market.conditionId, takerBps: next }), headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(200);
      await settle(clock, 1000, () => reads === 4);
      expect(events).toMatchObject([
        { type: 'feeRate', tokenId: yes, takerBps: next, makerBps: market.makerBaseFee },
        { type: 'feeRate', tokenId: no, takerBps: next, makerBps: market.makerBaseFee },
      ]);
      fail = true;
      await settle(clock, 1000, () => reads === 6);
      expect(errors).toHaveLength(2);
      fail = false;
      await settle(clock, 1000, () => reads === 8);
      expect(events).toHaveLength(2); // a failed read changed nothing, the next read saw the same rate
      expect(String(errors[0])).toMatch(/404|not found/i);
    } finally {
      sub.unsubscribe();
    }
  });

  it('the sandbox refuses a fee change naming what is wrong', async () => {
    const post = (body: unknown) => fetch(`${sb.url}/admin/fee-rate`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const market = sb.world.markets[0]!;
    const bad = await post({ conditionId: market.conditionId, takerBps: 1.5 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/takerBps must be a whole number of basis points in 0\.\.10000, was 1\.5/);
    expect((await post({ takerBps: 10 })).status).toBe(400);
    expect((await post({ conditionId: '0xnope', takerBps: 10 })).status).toBe(404);
  });
});

describe('watchGameStarts', () => {
  it('clears a market once, grace after its start; one started before the watch never; a market added later is watched', () => {
    const t0 = 1_800_000_000_000;
    const clock = new SimulatedClock(t0);
    const markets: WatchedMarket[] = [
      { conditionId: '0xgame', tokenIds: ['1', '2'], gameStartTime: t0 + 5_000 },
      { conditionId: '0xpast', tokenIds: ['3', '4'], gameStartTime: t0 - 60_000 },
      { conditionId: '0xnone', tokenIds: ['5', '6'] },
    ];
    const events: MarketEvent[] = [];
    const sub = watchGameStarts({ clock, markets: () => markets, graceMs: 1_000 }).subscribe((e) => events.push(e));
    try {
      clock.advanceBy(5_500);
      expect(events).toEqual([]);
      clock.advanceBy(600);
      expect(events).toEqual([{ type: 'marketCleared', conditionId: '0xgame', tokenIds: ['1', '2'], tsEvent: t0 + 5_000, tsInit: t0 + 6_000 }]);
      markets.push({ conditionId: '0xlater', tokenIds: ['7', '8'], gameStartTime: t0 + 20_000 });
      clock.advanceBy(60_000);
      expect(events.map((e) => (e.type === 'marketCleared' ? e.conditionId : e.type))).toEqual(['0xgame', '0xlater']);
    } finally {
      sub.unsubscribe();
    }
  });
});
