import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { SANDBOX_PROFILES, type SandboxProfile } from '../../../src/sandbox/profile.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { rawDataText } from '../../../src/sandbox/ws/raw-data-text.ts';
import { WS_CLOSE_CAP_EXCEEDED } from '../../../src/sandbox/ws/caller-caps.ts';
import { WS_CLOSE_AUTH_FAILED } from '../../../src/sandbox/ws/user-channel.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { pickMarket, TestTrader, top, units } from '../trading/harness.ts';

/**
 * The sandbox's user channel (src/sandbox/ws/user-channel.ts) over loopback, in both profiles:
 * authenticated by an issued L2 key, per account and per market; our orders' PLACEMENT, UPDATE
 * and CANCELLATION and our trades' MATCHED -> MINED -> CONFIRMED (and RETRYING -> FAILED), each
 * at the engine's instant, the same trade id sent again at each status, re-sends by the fault knob,
 * and the admin route that drops every user socket.
 */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);

/** A user-channel socket that keeps every JSON message it receives. */
class Listener {
  readonly messages: Record<string, any>[] = [];
  readonly texts: string[] = [];
  closed: { code: number; reason: string } | undefined;
  readonly #waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = rawDataText(data);
      this.texts.push(text);
      if (text !== 'PONG') this.messages.push(JSON.parse(text));
      for (const w of this.#waiters.splice(0)) w();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.#waiters.splice(0)) w();
    });
  }

  static async open(url: string, subscribe?: Record<string, unknown>): Promise<Listener> {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/ws/user');
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const listener = new Listener(ws);
    if (subscribe !== undefined) {
      ws.send(JSON.stringify(subscribe));
      // the subscription is read before the PONG is sent: the socket is subscribed once it arrives
      await listener.ping();
    }
    return listener;
  }

  async ping(): Promise<void> {
    const pongs = this.texts.filter((t) => t === 'PONG').length;
    this.ws.send('PING');
    await this.until(() => this.texts.filter((t) => t === 'PONG').length > pongs || this.closed !== undefined);
  }

  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (done()) resolve();
        else this.#waiters.push(check);
      };
      this.#waiters.push(check);
    });
  }

  of(eventType: string): Record<string, any>[] {
    return this.messages.filter((m) => m['event_type'] === eventType);
  }

  close(): void {
    this.ws.terminate();
  }
}

function subscription(trader: TestTrader, markets: string[] = []): Record<string, unknown> {
  return { auth: { apiKey: trader.creds.apiKey, secret: trader.creds.secret, passphrase: trader.creds.passphrase }, type: 'user', markets };
}

