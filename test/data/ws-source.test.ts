import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { LiveClock, SimulatedClock } from '../../src/core/clock.ts';
import { ConfigError, DecodeError, TransportError } from '../../src/core/errors.ts';
import type { OrderBook, TokenId } from '../../src/core/types.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { marketChannelUrl, wsMarketSource, type WsSourceOptions } from '../../src/data/ws-source.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { T0 } from '../sandbox/flow/helpers.ts';
import { channelRig, until, type ChannelRig } from '../sandbox/ws/helpers.ts';

const rigs: ChannelRig[] = [];
const subs: Subscription[] = [];
const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of subs.splice(0)) s.unsubscribe();
  for (const r of rigs.splice(0)) await r.close();
  for (const w of servers.splice(0)) {
    for (const c of w.clients) c.terminate();
    await new Promise<void>((resolve) => w.close(() => resolve()));
  }
});

/** A running source and what it emitted. */
interface Watch {
  readonly events: MarketEvent[];
  readonly books: Map<TokenId, OrderBook>;
  readonly errors: unknown[];
  connects: number;
}

function watch(options: Omit<WsSourceOptions, 'onError' | 'onConnect'>): Watch {
  const w: Watch = { events: [], books: new Map(), errors: [], connects: 0 };
  const source$ = wsMarketSource({ ...options, onError: (e) => w.errors.push(e), onConnect: () => w.connects++ });
  subs.push(
    source$.subscribe((e) => {
      w.events.push(e);
      if (e.type === 'book') w.books.set(e.book.tokenId, e.book);
    }),
  );
  return w;
}

async function setup(seed: number): Promise<{ rig: ChannelRig; markets: SandboxMarket[]; tokens: TokenId[] }> {
  const rig = await channelRig({ seed });
  rigs.push(rig);
  const markets = rig.world.markets.filter((m) => !m.closed).slice(0, 5);
  return { rig, markets, tokens: markets.flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]) };
}

/** Waits until the source's last book of every token has the engine's hash, then compares levels. */
async function expectBooksMatchEngine(rig: ChannelRig, w: Watch, tokens: readonly TokenId[]): Promise<void> {
  await until(() => tokens.every((t) => w.books.get(t)?.hash === rig.engine.quote(t).hash), 'books caught up');
  const now = rig.clock.now();
  for (const t of tokens) {
    const mine = w.books.get(t) as OrderBook;
    const engine = rig.engine.book(t, now);
    expect({ bids: mine.bids, asks: mine.asks, tick: mine.tickSize }, t).toEqual({ bids: engine.bids, asks: engine.asks, tick: engine.tickSize });
    expect(mine.bids.every((l, i) => i === 0 || mine.bids[i - 1]!.price > l.price)).toBe(true);
    expect(mine.asks.every((l, i) => i === 0 || mine.asks[i - 1]!.price < l.price)).toBe(true);
  }
}

/** Runs the flow for `seconds` of virtual time in one-second ticks. */
function run(rig: ChannelRig, seconds: number): void {
  if (!rig.flow.running) rig.flow.start();
  const start = rig.clock.now();
  for (let s = 1; s <= seconds; s++) rig.clock.advanceTo(start + s * 1_000);
}

