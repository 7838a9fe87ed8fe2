import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { formatMicros, MICROS_PER_UNIT, parseMicros } from '../../../src/core/fixed.ts';
import type { BookLevel } from '../../../src/core/types.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { T0 } from '../flow/helpers.ts';
import { channelRig, stalledClient, TestClient, until, type ChannelRig } from './helpers.ts';

const rigs: ChannelRig[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const r of rigs.splice(0)) await r.close();
});

async function setup(options: Parameters<typeof channelRig>[0] = {}): Promise<ChannelRig> {
  const rig = await channelRig(options);
  rigs.push(rig);
  return rig;
}

async function client(rig: ChannelRig, path = '/ws/market'): Promise<TestClient> {
  const c = await TestClient.open(rig.base.replace('http', 'ws') + path);
  clients.push(c);
  return c;
}

function openMarkets(rig: ChannelRig): SandboxMarket[] {
  return rig.world.markets.filter((m) => !m.closed);
}

/** Levels as the wire writes them, best first. */
function wire(levels: readonly BookLevel[]): { price: string; size: string }[] {
  return levels.map((l) => ({ price: formatMicros(l.price), size: formatMicros(l.size) }));
}

/** A book kept from `book` and `price_change` messages, by this test's own rules. */
class Mirror {
  readonly books = new Map<string, { bids: Map<number, number>; asks: Map<number, number>; hash: string; tick?: string }>();

  apply(m: Record<string, any>): void {
    if (m.event_type === 'book') {
      const side = (levels: { price: string; size: string }[]) => new Map(levels.map((l) => [parseMicros(l.price), parseMicros(l.size)]));
      this.books.set(m.asset_id, { bids: side(m.bids), asks: side(m.asks), hash: m.hash, tick: m.tick_size });
    } else if (m.event_type === 'price_change') {
      for (const c of m.price_changes) {
        const b = this.books.get(c.asset_id);
        if (b === undefined) continue;
        const side = c.side === 'BUY' ? b.bids : b.asks;
        const size = parseMicros(c.size);
        if (size === 0) side.delete(parseMicros(c.price));
        else side.set(parseMicros(c.price), size);
        b.hash = c.hash;
      }
    } else if (m.event_type === 'tick_size_change') {
      this.books.delete(m.asset_id);
    }
  }

  levels(tokenId: string): { bids: BookLevel[]; asks: BookLevel[]; hash: string } | undefined {
    const b = this.books.get(tokenId);
    if (b === undefined) return undefined;
    const sorted = (m: Map<number, number>, desc: boolean) =>
      [...m].map(([price, size]) => ({ price, size })).sort((x, y) => (desc ? y.price - x.price : x.price - y.price));
    return { bids: sorted(b.bids, true), asks: sorted(b.asks, false), hash: b.hash };
  }
}

