import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';

/**
 * Markets created while the sandbox runs (seeded timer and admin route) and the fault that
 * silences the WS market channel, over loopback.
 */

const sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.close();
});

async function start(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sb = await startSandbox({ port: 0, markets: 3, events: 3, flow: { enabled: false }, ...options });
  sandboxes.push(sb);
  return sb;
}

interface WireMarket {
  condition_id: string;
  active: boolean;
  closed: boolean;
  accepting_orders: boolean;
  tokens: { token_id: string }[];
}

async function listed(sb: RunningSandbox): Promise<WireMarket[]> {
  return ((await (await fetch(`${sb.url}/markets`)).json()) as { data: WireMarket[] }).data;
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('markets created while the sandbox runs', () => {
  it('a seeded timer lists new open markets with liquidity, the same ones for the same seed', async () => {
    const a = await start({ seed: 61, newMarkets: { everyMs: 150, max: 2 } });
    const b = await start({ seed: 61, newMarkets: { everyMs: 150, max: 2 } });
    await until('two new markets in each', async () => (await listed(a)).length === 5 && (await listed(b)).length === 5);
    await new Promise((r) => setTimeout(r, 400));
    const newA = (await listed(a)).slice(3);
    expect(newA).toHaveLength(2); // max 2
    expect(newA.map((m) => m.condition_id)).toEqual((await listed(b)).slice(3).map((m) => m.condition_id));
    for (const m of newA) {
      expect(m).toMatchObject({ active: true, closed: false, accepting_orders: true });
      const books = (await (await fetch(`${a.url}/books`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(m.tokens.map((t) => ({ token_id: t.token_id }))) })).json()) as { bids: unknown[]; asks: unknown[] }[];
      expect(books).toHaveLength(2);
      expect(books.every((x) => x.bids.length > 0 && x.asks.length > 0)).toBe(true);
    }
  });

  it('POST /admin/markets/create: behind the admin token, checks its body, and the market is on the WS channel', async () => {
    const token = 'market-creation-admin-token';
    const sb = await start({ seed: 62, adminToken: token });
    const post = (body: unknown, auth = true) =>
      fetch(`${sb.url}/admin/markets/create`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
    expect((await post({}, false)).status).toBe(401);
    expect((await post({ tags: ['no-such-tag'] })).status).toBe(400);
    expect((await post({ colour: 'red' })).status).toBe(400);
    const res = await post({ question: 'Will a created market trade?', tags: ['crypto'] });
    expect(res.status).toBe(200);
    const created = (await res.json()) as { conditionId: string; question: string; tags: string[]; tokens: { tokenId: string }[] };
    expect(created).toMatchObject({ question: 'Will a created market trade?', tags: ['crypto'] });
    expect((await listed(sb)).at(-1)!.condition_id).toBe(created.conditionId);
    const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/ws/market`);
    const frames: string[] = [];
    ws.on('message', (d: Buffer) => frames.push(d.toString('utf8')));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ assets_ids: [created.tokens[0]!.tokenId], type: 'market' }));
    await until('a snapshot', () => Promise.resolve(frames.some((f) => f.includes('"event_type":"book"'))));
    ws.terminate();
  });

  it('the fault wsSilent keeps the channel open and answering PING, with no market message', async () => {
    const sb = await start({ seed: 63, faults: { wsSilent: true } });
    const tokenId = sb.world.markets.find((m) => !m.closed)!.tokens[0].tokenId;
    const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/ws/market`);
    const frames: string[] = [];
    ws.on('message', (d: Buffer) => frames.push(d.toString('utf8')));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ assets_ids: [tokenId], type: 'market' }));
    ws.send('PING');
    await until('PONG', () => Promise.resolve(frames.includes('PONG')));
    await new Promise((r) => setTimeout(r, 200));
    expect(frames).toEqual(['PONG']);
    // lifted: a resubscription gets its snapshot
    await fetch(`${sb.url}/admin/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wsSilent: false }) });
    ws.send(JSON.stringify({ assets_ids: [tokenId], operation: 'unsubscribe' }));
    ws.send(JSON.stringify({ assets_ids: [tokenId], operation: 'subscribe' }));
    await until('a snapshot', () => Promise.resolve(frames.some((f) => f.includes('"event_type":"book"'))));
    ws.terminate();
  });
});
