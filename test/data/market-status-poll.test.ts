import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../src/core/events.ts';
import { LIST_STATUS_ABOVE, pollMarketStatus, watchedMarketsOf, type MarketStatus, type WatchedMarket } from '../../src/data/market-status-poll.ts';
import { iterateMarkets } from '../../src/venue/actions/iterate-markets.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getTradingMarket } from '../../src/venue/actions/get-trading-market.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/**
 * The market status poll against the sandbox over loopback: a market closed and resolved by the
 * admin routes is reported once each (close first), an open one never, one that had ended before
 * the poll began at once, and a failed read goes to onError without stopping the poll.
 */

let sb: RunningSandbox;
let venue: VenueClient;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 4, markets: 80, events: 20, flow: { enabled: false } });
  venue = createVenueClient({ urls: { metadata: sb.url, trading: sb.url, analytics: sb.url } });
});
afterAll(async () => {
  await sb.close();
});

function watched(...markets: { conditionId: string; tokens: readonly { tokenId: string }[] }[]): WatchedMarket[] {
  return markets.map((m) => ({ conditionId: m.conditionId, tokenIds: m.tokens.map((t) => t.tokenId) }));
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('pollMarketStatus', () => {
  it('reports a close, then a resolution, once each; an open market never; an ended one at once', async () => {
    const [a, b] = sb.world.markets.filter((m) => !m.closed && m.acceptingOrders);
    const ended = sb.world.markets.find((m) => m.closed && m.winnerIndex !== undefined)!;
    expect(a && b && ended).toBeTruthy();
    const events: MarketEvent[] = [];
    const errors: unknown[] = [];
    const markets = [...watched(a!, b!, ended), { conditionId: '0x' + '0'.repeat(64), tokenIds: ['1', '2'] }];
    const sub = pollMarketStatus({
      clock: venue.clock,
      fetch: async (id) => getTradingMarket(venue, id),
      markets: () => markets,
      intervalMs: 100,
      onError: (err) => errors.push(err),
    }).subscribe((e) => events.push(e));
    try {
      // the ended market at the first round, closed then resolved; the unknown one is an error
      await until(() => events.length >= 2 && errors.length >= 1);
      expect(events.map((e) => [e.type, 'conditionId' in e ? e.conditionId : ''])).toEqual([
        ['marketClosed', ended.conditionId],
        ['marketResolved', ended.conditionId],
      ]);
      expect(events[1]).toMatchObject({ winnerTokenId: ended.tokens[ended.winnerIndex!].tokenId, tokenIds: ended.tokens.map((t) => t.tokenId) });

      await fetch(`${sb.url}/admin/markets/close`, { method: 'POST', body: JSON.stringify({ conditionId: a!.conditionId }), headers: { 'content-type': 'application/json' } });
      await until(() => events.length >= 3);
      expect(events[2]).toMatchObject({ type: 'marketClosed', conditionId: a!.conditionId });
      await fetch(`${sb.url}/admin/markets/resolve`, { method: 'POST', body: JSON.stringify({ conditionId: a!.conditionId, winner: a!.tokens[1].tokenId }), headers: { 'content-type': 'application/json' } });
      await until(() => events.length >= 4);
      expect(events[3]).toMatchObject({ type: 'marketResolved', conditionId: a!.conditionId, winnerTokenId: a!.tokens[1].tokenId });
      // a few more rounds: nothing new (b is open, the others were reported)
      const rounds = errors.length;
      await until(() => errors.length >= rounds + 3);
      expect(events).toHaveLength(4);
    } finally {
      sub.unsubscribe();
    }
  });

  it(`above ${LIST_STATUS_ABOVE} markets, a round reads the market list once and only the markets it lacks one by one`, async () => {
    const ended = sb.world.markets.find((m) => m.closed && m.winnerIndex !== undefined)!;
    const open = sb.world.markets.filter((m) => !m.closed);
    // the venue's markets, and unlisted ones up to one more than the limit
    const unlisted = Array.from({ length: LIST_STATUS_ABOVE + 1 - open.length - 1 }, (_, i) => ({ conditionId: '0x' + (i + 1).toString(16).padStart(64, '0'), tokens: [{ tokenId: `u${i}` }] }));
    const markets = watched(ended, ...open, ...unlisted);
    expect(markets.length).toBe(LIST_STATUS_ABOVE + 1);
    let lists = 0;
    const one: string[] = [];
    const events: MarketEvent[] = [];
    const sub = pollMarketStatus({
      clock: venue.clock,
      fetch: (id) => {
        one.push(id);
        return Promise.resolve({ closed: false, tokens: [] });
      },
      fetchAll: async () => {
        lists++;
        const all = new Map<string, MarketStatus>();
        for await (const m of iterateMarkets(venue)) all.set(m.conditionId, { closed: m.closed, tokens: m.tokens });
        return all;
      },
      markets: () => markets,
      intervalMs: 60_000,
    }).subscribe((e) => events.push(e));
    try {
      await until(() => one.length === unlisted.length);
      expect(lists).toBe(1);
      expect(new Set(one)).toEqual(new Set(unlisted.map((m) => m.conditionId)));
      expect(events.map((e) => e.type)).toEqual(['marketClosed', 'marketResolved']);
      expect(events[1]).toMatchObject({ conditionId: ended.conditionId, winnerTokenId: ended.tokens[ended.winnerIndex!].tokenId });
    } finally {
      sub.unsubscribe();
    }
  });

  it('watches both tokens of each market a run trades', () => {
    const tokens = [
      { tokenId: 'y1', conditionId: '0xa', complementTokenId: 'n1' },
      { tokenId: 'n1', conditionId: '0xa', complementTokenId: 'y1' },
      { tokenId: 'y2', conditionId: '0xb', complementTokenId: 'n2' },
    ];
    expect(watchedMarketsOf(tokens)).toEqual([
      { conditionId: '0xa', tokenIds: ['y1', 'n1'] },
      { conditionId: '0xb', tokenIds: ['y2', 'n2'] },
    ]);
  });
});