describe('ws market channel', () => {
  it('answers a subscription with one book snapshot per known asset, as the engine holds it', async () => {
    const rig = await setup();
    const [m] = openMarkets(rig) as [SandboxMarket];
    const yes = m.tokens[0].tokenId;
    const c = await client(rig);
    c.send({ assets_ids: [yes, '123456789', m.tokens[1].tokenId], type: 'market' });
    await c.sync();
    const first = c.frames[0] as Record<string, any>[];
    expect(Array.isArray(first)).toBe(true);
    expect(first.map((b) => b.asset_id)).toEqual([yes, m.tokens[1].tokenId]);
    const book = rig.engine.book(yes, rig.clock.now());
    const snap = first[0] as Record<string, any>;
    expect(Object.keys(snap).sort()).toEqual(['asks', 'asset_id', 'bids', 'event_type', 'hash', 'market', 'tick_size', 'timestamp'].sort());
    expect(snap).toMatchObject({ event_type: 'book', market: m.conditionId, hash: book.hash, timestamp: String(T0), tick_size: formatMicros(m.tickSize) });
    // Best level last, as the venue sends it.
    expect(snap.bids).toEqual(wire(book.bids).reverse());
    expect(snap.asks).toEqual(wire(book.asks).reverse());
    expect(book.bids.length).toBeGreaterThan(0);
    expect(rig.channel.stats()).toMatchObject({ connections: 1, subscriptions: 2 });
  });

  it('answers PING with PONG, on both paths', async () => {
    const rig = await setup();
    for (const path of ['/ws/market', '/clob/ws/market']) {
      const c = await client(rig, path);
      c.send('PING');
      await until(() => c.frames.includes('PONG'), 'PONG');
      expect(c.frames).toEqual(['PONG']);
    }
    expect(rig.channel.stats().pings).toBe(2);
  });

  it('refuses upgrades on other paths', async () => {
    const rig = await setup();
    const ws = new WebSocket(rig.base.replace('http', 'ws') + '/ws/user');
    const error = await new Promise<Error>((resolve) => ws.once('error', resolve));
    expect(error.message).toMatch(/Unexpected server response: 404/);
  });

  it('sends price_change deltas that rebuild every subscribed book exactly, and last trades that match the engine', async () => {
    const rig = await setup({ seed: 13 });
    const markets = openMarkets(rig).slice(0, 6);
    const tokens = markets.flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]);
    const c = await client(rig);
    c.send({ assets_ids: tokens, type: 'market' });
    await c.sync();
    rig.flow.start();
    rig.clock.advanceTo(T0 + 20_000);
    await c.sync();

    const mirror = new Mirror();
    const messages = c.messages();
    for (const msg of messages) mirror.apply(msg);
    const now = rig.clock.now();
    for (const t of tokens) {
      const book = rig.engine.book(t, now);
      expect(mirror.levels(t), t).toEqual({ bids: book.bids, asks: book.asks, hash: book.hash });
    }
    const changes = messages.filter((x) => x.event_type === 'price_change');
    expect(changes.length).toBeGreaterThan(10);
    for (const pc of changes) {
      expect(Object.keys(pc)).toEqual(['market', 'price_changes', 'timestamp', 'event_type']);
      for (const e of pc.price_changes) expect(Object.keys(e)).toEqual(['asset_id', 'price', 'side', 'size', 'hash', 'best_bid', 'best_ask']);
    }

    // Every trade of these markets, once for each token: the taker's own terms and the mirror.
    const cids = new Set(markets.map((m) => m.conditionId));
    const trades = rig.engine.trades().filter((t) => cids.has(t.conditionId));
    expect(trades.length).toBeGreaterThan(0);
    const prints = messages.filter((x) => x.event_type === 'last_trade_price');
    expect(prints.length).toBe(2 * trades.length);
    trades.forEach((t, i) => {
      const own = prints[2 * i]!.asset_id === t.tokenId ? prints[2 * i]! : prints[2 * i + 1]!;
      const other = own === prints[2 * i] ? prints[2 * i + 1]! : prints[2 * i]!;
      expect(own).toEqual({
        asset_id: t.tokenId,
        event_type: 'last_trade_price',
        fee_rate_bps: String(t.feeRateBps),
        market: t.conditionId,
        price: formatMicros(t.price),
        side: t.side,
        size: formatMicros(t.size),
        timestamp: String(t.matchTime),
      });
      expect(other.price).toBe(formatMicros(MICROS_PER_UNIT - t.price));
      expect(other.side).toBe(t.side === 'BUY' ? 'SELL' : 'BUY');
    });
  });

  it('sends only the assets a connection holds, and nothing after unsubscribe', async () => {
    const rig = await setup({ seed: 14 });
    const [m] = openMarkets(rig) as [SandboxMarket];
    const no = m.tokens[1].tokenId;
    const c = await client(rig);
    c.send({ assets_ids: [no], type: 'market' });
    await c.sync();
    rig.flow.start();
    rig.clock.advanceTo(T0 + 10_000);
    await c.sync();
    const seen = new Set(c.messages().flatMap((x) => (x.price_changes ? x.price_changes.map((e: any) => e.asset_id) : [x.asset_id])));
    expect([...seen]).toEqual([no]);
    expect(c.messages().some((x) => x.event_type === 'price_change')).toBe(true);

    c.send({ assets_ids: [no], operation: 'unsubscribe' });
    await c.sync();
    const count = c.messages().length;
    rig.clock.advanceTo(T0 + 20_000);
    await c.sync();
    expect(c.messages().length).toBe(count);
    expect(rig.channel.stats().subscriptions).toBe(0);
  });

  it('re-sends a snapshot only on an unsubscribe/subscribe cycle, never on a repeated subscribe', async () => {
    const rig = await setup();
    const [m] = openMarkets(rig) as [SandboxMarket];
    const yes = m.tokens[0].tokenId;
    const c = await client(rig);
    c.send({ assets_ids: [yes], type: 'market' });
    c.send({ assets_ids: [yes], operation: 'subscribe' });
    await c.sync();
    expect(c.messages().filter((x) => x.event_type === 'book')).toHaveLength(1);
    c.send({ assets_ids: [yes], operation: 'unsubscribe' });
    c.send({ assets_ids: [yes], operation: 'subscribe' });
    await c.sync();
    expect(c.messages().filter((x) => x.event_type === 'book')).toHaveLength(2);
  });

  it('shares one snapshot message among clients asking for the same assets, and never one older than the books', async () => {
    const rig = await setup({ seed: 13 });
    const tokens = openMarkets(rig)
      .slice(0, 6)
      .flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]);
    const snapshotOf = async (): Promise<Record<string, any>[]> => {
      const c = await client(rig);
      c.send({ assets_ids: tokens, type: 'market' });
      await c.sync();
      return c.frames[0] as Record<string, any>[];
    };
    const expected = () => {
      const now = rig.clock.now();
      return tokens.map((t) => {
        const book = rig.engine.book(t, now);
        return { asset_id: t, hash: book.hash, bids: wire(book.bids).reverse(), asks: wire(book.asks).reverse() };
      });
    };
    const pick = (snap: Record<string, any>[]) => snap.map((b) => ({ asset_id: b.asset_id, hash: b.hash, bids: b.bids, asks: b.asks }));
    const a = await snapshotOf();
    const b = await snapshotOf();
    expect(pick(a)).toEqual(expected());
    expect(b).toEqual(a);
    // the flow moves the books: the next client gets them as they are now, not the shared message
    rig.flow.start();
    rig.clock.advanceTo(T0 + 20_000);
    const c = await snapshotOf();
    expect(pick(c)).toEqual(expected());
    expect(pick(c)).not.toEqual(pick(a));
    // the same assets in another order are another message
    const d = await client(rig);
    d.send({ assets_ids: [...tokens].reverse(), type: 'market' });
    await d.sync();
    expect((d.frames[0] as Record<string, any>[]).map((x) => x.asset_id)).toEqual([...tokens].reverse());
  });

  it('ignores malformed messages and keeps the connection', async () => {
    const rig = await setup();
    const c = await client(rig);
    for (const bad of ['not json', '[]', '{"assets_ids": "x"}', '{"type": "market"}', 'null']) c.send(bad);
    await c.sync();
    expect(c.frames).toEqual(['PONG']);
  });

  it('announces a tick size change and sends the new book right after', async () => {
    const rig = await setup();
    const m = openMarkets(rig).find((x) => x.tickSize === 10_000) as SandboxMarket;
    const yes = m.tokens[0].tokenId;
    const c = await client(rig);
    c.send({ assets_ids: [yes], type: 'market' });
    await c.sync();
    rig.clock.advanceTo(T0 + 1_000);
    rig.engine.setTickSize(m.conditionId, 1_000, rig.clock.now());
    await c.sync();
    const msgs = c.messages();
    const i = msgs.findIndex((x) => x.event_type === 'tick_size_change');
    expect(msgs[i]).toEqual({
      asset_id: yes,
      event_type: 'tick_size_change',
      market: m.conditionId,
      new_tick_size: '0.001',
      old_tick_size: '0.01',
      timestamp: String(T0 + 1_000),
    });
    const book = rig.engine.book(yes, rig.clock.now());
    expect(msgs[i + 1]).toMatchObject({ event_type: 'book', asset_id: yes, tick_size: '0.001', hash: book.hash });
    expect(msgs[i + 1]!.hash).not.toBe(msgs[0]!.hash);
  });

  it('sends best_bid_ask on top-of-book changes with custom_feature_enabled', async () => {
    const rig = await setup({ seed: 15 });
    const markets = openMarkets(rig).slice(0, 4);
    const tokens = markets.map((m) => m.tokens[0].tokenId);
    const plain = await client(rig);
    const custom = await client(rig);
    plain.send({ assets_ids: tokens, type: 'market' });
    custom.send({ assets_ids: tokens, type: 'market', custom_feature_enabled: true });
    await plain.sync();
    await custom.sync();
    rig.flow.start();
    rig.clock.advanceTo(T0 + 15_000);
    await plain.sync();
    await custom.sync();
    expect(plain.messages().some((x) => x.event_type === 'best_bid_ask')).toBe(false);
    const tops = custom.messages().filter((x) => x.event_type === 'best_bid_ask');
    expect(tops.length).toBeGreaterThan(0);
    for (const t of tokens) {
      const last = tops.filter((x) => x.asset_id === t).at(-1);
      if (last === undefined) continue;
      const q = rig.engine.quote(t);
      expect(last.best_bid).toBe(q.bestBid === undefined ? '0' : formatMicros(q.bestBid));
      expect(last.best_ask).toBe(q.bestAsk === undefined ? '1' : formatMicros(q.bestAsk));
      expect(Object.keys(last)).toEqual(['event_type', 'market', 'asset_id', 'best_bid', 'best_ask', 'spread', 'timestamp']);
    }
  });

  it('drops a client that stops reading instead of buffering without bound', async () => {
    const rig = await setup({ seed: 16, channel: { maxBufferedBytes: 64 * 1024 } });
    const markets = openMarkets(rig).slice(0, 8);
    const tokens = markets.flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]);
    const healthy = await client(rig);
    healthy.send({ assets_ids: tokens.slice(0, 2), type: 'market' });
    const port = Number(new URL(rig.base).port);
    const stalled = await stalledClient(port, '/ws/market', JSON.stringify({ assets_ids: tokens, type: 'market' }));
    await until(() => rig.channel.stats().connections === 2 && rig.channel.stats().subscriptions === 2 + tokens.length, 'both subscribed');
    rig.flow.start();
    let now = T0;
    for (let round = 0; round < 400 && rig.channel.stats().droppedSlow === 0; round++) {
      now += 30_000;
      rig.clock.advanceTo(now);
      await new Promise((r) => setImmediate(r));
    }
    expect(rig.channel.stats().droppedSlow).toBe(1);
    expect(rig.channel.stats().connections).toBe(1);
    await healthy.sync(); // the reader that keeps up is still served
    expect(healthy.closed).toBe(false);
    stalled.destroy();
  });

  it('terminates every connection on close and on dropAll', async () => {
    const rig = await setup();
    const a = await client(rig);
    const b = await client(rig);
    expect(rig.channel.dropAll()).toBe(2);
    await until(() => a.closed && b.closed, 'clients closed');
    const c = await client(rig);
    await until(() => rig.channel.stats().connections === 1, 'connected');
    rig.channel.close();
    await until(() => c.closed, 'closed on close');
    expect(rig.channel.stats()).toMatchObject({ connections: 0, droppedByRequest: 2 });
  });
});