describe.each(SANDBOX_PROFILES)('sandbox user channel (profile %s)', (profile: SandboxProfile) => {
  const clock = new SimulatedClock(NOW_MS);
  let sb: RunningSandbox;
  let alice: TestTrader;
  let bob: TestTrader;
  let market: SandboxMarket;

  beforeAll(async () => {
    sb = await startSandbox({
      flow: { enabled: false },
      seed: 4,
      markets: 200,
      events: 40,
      clock,
      profile,
      limits: { enabled: false },
      faults: { settlementMinedMs: 1_000, settlementConfirmedMs: 1_000, matchingDelayMs: 0 },
    });
    alice = await new TestTrader(sb.url, profile, clock, 0x41).login();
    bob = await new TestTrader(sb.url, profile, clock, 0x42).login();
    market = pickMarket(sb, { minSpreadTicks: 2 });
  });
  afterAll(async () => {
    await sb.close();
  });

  /** Bob rests a NO bid inside the spread (a YES ask); alice takes it with a FAK. */
  async function cross(size: number): Promise<{ bobOrder: string; aliceOrder: string }> {
    const { bid } = top(sb, market);
    const inside = bid + market.tickSize;
    const rest = await bob.l2('POST', '/order', bob.item(bob.sign({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size })));
    expect(rest.body).toMatchObject({ success: true, status: 'live' });
    const taken = await alice.l2('POST', '/orders', [alice.item(alice.sign({ market, side: 'BUY', price: units(inside), size, orderType: 'FAK' }))]);
    expect(taken.body[0]).toMatchObject({ success: true, status: 'matched' });
    return { bobOrder: rest.body.orderID, aliceOrder: taken.body[0].orderID };
  }

  it('refuses a subscription without valid credentials (1008, no secret in the reason)', async () => {
    const none = await Listener.open(sb.url, { type: 'user', markets: [] });
    await none.until(() => none.closed !== undefined);
    expect(none.closed).toMatchObject({ code: WS_CLOSE_AUTH_FAILED });
    const wrong = await Listener.open(sb.url, { ...subscription(alice), auth: { apiKey: alice.creds.apiKey, secret: 'not-the-secret', passphrase: alice.creds.passphrase } });
    await wrong.until(() => wrong.closed !== undefined);
    expect(wrong.closed?.code).toBe(WS_CLOSE_AUTH_FAILED);
    expect(wrong.closed?.reason).toMatch(/invalid api credentials/);
    expect(wrong.closed?.reason).not.toContain(alice.creds.secret);
    const stats = (await (await fetch(`${sb.url}/admin/ws/user`)).json()) as { refusedAuth: number };
    expect(stats.refusedAuth).toBeGreaterThanOrEqual(2);
  });

  it("pushes each party its own orders and the trade's statuses at the engine's instants, the same trade id each time", async () => {
    const a = await Listener.open(sb.url, subscription(alice, [market.conditionId]));
    const b = await Listener.open(sb.url, subscription(bob));
    const other = await Listener.open(sb.url, subscription(alice, ['0x' + '0'.repeat(64)]));
    const matchAt = clock.now();
    const { bobOrder, aliceOrder } = await cross(20);
    await b.until(() => b.of('trade').length === 1 && b.of('order').length === 2);
    await a.until(() => a.of('trade').length === 1);

    // bob: PLACEMENT when his order rests, UPDATE when it is matched, then the trade as maker
    expect(b.of('order').map((m) => [m['type'], m['status'], m['size_matched']])).toEqual([
      ['PLACEMENT', 'LIVE', '0'],
      ['UPDATE', 'MATCHED', '20'],
    ]);
    expect(b.of('order')[0]).toMatchObject({ id: bobOrder, owner: bob.apiKey, market: market.conditionId, asset_id: market.tokens[1].tokenId, side: 'BUY', original_size: '20' });
    const [bobTrade] = b.of('trade');
    expect(bobTrade).toMatchObject({ event_type: 'trade', type: 'TRADE', status: 'MATCHED', trader_side: 'MAKER', taker_order_id: aliceOrder, market: market.conditionId });
    expect(bobTrade!['maker_orders']).toEqual([expect.objectContaining({ order_id: bobOrder, owner: bob.apiKey, matched_amount: '20' })]);
    // alice: her FAK never rested (no PLACEMENT); the trade as taker, at the match instant
    const [aliceTrade] = a.of('trade');
    expect(aliceTrade).toMatchObject({ id: bobTrade!['id'], status: 'MATCHED', trader_side: 'TAKER', side: 'BUY', size: '20', timestamp: String(matchAt) });
    expect(a.of('order').filter((m) => m['type'] === 'PLACEMENT')).toEqual([]);

    // settlement: each status when due on the sandbox clock, without another call to the venue
    clock.advanceBy(1_500);
    await a.until(() => a.of('trade').length === 2);
    await b.until(() => b.of('trade').length === 2);
    clock.advanceBy(1_500);
    await a.until(() => a.of('trade').length === 3);
    expect(a.of('trade').map((m) => m['status'])).toEqual(['MATCHED', 'MINED', 'CONFIRMED']);
    expect(new Set(a.of('trade').map((m) => m['id']))).toEqual(new Set([bobTrade!['id']]));
    const times = a.of('trade').map((m) => Number(m['timestamp']));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(500);
    expect(times[2]!).toBeGreaterThan(times[1]!);
    // a socket subscribed to another market hears nothing of this one
    await other.ping();
    expect(other.messages).toEqual([]);
    for (const l of [a, b, other]) l.close();
  });

  it('says CANCELLATION on a cancel, re-sends trades by the fault knob, and the admin drop closes every user socket', async () => {
    const b = await Listener.open(sb.url, subscription(bob));
    const rest = await bob.l2('POST', '/order', bob.item(bob.sign({ market, outcome: 1, side: 'BUY', price: 0.01, size: 10 })));
    const id = rest.body.orderID as string;
    await bob.l2('DELETE', '/order', { orderID: id });
    await b.until(() => b.of('order').length === 2);
    expect(b.of('order').map((m) => [m['id'], m['type'], m['status']])).toEqual([
      [id, 'PLACEMENT', 'LIVE'],
      [id, 'CANCELLATION', 'CANCELED'],
    ]);

    await fetch(`${sb.url}/admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wsUserResendRate: 1 }) });
    try {
      await cross(10);
      await b.until(() => b.of('trade').length === 2);
      const [first, again] = b.of('trade');
      expect(again).toEqual(first);
    } finally {
      await fetch(`${sb.url}/admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wsUserResendRate: 0 }) });
    }

    const dropped = (await (await fetch(`${sb.url}/admin/ws/user/drop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { dropped: number };
    expect(dropped.dropped).toBeGreaterThanOrEqual(1);
    await b.until(() => b.closed !== undefined);
    // the market channel is not touched, and a new user socket subscribes as before
    const again = await Listener.open(sb.url, subscription(bob));
    expect(again.closed).toBeUndefined();
    again.close();
  });
});

describe('sandbox user channel: caps per caller (issue 28 point 6)', () => {
  const clock = new SimulatedClock(NOW_MS);
  let sb: RunningSandbox;
  let alice: TestTrader;

  beforeAll(async () => {
    sb = await startSandbox({ flow: { enabled: false }, seed: 4, markets: 20, events: 5, clock, profile: 'polymarket', limits: { enabled: false }, ws: { maxConnectionsPerCaller: 2, maxSubscriptionsPerCaller: 3 } });
    alice = await new TestTrader(sb.url, 'polymarket', clock, 0x41).login();
  });
  afterAll(async () => {
    await sb.close();
  });

  const closeOf = (ws: WebSocket): Promise<{ code: number; reason: string }> => new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const stats = async (): Promise<Record<string, number>> => (await (await fetch(`${sb.url}/admin/ws/user`)).json()) as Record<string, number>;

  it('closes a connection past maxConnectionsPerCaller (authenticated or not) with 1008 and a reason; a freed slot is taken again', async () => {
    const a = await Listener.open(sb.url);
    const b = await Listener.open(sb.url, subscription(alice));
    const third = new WebSocket(`${sb.url.replace(/^http/, 'ws')}/ws/user`);
    expect(await closeOf(third)).toEqual({ code: WS_CLOSE_CAP_EXCEEDED, reason: 'too many connections from 127.0.0.1: 2 open (max 2)' });
    expect(await stats()).toMatchObject({ connections: 2, refusedByCap: 1 });
    a.close();
    await b.ping();
    while ((await stats())['connections'] !== 1) await new Promise((r) => setImmediate(r));
    const again = await Listener.open(sb.url, subscription(alice));
    expect(again.closed).toBeUndefined();
    for (const l of [b, again]) l.close();
    while ((await stats())['connections'] !== 0) await new Promise((r) => setImmediate(r));
  });

  it('holds only markets of the world, counts them against maxSubscriptionsPerCaller over all connections, and closes the one past it', async () => {
    const [m1, m2, m3, m4, m5] = sb.world.markets.map((m) => m.conditionId);
    const madeUp = ['0x' + '1'.repeat(64), '0x' + '2'.repeat(64), 'not a market'];
    const a = await Listener.open(sb.url, subscription(alice, [m1!, m2!, ...madeUp]));
    expect(a.closed).toBeUndefined();
    expect(await stats()).toMatchObject({ subscriptions: 2 }); // the made-up ids are not held
    const b = new WebSocket(`${sb.url.replace(/^http/, 'ws')}/ws/user`);
    await new Promise((resolve) => b.once('open', resolve));
    const refused = closeOf(b);
    b.send(JSON.stringify(subscription(alice, [m3!, m4!])));
    expect(await refused).toEqual({ code: WS_CLOSE_CAP_EXCEEDED, reason: 'too many subscriptions from 127.0.0.1: 2 + 2 (max 3)' });
    await a.ping();
    expect(a.closed).toBeUndefined();
    // unsubscribing gives the room back to the caller's other connections
    a.ws.send(JSON.stringify({ operation: 'unsubscribe', markets: [m1] }));
    const c = await Listener.open(sb.url, subscription(alice, [m3!, m4!]));
    expect(c.closed).toBeUndefined();
    expect(await stats()).toMatchObject({ connections: 2, subscriptions: 3 });
    // a later subscribe past the cap closes that connection
    a.ws.send(JSON.stringify({ operation: 'subscribe', markets: [m5] }));
    await a.until(() => a.closed !== undefined);
    expect(a.closed).toEqual({ code: WS_CLOSE_CAP_EXCEEDED, reason: 'too many subscriptions from 127.0.0.1: 3 + 1 (max 3)' });
    await c.ping();
    expect(c.closed).toBeUndefined();
    c.close();
  });
});
