import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox } from '../../../src/sandbox/server.ts';
import { WS_CLOSE_CAP_EXCEEDED } from '../../../src/sandbox/ws/caller-caps.ts';
import { TurnBudget } from '../../../src/sandbox/ws/turn-budget.ts';
import { channelRig, TestClient, until, type ChannelRig } from './helpers.ts';

/**
 * A market channel one caller cannot stall (issue 28 point 6): per-caller caps on connections and
 * subscriptions, closed with 1008 and a reason naming the cap; snapshots sent a slice per turn of
 * the event loop; and the sandbox's HTTP side closes a request whose body never completes.
 * Everything over loopback.
 */

const rigs: ChannelRig[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const r of rigs.splice(0)) await r.close();
});

async function setup(channel: Parameters<typeof channelRig>[0] = {}): Promise<ChannelRig> {
  const rig = await channelRig(channel);
  rigs.push(rig);
  return rig;
}
async function open(rig: ChannelRig): Promise<TestClient> {
  const c = await TestClient.open(rig.wsUrl);
  clients.push(c);
  return c;
}
/** A raw client that keeps the close code and reason. */
function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}
const tokensOf = (rig: ChannelRig): string[] => rig.world.markets.filter((m) => !m.closed).flatMap((m) => m.tokens.map((t) => t.tokenId));

describe('per-caller caps', () => {
  it('closes a connection past maxConnectionsPerCaller with 1008 and a reason; a freed slot is taken again', async () => {
    const rig = await setup({ channel: { maxConnectionsPerCaller: 2 } });
    const a = await open(rig);
    await open(rig);
    const third = new WebSocket(rig.wsUrl);
    expect(await closeOf(third)).toEqual({ code: WS_CLOSE_CAP_EXCEEDED, reason: 'too many connections from 127.0.0.1: 2 open (max 2)' });
    expect(rig.channel.stats()).toMatchObject({ connections: 2, refusedByCap: 1 });
    await a.close();
    await until(() => rig.channel.stats().connections === 1, 'slot freed');
    const again = await open(rig);
    await again.sync();
    expect(again.closed).toBe(false);
  });

  it('closes the connection whose subscription passes maxSubscriptionsPerCaller (over all its connections); the others go on', async () => {
    const rig = await setup({ channel: { maxSubscriptionsPerCaller: 5 } });
    const tokens = tokensOf(rig);
    const a = await open(rig);
    a.send({ assets_ids: tokens.slice(0, 4), type: 'market' });
    await a.sync();
    expect(a.messages().filter((m) => m['event_type'] === 'book')).toHaveLength(4);
    const b = new WebSocket(rig.wsUrl);
    await new Promise((resolve) => b.once('open', resolve));
    const closed = closeOf(b);
    b.send(JSON.stringify({ assets_ids: tokens.slice(4, 6), type: 'market' }));
    expect(await closed).toEqual({ code: WS_CLOSE_CAP_EXCEEDED, reason: 'too many subscriptions from 127.0.0.1: 4 + 2 (max 5)' });
    expect(rig.channel.stats()).toMatchObject({ connections: 1, subscriptions: 4, refusedByCap: 1 });
    await a.sync();
    expect(a.closed).toBe(false);
    // unsubscribing frees room for another connection of the same caller
    a.send({ assets_ids: tokens.slice(0, 2), operation: 'unsubscribe' });
    const c = await open(rig);
    c.send({ assets_ids: tokens.slice(4, 7), type: 'market' });
    await c.sync();
    expect(c.messages().filter((m) => m['event_type'] === 'book')).toHaveLength(3);
    expect(rig.channel.stats().subscriptions).toBe(5);
  });

  it('counts an asset named twice in one message once against maxSubscriptionsPerCaller', async () => {
    const rig = await setup({ channel: { maxSubscriptionsPerCaller: 3 } });
    const tokens = tokensOf(rig);
    const a = await open(rig);
    a.send({ assets_ids: [tokens[0], tokens[0], tokens[1]], type: 'market' });
    await a.sync();
    expect(rig.channel.stats().subscriptions).toBe(2);
    // the third asset fits the cap of 3
    a.send({ assets_ids: [tokens[2]], type: 'market' });
    await a.sync();
    expect(a.closed).toBe(false);
    expect(a.messages().filter((m) => m['event_type'] === 'book')).toHaveLength(3);
    expect(rig.channel.stats()).toMatchObject({ subscriptions: 3, refusedByCap: 0 });
  });

  it('the sandbox takes the caps from SandboxOptions.ws and refuses values out of range', async () => {
    await expect(startSandbox({ ws: { maxConnectionsPerCaller: 0 } })).rejects.toThrow(/sandbox\.ws\.maxConnectionsPerCaller: must be an integer in 1\.\.1000000, was 0/);
    const sb = await startSandbox({ flow: { enabled: false }, markets: 10, events: 3, ws: { maxConnectionsPerCaller: 1 } });
    try {
      const url = `${sb.url.replace('http', 'ws')}/ws/market`;
      const first = new WebSocket(url);
      await new Promise((resolve) => first.once('open', resolve));
      expect((await closeOf(new WebSocket(url))).code).toBe(WS_CLOSE_CAP_EXCEEDED);
      first.terminate();
    } finally {
      await sb.close();
    }
  });
});