describe('wsMarketSource', () => {
  it('keeps every book equal to the venue engine from snapshots and deltas, with venue and receipt times', async () => {
    const { rig, tokens } = await setup(31);
    const w = watch({ url: rig.base, tokenIds: tokens, clock: new LiveClock() });
    await until(() => tokens.every((t) => w.books.has(t)), 'snapshots');
    expect(w.books.get(tokens[0]!)!.tsEvent).toBe(T0);
    run(rig, 20);
    await expectBooksMatchEngine(rig, w, tokens);
    const books = w.events.filter((e) => e.type === 'book');
    expect(books.length).toBeGreaterThan(tokens.length * 3);
    for (const e of books) {
      expect(e.tsEvent).toBe(e.type === 'book' && e.book.tsEvent);
      expect(e.tsInit).toBeGreaterThan(T0); // the client's live clock, not the venue's virtual one
      expect(Object.isFrozen(e.type === 'book' && e.book)).toBe(true);
    }
    expect(w.errors).toEqual([]);
  });

  it('emits the trades of its tokens, in each token terms', async () => {
    const { rig, markets, tokens } = await setup(32);
    const w = watch({ url: rig.base, tokenIds: tokens, clock: new LiveClock() });
    await until(() => tokens.every((t) => w.books.has(t)), 'snapshots');
    run(rig, 20);
    await expectBooksMatchEngine(rig, w, tokens);
    const cids = new Set(markets.map((m) => m.conditionId));
    const engineTrades = rig.engine.trades().filter((t) => cids.has(t.conditionId));
    expect(engineTrades.length).toBeGreaterThan(0);
    // Each trade once per token of its market: YES first, then NO, each in its own terms.
    const expected = engineTrades.flatMap((t) => {
      const m = markets.find((x) => x.conditionId === t.conditionId) as SandboxMarket;
      return m.tokens.map((token) => {
        const own = token.tokenId === t.tokenId;
        return {
          type: 'trade',
          tokenId: token.tokenId,
          price: own ? t.price : 1_000_000 - t.price,
          size: t.size,
          side: own ? t.side : t.side === 'BUY' ? 'SELL' : 'BUY',
          tsEvent: t.matchTime,
        };
      });
    });
    const trades = w.events.filter((e) => e.type === 'trade').map(({ tsInit: _, ...rest }) => rest);
    expect(trades).toEqual(expected);
    // The books carry the last print.
    for (const t of tokens) {
      const last = rig.engine.quote(t).lastTradePrice;
      if (last !== undefined) expect(w.books.get(t)!.lastTradePrice).toBe(last);
    }
  });

  it('on a tick size change emits tickSize, drops the book, and rebuilds it from the next snapshot', async () => {
    const { rig, markets } = await setup(33);
    const m = markets.find((x) => x.tickSize === 10_000) as SandboxMarket;
    const tokens = [m.tokens[0].tokenId, m.tokens[1].tokenId];
    const w = watch({ url: rig.base, tokenIds: tokens, clock: new LiveClock() });
    await until(() => tokens.every((t) => w.books.has(t)), 'snapshots');
    run(rig, 5);
    await expectBooksMatchEngine(rig, w, tokens);
    const mark = w.events.length;
    rig.engine.setTickSize(m.conditionId, 1_000, rig.clock.now());
    await until(() => tokens.every((t) => w.events.slice(mark).some((e) => e.type === 'book' && e.book.tokenId === t && e.book.tickSize === 1_000)), 'new books');
    const after = w.events.slice(mark);
    for (const t of tokens) {
      const i = after.findIndex((e) => e.type === 'tickSize' && e.tokenId === t);
      expect(after[i]).toMatchObject({ type: 'tickSize', tokenId: t, tickSize: 1_000, tsEvent: rig.clock.now() });
      // Nothing for the token between the tick change and its new snapshot.
      const j = after.findIndex((e, k) => k > i && e.type === 'book' && e.book.tokenId === t);
      expect(after.slice(i + 1, j).some((e) => e.type === 'book' && e.book.tokenId === t)).toBe(false);
    }
    run(rig, 5);
    await expectBooksMatchEngine(rig, w, tokens);
  });

  it('reconnects after the server drops the socket, subscribes again and stays exact', async () => {
    const { rig, tokens } = await setup(34);
    const w = watch({ url: rig.base, tokenIds: tokens, clock: new LiveClock(), reconnectDelayMs: 10 });
    await until(() => tokens.every((t) => w.books.has(t)) && w.connects === 1, 'first connection');
    run(rig, 5);
    await expectBooksMatchEngine(rig, w, tokens);
    expect(rig.channel.dropAll()).toBe(1);
    await until(() => w.connects === 2 && rig.channel.stats().subscriptions === tokens.length, 'reconnected');
    run(rig, 10);
    await expectBooksMatchEngine(rig, w, tokens);
    // And once more, after a change made while it was away.
    rig.channel.dropAll();
    run(rig, 3);
    await until(() => w.connects === 3, 'reconnected again');
    await expectBooksMatchEngine(rig, w, tokens);
  });

  it('is cold: connects on subscribe, closes on unsubscribe; spreads tokens over connections', async () => {
    const { rig, tokens } = await setup(35);
    const source$ = wsMarketSource({ url: rig.base + '/', tokenIds: tokens, clock: new LiveClock(), maxAssetsPerConnection: 4 });
    await new Promise((r) => setTimeout(r, 20));
    expect(rig.channel.stats().connections).toBe(0);
    const seen = new Set<TokenId>();
    const sub = source$.subscribe((e) => {
      if (e.type === 'book') seen.add(e.book.tokenId);
    });
    await until(() => seen.size === tokens.length, 'snapshots');
    expect(rig.channel.stats()).toMatchObject({ connections: 3, subscriptions: tokens.length });
    sub.unsubscribe();
    await until(() => rig.channel.stats().connections === 0, 'closed');
  });

  it('sends PING every 10 s on its clock', async () => {
    const { rig, tokens } = await setup(36);
    const w = watch({ url: rig.base, tokenIds: tokens.slice(0, 2), clock: rig.clock });
    await until(() => w.books.size === 2, 'snapshots');
    for (let i = 1; i <= 3; i++) {
      rig.clock.advanceBy(9_999);
      await new Promise((r) => setTimeout(r, 20));
      expect(rig.channel.stats().pings).toBe(i - 1);
      rig.clock.advanceBy(1);
      await until(() => rig.channel.stats().pings === i, `ping ${i}`);
    }
    expect(w.connects).toBe(1);
  });

  it('drops a silent connection and reconnects (staleness on the clock)', async () => {
    const clock = new SimulatedClock(T0);
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    servers.push(wss);
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    let accepted = 0;
    wss.on('connection', () => accepted++);
    const w = watch({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/market`, tokenIds: ['1'], clock });
    await until(() => w.connects === 1, 'connected');
    for (let s = 1; s <= 4; s++) clock.advanceBy(10_000); // pings at 10, 20, 30; at 40 nothing heard for 40 s
    await until(() => w.errors.length === 1, 'stale');
    expect(w.errors[0]).toBeInstanceOf(TransportError);
    expect(String(w.errors[0])).toMatch(/no frame for 30000 ms/);
    // The close lands in a later I/O turn; keep virtual time moving until the first backoff (250 ms) has run.
    await until(() => {
      clock.advanceBy(50);
      return w.connects === 2 && accepted === 2;
    }, 'reconnected');
    expect(clock.now()).toBeLessThan(T0 + 40_000 + 5_000);
  });

  it('with confirmBooksMs, emits a quiet book again (same content and hash, newer receipt time) once a PONG shows the connection alive', async () => {
    const book = JSON.parse(readFileSync('/work/shared/fixtures/venue/ws_market_book.json', 'utf8'));
    const clock = new SimulatedClock(T0);
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    servers.push(wss);
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    let snapshots = 0;
    let pings = 0;
    wss.on('connection', (socket: ServerSocket) => {
      socket.on('message', (data) => {
        const text = (data as Buffer).toString('utf8');
        if (text === 'PING') {
          pings++;
          socket.send('PONG');
          return;
        }
        snapshots++;
        socket.send(JSON.stringify([book]));
      });
    });
    const w = watch({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, tokenIds: [book.asset_id], clock, confirmBooksMs: 3_000 });
    await until(() => w.books.size === 1, 'snapshot');
    const first = w.books.get(book.asset_id)!;
    expect(first.tsInit).toBe(T0);
    // nothing changes at the venue: the source pings (each tick without a frame) and confirms the book from a PONG
    await until(() => {
      clock.advanceBy(100);
      return w.events.filter((e) => e.type === 'book').length === 2;
    }, 'confirmed');
    const again = w.books.get(book.asset_id)!;
    expect(again.hash).toBe(first.hash);
    expect([again.bids, again.asks, again.tsEvent]).toEqual([first.bids, first.asks, first.tsEvent]);
    expect(again.tsInit).toBeGreaterThanOrEqual(T0 + 3_000);
    expect(again.tsInit).toBeLessThan(clock.now());
    expect(snapshots).toBe(1);
    expect(pings).toBeGreaterThan(0);
  });

  it('re-syncs (reconnects) after an undecodable message instead of keeping a wrong book', async () => {
    const book = JSON.parse(readFileSync('/work/shared/fixtures/venue/ws_market_book.json', 'utf8'));
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    servers.push(wss);
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    let n = 0;
    wss.on('connection', (socket: ServerSocket) => {
      n++;
      socket.on('message', (data) => {
        const msg = JSON.parse((data as Buffer).toString('utf8'));
        if (!Array.isArray(msg.assets_ids)) return;
        socket.send(JSON.stringify([book]));
        if (n === 1) socket.send(JSON.stringify({ event_type: 'price_change', market: book.market, timestamp: '1', price_changes: [{ asset_id: book.asset_id, price: 'x', side: 'BUY', size: '1' }] }));
      });
    });
    const w = watch({ url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, tokenIds: [book.asset_id], clock: new LiveClock(), reconnectDelayMs: 5 });
    await until(() => w.connects === 2 && w.events.filter((e) => e.type === 'book').length === 2, 'resynced');
    expect(w.errors[0]).toBeInstanceOf(DecodeError);
    expect(String(w.errors[0])).toMatch(/price_changes\[0\]\.price/);
    const last = w.books.get(book.asset_id)!;
    expect([last.bids.length, last.asks.length, last.hash]).toEqual([7, 57, book.hash]);
  });

  it('says why when the venue refuses the connection (1008: a per-caller cap), and tries again only after the longest backoff', async () => {
    const rig = await channelRig({ seed: 38, channel: { maxConnectionsPerCaller: 1 } });
    rigs.push(rig);
    const tokens = rig.world.markets.filter((m) => !m.closed).slice(0, 2).flatMap((m) => m.tokens.map((t) => t.tokenId));
    const holder = new WebSocket(rig.wsUrl);
    await new Promise((resolve) => holder.once('open', resolve));
    const pong = (): Promise<unknown> => {
      const answered = new Promise((resolve) => holder.once('message', resolve));
      holder.send('PING');
      return answered;
    };
    const clock = new SimulatedClock(T0);
    const w = watch({ url: rig.base, tokenIds: tokens, clock, reconnectDelayMs: 10, maxReconnectDelayMs: 5_000 });
    await until(() => w.errors.length === 1, 'refusal reported');
    expect(w.errors[0]).toBeInstanceOf(TransportError);
    expect(String(w.errors[0])).toContain('the venue closed the connection (1008): too many connections from 127.0.0.1: 1 open (max 1)');
    // no attempt before the longest backoff (the first backoff, 10 ms, would have tried dozens of times)
    for (let t = 100; t < 5_000; t += 100) {
      clock.advanceBy(100);
      await pong();
    }
    expect(w.errors).toHaveLength(1);
    expect(rig.channel.stats().refusedByCap).toBe(1);
    holder.close();
    await until(() => rig.channel.stats().connections === 0, 'slot freed');
    clock.advanceBy(100);
    // the refused socket had opened before the venue closed it: this is the second open
    await until(() => w.connects === 2 && tokens.every((t) => w.books.has(t)), 'connected after the backoff');
  });

  it('builds the channel URL from a base URL', () => {
    expect(marketChannelUrl('http://127.0.0.1:8765')).toBe('ws://127.0.0.1:8765/ws/market');
    expect(marketChannelUrl('https://venue.example/clob/')).toBe('wss://venue.example/clob/ws/market');
    expect(marketChannelUrl('wss://ws-subscriptions.example/ws/market')).toBe('wss://ws-subscriptions.example/ws/market');
    expect(() => marketChannelUrl('ftp://x')).toThrow(ConfigError);
    expect(() => marketChannelUrl('not a url')).toThrow(ConfigError);
  });
});
