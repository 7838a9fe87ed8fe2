import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { formatMicros } from '../../../src/core/fixed.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { LIQUIDITY_ADDRESS, LIQUIDITY_OWNER } from '../../../src/sandbox/trading/sandbox-engine.ts';
import { World } from '../../../src/sandbox/world/world.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import type { SimEvent } from '../../../src/sim/types.ts';
import { pickMarket, send, TestTrader, top, units } from './harness.ts';

/** The book routes over the matching engine: seeded like the world, lazily and deterministically; hashes follow content. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 23, markets: 120, events: 24, clock, limits: { enabled: false } });
  market = pickMarket(sb, { minSpreadTicks: 2 });
});
afterAll(async () => {
  await sb.close();
});

describe('engine-backed books', () => {
  it('start as the world\'s seeded ladders, seeded on first touch, the same whatever the order of touches', async () => {
    const reference = new World({ seed: 23, markets: 120, events: 24, clock });
    const open = sb.world.markets.filter((m) => !m.closed && !sb.engine.isSeeded(m.conditionId)).slice(-6);
    expect(open).toHaveLength(6);
    // touch them in reverse order over HTTP, compare with the seeded store in order
    const tokens = open.flatMap((m) => m.tokens.map((t) => t.tokenId)).reverse();
    const books = (await send(`${sb.url}/books`, 'POST', {}, JSON.stringify(tokens.map((token_id) => ({ token_id }))))).body.reverse();
    open.flatMap((m) => m.tokens).forEach((t, i) => {
      const seeded = reference.seededBooks.book(t.tokenId)!;
      const fmt = (levels: readonly { price: number; size: number }[]): { price: string; size: string }[] =>
        levels.map((l) => ({ price: formatMicros(l.price), size: formatMicros(l.size) }));
      const sortBids = (l: { price: string }[]): { price: string }[] => [...l].sort((a, b) => Number(b.price) - Number(a.price));
      const sortAsks = (l: { price: string }[]): { price: string }[] => [...l].sort((a, b) => Number(a.price) - Number(b.price));
      expect(sortBids(books[i].bids)).toEqual(fmt(seeded.bids));
      expect(sortAsks(books[i].asks)).toEqual(fmt(seeded.asks));
      expect(books[i].timestamp).toBe(String(NOW_MS));
    });
    for (const m of open) expect(sb.engine.isSeeded(m.conditionId)).toBe(true);
    // a second sandbox touching them in the other order has the same hashes
    const other = await startSandbox({ flow: { enabled: false }, seed: 23, markets: 120, events: 24, clock, limits: { enabled: false } });
    try {
      const forward = open.flatMap((m) => m.tokens.map((t) => other.world.books.book(t.tokenId)!.hash));
      expect(forward).toEqual(open.flatMap((m) => m.tokens.map((t) => sb.world.books.book(t.tokenId)!.hash)));
    } finally {
      await other.close();
    }
    const seededOrders = sb.engine.openOrders({ conditionId: open[0]!.conditionId });
    expect(new Set(seededOrders.map((o) => o.owner))).toEqual(new Set([LIQUIDITY_OWNER]));
    expect(new Set(seededOrders.map((o) => o.address))).toEqual(new Set([LIQUIDITY_ADDRESS]));
  });

  it('change hash exactly when the content changes; /price, /midpoint and /prices follow the engine', async () => {
    const t = await new TestTrader(sb.url, 'interface', clock, 0x91).login();
    const yes = market.tokens[0].tokenId;
    const { bid, ask } = top(sb, market);
    const h0 = (await send(`${sb.url}/book?token_id=${yes}`, 'GET', {})).body.hash;
    expect((await send(`${sb.url}/book?token_id=${yes}`, 'GET', {})).body.hash).toBe(h0);
    const better = bid + market.tickSize;
    const posted = await t.post({ market, side: 'BUY', price: units(better), size: units(market.minOrderSize) });
    const id = posted.body[0].orderID;
    const b1 = (await send(`${sb.url}/book?token_id=${yes}`, 'GET', {})).body;
    expect(b1.hash).not.toBe(h0);
    expect((await send(`${sb.url}/price?token_id=${yes}&side=BUY`, 'GET', {})).body).toEqual({ price: formatMicros(better) });
    expect((await send(`${sb.url}/midpoint?token_id=${yes}`, 'GET', {})).body).toEqual({ mid: formatMicros((better + ask) / 2) });
    const prices = (await send(`${sb.url}/prices`, 'POST', {}, JSON.stringify([{ token_id: market.tokens[1].tokenId }]))).body;
    expect(prices[market.tokens[1].tokenId]).toEqual({ BUY: formatMicros(1_000_000 - ask), SELL: formatMicros(1_000_000 - better) });
    // the NO book mirrors it, with its own hash
    const no = (await send(`${sb.url}/book?token_id=${market.tokens[1].tokenId}`, 'GET', {})).body;
    expect(no.hash).not.toBe(b1.hash);
    await t.l2('DELETE', '/order', { orderID: id });
    expect((await send(`${sb.url}/book?token_id=${yes}`, 'GET', {})).body.hash).toBe(h0);
  });

  it('expires GTD orders at their expiration on the sandbox clock', async () => {
    const t = await new TestTrader(sb.url, 'interface', clock, 0x92).login();
    const yes = market.tokens[0].tokenId;
    const h0 = sb.world.books.book(yes)!.hash;
    const expiration = Math.floor(clock.now() / 1000) + 120;
    const posted = await t.post({ market, side: 'BUY', price: units(market.tickSize), size: units(market.minOrderSize), orderType: 'GTD', expiration });
    expect(posted.body[0].status).toBe('live');
    expect(sb.world.books.book(yes)!.hash).not.toBe(h0);
    expect((await t.l2('GET', '/data/orders')).body.data[0].expiration).toBe(String(expiration));
    clock.advanceBy(121_000);
    expect(sb.world.books.book(yes)!.hash).toBe(h0);
    expect((await t.l2('GET', `/data/order/${posted.body[0].orderID}`)).body.status).toBe('CANCELED');
  });

  it('exposes the engine and its events for order flow: BookChanged per call, seeding flagged', async () => {
    const events: SimEvent[] = [];
    const seedingFlags: boolean[] = [];
    const off = sb.engine.onEvent((e) => {
      events.push(e);
      seedingFlags.push(sb.engine.seeding);
    });
    try {
      const fresh = sb.world.markets.filter((m) => !m.closed && !sb.engine.isSeeded(m.conditionId))[0]!;
      const yes = fresh.tokens[0].tokenId;
      const q = sb.engine.quote(yes); // first touch seeds
      expect(q.bestBid).toBeDefined();
      expect(events.length).toBeGreaterThan(0);
      expect(seedingFlags.every((f) => f)).toBe(true);
      events.length = 0;
      seedingFlags.length = 0;
      sb.engine.ledger.deposit('0x00000000000000000000000000000000000A6E27', 1_000_000_000);
      const r = sb.engine.submit(
        { id: 'agent-1', owner: 'agent', address: '0x00000000000000000000000000000000000A6E27', tokenId: yes, side: 'BUY', price: fresh.tickSize, size: fresh.minOrderSize, type: 'GTC', createdAt: clock.now() },
        clock.now(),
      );
      expect(r.status).toBe('LIVE');
      const changed = events.filter((e) => e.type === 'BookChanged');
      expect(changed).toHaveLength(1);
      expect(seedingFlags.every((f) => !f)).toBe(true);
      const view = (await send(`${sb.url}/book?token_id=${yes}`, 'GET', {})).body;
      expect(view.hash).toBe(changed[0]!.type === 'BookChanged' ? changed[0]!.tops[0].hash : '');
      sb.engine.cancel('agent-1', 'agent', clock.now());
    } finally {
      off();
    }
  });

  it('shares the engine with the synthetic flow: client orders rest among the agents\' and books stay uncrossed', async () => {
    const flowClock = new SimulatedClock(NOW_MS);
    const withFlow = await startSandbox({ seed: 23, markets: 40, events: 8, clock: flowClock, limits: { enabled: false } });
    try {
      const t = await new TestTrader(withFlow.url, 'interface', flowClock, 0x93).login();
      const m = pickMarket(withFlow);
      const posted = await t.post({ market: m, side: 'BUY', price: units(m.tickSize), size: units(m.minOrderSize) });
      expect(posted.body[0].status).toBe('live');
      for (let i = 0; i < 60; i++) flowClock.advanceBy(1_000);
      const flow = (await send(`${withFlow.url}/admin/flow`, 'GET', {})).body;
      expect(flow.enabled).toBe(true);
      expect(flow.trades).toBeGreaterThan(0);
      expect((await t.l2('GET', '/data/orders')).body.data.map((o: any) => o.id)).toEqual([posted.body[0].orderID]);
      const open = withFlow.world.markets.filter((x) => !x.closed && x.acceptingOrders);
      const books = (await send(`${withFlow.url}/books`, 'POST', {}, JSON.stringify(open.map((x) => ({ token_id: x.tokens[0].tokenId }))))).body;
      for (const b of books) {
        const bids = b.bids.map((l: any) => Number(l.price));
        const asks = b.asks.map((l: any) => Number(l.price));
        if (bids.length > 0 && asks.length > 0) expect(Math.max(...bids)).toBeLessThan(Math.min(...asks));
      }
    } finally {
      await withFlow.close();
    }
  });
});
