import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { channelRig, TestClient, until, type ChannelRig } from './helpers.ts';

/**
 * WebSocket upgrades are admitted a slice per turn of the event loop (issue 28 point 6, the
 * connect burst): the handshake is not done in the poll of the socket that asked for it, every
 * upgrade of a burst still opens and gets its snapshot, and a socket that fails or is given up
 * while it waits neither crashes the server nor holds a connection slot.
 */

const rigs: ChannelRig[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const r of rigs.splice(0)) await r.close();
});

async function setup(): Promise<ChannelRig> {
  const rig = await channelRig({ markets: 60, events: 10 });
  rigs.push(rig);
  return rig;
}
const tokensOf = (rig: ChannelRig): string[] => rig.world.markets.filter((m) => !m.closed).flatMap((m) => m.tokens.map((t) => t.tokenId));
/** Resolves with how the client's attempt ended: 'open', or the close code / error. */
function outcome(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('error', (e) => resolve(`error: ${e.message}`));
    ws.once('close', (code) => resolve(`close ${code}`));
  });
}

describe('upgrade admission', () => {
  it('does the handshake in a later turn, not in the poll that brought the request', async () => {
    const rig = await setup();
    const seen: number[] = [];
    // runs right after the channel's own upgrade handler, in the same emit
    rig.server.on('upgrade', () => seen.push(rig.channel.stats().connections));
    const c = await TestClient.open(rig.wsUrl);
    clients.push(c);
    expect(seen).toEqual([0]);
    expect(rig.channel.stats().connections).toBe(1);
  });

  it('admits every upgrade of a burst, and each one gets its whole snapshot', async () => {
    const rig = await setup();
    const tokens = tokensOf(rig);
    const burst = await Promise.all(Array.from({ length: 60 }, () => TestClient.open(rig.wsUrl)));
    clients.push(...burst);
    for (const c of burst) c.send({ assets_ids: tokens, type: 'market' });
    for (const c of burst) await until(() => c.frames.some(Array.isArray), 'snapshot');
    for (const c of burst) expect(c.messages().filter((m) => m['event_type'] === 'book')).toHaveLength(tokens.length);
    expect(rig.channel.stats()).toMatchObject({ connections: 60, subscriptions: 60 * tokens.length });
  });

  it('a socket that fails or closes while it waits is dropped; the server goes on', async () => {
    const rig = await setup();
    let n = 0;
    rig.server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
      n++;
      if (n === 1) socket.destroy(new Error('reset while queued'));
      if (n === 2) socket.destroy();
    });
    const failed = new WebSocket(rig.wsUrl);
    expect(await outcome(failed)).toMatch(/^error: socket hang up|^close 1006/);
    const closed = new WebSocket(rig.wsUrl);
    expect(await outcome(closed)).toMatch(/^error: socket hang up|^close 1006/);
    const c = await TestClient.open(rig.wsUrl);
    clients.push(c);
    await c.sync();
    expect(rig.channel.stats().connections).toBe(1);
  });

  it('a channel closed while upgrades wait destroys them instead of opening them', async () => {
    const rig = await setup();
    rig.server.on('upgrade', () => rig.channel.close());
    const ws = new WebSocket(rig.wsUrl);
    expect(await outcome(ws)).toMatch(/^error: socket hang up|^close 1006/);
    expect(rig.channel.stats().connections).toBe(0);
  });
});
