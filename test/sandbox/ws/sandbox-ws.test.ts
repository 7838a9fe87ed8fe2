import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, SimulatedClock } from '../../../src/core/clock.ts';
import type { OrderBook, TokenId } from '../../../src/core/types.ts';
import { wsMarketSource } from '../../../src/data/ws-source.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { decodeOrderBooksText } from '../../../src/venue/decode.ts';
import { call } from '../helpers.ts';
import { TestClient, until } from './helpers.ts';

/** The flow and the market channel wired into the sandbox server. */

const T0 = Date.UTC(2026, 10, 3);
const running: RunningSandbox[] = [];
const subs: Subscription[] = [];
afterEach(async () => {
  for (const s of subs.splice(0)) s.unsubscribe();
  for (const sb of running.splice(0)) await sb.close();
});

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sb = await startSandbox({ markets: 30, events: 8, limits: { enabled: false }, ...options });
  running.push(sb);
  return sb;
}

async function postBooks(sb: RunningSandbox, tokens: readonly TokenId[], path = '/books'): Promise<OrderBook[]> {
  const res = await fetch(sb.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(tokens.map((token_id) => ({ token_id }))),
  });
  expect(res.status).toBe(200);
  return decodeOrderBooksText(await res.text(), 0);
}

describe('sandbox: flow and ws market channel', () => {
  it('runs the flow on the sandbox clock, and the WS books equal POST /books exactly', async () => {
    const clock = new SimulatedClock(T0);
    const sb = await sandbox({ seed: 41, clock });
    const open = sb.world.markets.filter((m) => !m.closed).slice(0, 6);
    const tokens = open.flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]);
    const books = new Map<TokenId, OrderBook>();
    let connects = 0;
    subs.push(
      wsMarketSource({ url: sb.url + '/clob', tokenIds: tokens, clock: new LiveClock(), onConnect: () => connects++ }).subscribe((e) => {
        if (e.type === 'book') books.set(e.book.tokenId, e.book);
      }),
    );
    await until(() => tokens.every((t) => books.has(t)), 'snapshots');
    const start = await postBooks(sb, tokens);

    for (let s = 1; s <= 30; s++) clock.advanceTo(T0 + s * 1_000);
    const flow = (await call(`${sb.url}/admin/flow`)).body;
    expect(flow).toMatchObject({ enabled: true, running: true, intensity: 1 });
    expect(flow.visits).toBeGreaterThan(0);
    expect(flow.trades).toBeGreaterThan(0);

    await until(() => {
      const engine = tokens.map((t) => sb.engine.quote(t).hash);
      return tokens.every((t, i) => books.get(t)?.hash === engine[i]);
    }, 'ws caught up');
    const rest = await postBooks(sb, tokens);
    for (const b of rest) {
      const mine = books.get(b.tokenId) as OrderBook;
      expect({ bids: mine.bids, asks: mine.asks, hash: mine.hash, tick: mine.tickSize, last: mine.lastTradePrice }).toEqual({
        bids: b.bids,
        asks: b.asks,
        hash: b.hash,
        tick: b.tickSize,
        last: b.lastTradePrice,
      });
    }
    // The flow moved these books.
    expect(rest.filter((b, i) => b.hash !== start[i]!.hash).length).toBeGreaterThan(tokens.length / 2);
    expect(connects).toBe(1);
    const ws = (await call(`${sb.url}/admin/ws`)).body;
    expect(ws).toMatchObject({ connections: 1, subscriptions: tokens.length });
  });

  it('reconnects when the sandbox drops the sockets (POST /admin/ws/drop)', async () => {
    const clock = new SimulatedClock(T0);
    const sb = await sandbox({ seed: 42, clock });
    const m = sb.world.markets.find((x) => !x.closed)!;
    const tokens = [m.tokens[0].tokenId, m.tokens[1].tokenId];
    const books = new Map<TokenId, OrderBook>();
    let connects = 0;
    subs.push(
      wsMarketSource({ url: sb.url, tokenIds: tokens, clock: new LiveClock(), reconnectDelayMs: 10, onConnect: () => connects++ }).subscribe((e) => {
        if (e.type === 'book') books.set(e.book.tokenId, e.book);
      }),
    );
    await until(() => books.size === 2 && connects === 1, 'connected');
    expect((await call(`${sb.url}/admin/ws/drop`, { json: {} })).body).toEqual({ dropped: 1 });
    for (let s = 1; s <= 10; s++) clock.advanceTo(T0 + s * 1_000);
    await until(() => connects === 2, 'reconnected');
    await until(() => tokens.every((t) => books.get(t)?.hash === sb.engine.quote(t).hash), 'caught up');
  });

  it('without flow the books stay put; admin says so', async () => {
    const clock = new SimulatedClock(T0);
    const sb = await sandbox({ seed: 43, clock, flow: { enabled: false } });
    const tokens = sb.world.markets.filter((m) => !m.closed).slice(0, 4).map((m) => m.tokens[0].tokenId);
    const before = await postBooks(sb, tokens);
    clock.advanceTo(T0 + 60_000);
    const after = await postBooks(sb, tokens);
    expect(after.map((b) => b.hash)).toEqual(before.map((b) => b.hash));
    expect(sb.engine.trades()).toEqual([]);
    expect((await call(`${sb.url}/admin/flow`)).body).toEqual({ enabled: false });
  });

  it('the same seed and clock give the same books in two sandboxes', async () => {
    const [c1, c2] = [new SimulatedClock(T0), new SimulatedClock(T0)];
    const a = await sandbox({ seed: 44, clock: c1, flow: { intensity: 2 } });
    const b = await sandbox({ seed: 44, clock: c2, flow: { intensity: 2 } });
    for (let s = 1; s <= 20; s++) {
      c1.advanceTo(T0 + s * 1_000);
      c2.advanceTo(T0 + s * 1_000);
    }
    const tokens = a.world.markets.filter((m) => !m.closed).map((m) => m.tokens[0].tokenId);
    expect((await postBooks(b, tokens)).map((x) => [x.hash, x.bids, x.asks])).toEqual((await postBooks(a, tokens)).map((x) => [x.hash, x.bids, x.asks]));
    expect((await call(`${b.url}/admin/flow`)).body).toEqual((await call(`${a.url}/admin/flow`)).body);
  });

  it('closes with WebSocket clients still connected', async () => {
    const sb = await sandbox({ seed: 45 });
    const c = await TestClient.open(sb.url.replace('http', 'ws') + '/ws/market');
    c.send({ assets_ids: [sb.world.markets[0]!.tokens[0].tokenId], type: 'market' });
    await c.sync();
    await sb.close();
    running.splice(running.indexOf(sb), 1);
    await until(() => c.closed, 'client closed');
  });
});