describe('snapshots without blocking', () => {
  it('sends the snapshots of many subscribers a slice per turn of the event loop, every one of them complete', async () => {
    const rig = await setup({ markets: 120, events: 20 });
    const tokens = tokensOf(rig);
    const subscribers = await Promise.all(Array.from({ length: 12 }, () => open(rig)));
    for (const s of subscribers) s.send({ assets_ids: tokens, type: 'market' });
    for (const s of subscribers) await until(() => s.frames.some(Array.isArray), 'snapshot');
    for (const s of subscribers) expect(s.messages().filter((m) => m['event_type'] === 'book')).toHaveLength(tokens.length);
    // 12 snapshots of ~200 books each: more than one slice of 256 KiB, so several turns
    expect(rig.channel.stats().snapshotSlices).toBeGreaterThan(1);
  });
});

describe('a connection that goes', () => {
  it("frees its caller's counts at once and leaves its assets' deltas a step at a time; the others keep theirs", async () => {
    // one step a turn, so the departure's steps can be seen; 240 assets: two steps of 200
    const rig = await setup({ markets: 140, events: 20, channel: { budget: new TurnBudget(0), maxSubscriptionsPerCaller: 2 * 240 } });
    const tokens = tokensOf(rig).slice(0, 240);
    expect(tokens).toHaveLength(240);
    const stays = await open(rig);
    const goes = await open(rig);
    for (const c of [stays, goes]) c.send({ assets_ids: tokens, type: 'market' });
    for (const c of [stays, goes]) await until(() => c.frames.some(Array.isArray), 'snapshot');
    expect(rig.channel.stats()).toMatchObject({ connections: 2, subscriptions: 480, departing: 0 });
    await goes.close();
    await until(() => rig.channel.stats().connections === 1, 'the close seen');
    // the caller's room is back at once: a new connection takes the whole of it again
    expect(rig.channel.stats().subscriptions).toBe(240);
    const next = await open(rig);
    next.send({ assets_ids: tokens, type: 'market' });
    await until(() => next.frames.some(Array.isArray), 'snapshot of the new connection');
    expect(next.closed).toBe(false);
    await until(() => rig.channel.stats().departing === 0, 'the departure done');
    // deltas still reach the connections that stayed
    const before = stays.frames.length;
    rig.flow.start();
    rig.clock.advanceTo(rig.clock.now() + 10_000);
    await until(() => stays.messages().slice(before).some((m) => m['event_type'] === 'price_change'), 'a delta after the departure');
    expect(rig.channel.stats()).toMatchObject({ connections: 2, subscriptions: 480, departing: 0 });
  });
});

describe('request bodies', () => {
  it('closes a request whose body stops arriving after requestTimeoutMs (408), and keeps answering others', async () => {
    const sb = await startSandbox({ flow: { enabled: false }, markets: 10, events: 3, requestTimeoutMs: 300 });
    try {
      const port = Number(new URL(sb.url).port);
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('POST /books HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[{"token_id":');
      await ended;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect((await fetch(`${sb.url}/time`)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });

  it('refuses a negative requestTimeoutMs', async () => {
    await expect(startSandbox({ requestTimeoutMs: -1 })).rejects.toThrow(/sandbox\.requestTimeoutMs: must be an integer in 0\.\.3600000, was -1/);
  });
});
