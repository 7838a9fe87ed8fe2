import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { FeedEvent } from '../../src/data/feed-events.ts';
import { listVenueMarkets, reselectMarkets } from '../../src/data/market-reselection.ts';
import { resolveMarkets, type MarketSelection } from '../../src/data/market-selection.ts';
import { pollMarkets } from '../../src/data/poll-source.ts';
import { venueBookFeed } from '../../src/data/venue-book-feed.ts';
import { WatchedTokens } from '../../src/data/watched-tokens.ts';
import { wsMarketSource } from '../../src/data/ws-source.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';

/**
 * The data room's side of new markets and of the feed watchdog, against the sandbox over
 * loopback: both sources follow a WatchedTokens set as it grows and shrinks, the WS source
 * spreads it over connections of a maximum size, and a selection re-evaluated against a fresh
 * scan takes a market created since and lets a closed one go.
 */

let sandbox: RunningSandbox;
let venue: VenueClient;
const subs: Subscription[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 53, markets: 6, events: 6, flow: { enabled: false } });
  venue = createVenueClient({ baseUrl: sandbox.url, clock: new LiveClock() });
});

afterAll(async () => {
  for (const s of subs.splice(0)) s.unsubscribe();
  await sandbox?.close();
});

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function openTokens(): string[] {
  return sandbox.world.markets.filter((m) => !m.closed).flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]);
}

function booksByToken(events: readonly MarketEvent[], since = 0): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of events.slice(since)) if (e.type === 'book') out.set(e.book.tokenId, (out.get(e.book.tokenId) ?? 0) + 1);
  return out;
}

describe('sources over a watched token set', () => {
  it('the poller polls tokens added while it runs and stops polling removed ones', async () => {
    const [a, b, c, d] = openTokens();
    const watched = new WatchedTokens([a!, b!]);
    const events: MarketEvent[] = [];
    subs.push(pollMarkets({ clock: new LiveClock(), feed: venueBookFeed(venue), tokenIds: watched, chunkSize: 2, pollIntervalMs: 100 }).subscribe((e) => events.push(e)));
    await until('books of a and b', () => booksByToken(events).has(a!) && booksByToken(events).has(b!));
    expect(booksByToken(events).has(c!)).toBe(false);
    watched.add([c!, d!]);
    watched.remove([a!]);
    const mark = events.length;
    await until('books of c and d', () => booksByToken(events, mark).has(c!) && booksByToken(events, mark).has(d!));
    // rounds after the change, counted by the books they brought rather than timed (a loaded
    // machine can hold a round up past a fixed window): two more of each token still watched, none of a
    const later = events.length;
    await until('two more books of b, c and d', () => [b!, c!, d!].every((t) => (booksByToken(events, later).get(t) ?? 0) >= 2));
    expect(booksByToken(events, later).has(a!)).toBe(false);
    expect(booksByToken(events, later).get(b!) ?? 0).toBeGreaterThan(0);
  });

  it('the WS source splits at maxAssetsPerConnection, subscribes added tokens and closes a connection left empty', async () => {
    const tokens = openTokens().slice(0, 5);
    const watched = new WatchedTokens(tokens.slice(0, 3));
    const events: MarketEvent[] = [];
    const feed: FeedEvent[] = [];
    subs.push(
      wsMarketSource({ url: sandbox.url, tokenIds: watched, clock: new LiveClock(), maxAssetsPerConnection: 2, onFeedEvent: (e) => feed.push(e) }).subscribe((e) => events.push(e)),
    );
    await until('snapshots', () => tokens.slice(0, 3).every((t) => booksByToken(events).has(t)));
    expect(feed.filter((e) => e.type === 'FeedConnected').map((e) => e.type === 'FeedConnected' && e.tokenIds.length)).toEqual(expect.arrayContaining([2, 1]));
    expect(feed.find((e) => e.type === 'FeedSplit')).toMatchObject({ connections: 2, assets: 3, maxAssetsPerConnection: 2 });
    // the second connection has room for one: the fourth token joins it, the fifth opens a third
    watched.add(tokens.slice(3));
    await until('snapshots of the added tokens', () => tokens.every((t) => booksByToken(events).has(t)));
    expect(feed.find((e) => e.type === 'FeedSplit' && e.connections === 3)).toBeDefined();
    await untilWs('three connections at the venue', 3);
    // the fifth token alone on its connection: removed, the connection closes
    watched.remove([tokens[4]!]);
    await untilWs('two connections at the venue', 2);
    expect((await sandboxWs()).subscriptions).toBe(4);
  });
});

/** The sandbox's count of WS connections and subscriptions (admin route). */
async function sandboxWs(): Promise<{ connections: number; subscriptions: number }> {
  return (await (await fetch(`${sandbox.url}/admin/ws`)).json()) as { connections: number; subscriptions: number };
}

async function untilWs(what: string, connections: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await sandboxWs()).connections !== connections) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('re-selecting markets against a fresh scan', () => {
  it('takes a market created since the start and lets a closed one go; named markets stay', async () => {
    const open = sandbox.world.markets.filter((m) => !m.closed);
    const named = open[0]!;
    const selection: MarketSelection = { tokenIds: [], conditionIds: [named.conditionId as `0x${string}`], slugs: [], filter: { tags: [], active: true, acceptingOrders: true, maxCount: 50 } };
    const held = await resolveMarkets(venue, selection);
    expect(held.map((m) => m.conditionId).sort()).toEqual(open.map((m) => m.conditionId).sort());

    const unchanged = reselectMarkets(selection, held, await listVenueMarkets(venue));
    expect(unchanged.added).toEqual([]);
    expect(unchanged.removed).toEqual([]);

    const created = await (await fetch(`${sandbox.url}/admin/markets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json() as { conditionId: string };
    const closing = open[1]!;
    await fetch(`${sandbox.url}/admin/markets/close`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conditionId: closing.conditionId }) });
    const listing = await listVenueMarkets(venue);
    expect(listing.requests).toBe(1); // 7 markets: one page
    const next = reselectMarkets(selection, held, listing);
    expect(next.added.map((m) => m.conditionId)).toEqual([created.conditionId]);
    expect(next.removed.map((r) => [r.market.conditionId, r.reason])).toEqual([[closing.conditionId, 'closed']]);
    expect(next.markets.map((m) => m.conditionId)).toContain(named.conditionId);
    expect(next.markets).toHaveLength(held.length);

    // a filter at its maxCount takes nothing new
    const full: MarketSelection = { ...selection, conditionIds: [], filter: { ...selection.filter!, maxCount: held.length } };
    expect(reselectMarkets(full, held, await listVenueMarkets(venue)).added).toHaveLength(1); // the closed one left room for one
    const fuller: MarketSelection = { ...full, filter: { ...full.filter!, maxCount: held.length - 1 } };
    expect(reselectMarkets(fuller, held.filter((m) => m.conditionId !== closing.conditionId), await listVenueMarkets(venue)).added).toHaveLength(0);
  });
});
