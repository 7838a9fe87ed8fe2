import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, sandboxContextOf, startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';

/**
 * The sandbox hooks the e2e scenarios use: `POST /admin/tick-size` (a market's tick changes for
 * new orders and in the books) and the `routes` fault setting (the per-request knobs on some
 * routes only, e.g. failing heartbeats while books are served).
 */

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 3, markets: 6, events: 2, flow: { enabled: false } });
});
afterAll(async () => {
  await sb.close();
});

interface WireBook {
  tick_size: string;
  hash: string;
}

async function book(tokenId: string): Promise<WireBook> {
  return (await (await fetch(`${sb.url}/book?token_id=${tokenId}`)).json()) as WireBook;
}

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() };
}

describe('POST /admin/tick-size', () => {
  it('changes the tick the books show and new orders are checked against', async () => {
    const market = sb.world.markets.find((m) => m.acceptingOrders && !m.closed && m.tickSize === 1_000)!;
    expect(market).toBeDefined();
    const token = market.tokens[0].tokenId;
    const before = await book(token);
    expect(before.tick_size).toBe('0.001');

    const answer = await post('/admin/tick-size', { conditionId: market.conditionId, tickSize: '0.01' });
    expect(answer).toEqual({ status: 200, body: { conditionId: market.conditionId, tickSize: '0.01', previousTickSize: '0.001' } });
    expect(sb.engine.market(market.conditionId)!.tickSize).toBe(10_000);
    const after = await book(token);
    expect(after.tick_size).toBe('0.01');
    expect(after.hash).not.toBe(before.hash);

    // back, and a number is taken as well as a string
    expect((await post('/admin/tick-size', { conditionId: market.conditionId, tickSize: 0.001 })).body).toMatchObject({ tickSize: '0.001', previousTickSize: '0.01' });
  });

  it('answers 400 for a bad tick or body and 404 for an unknown market', async () => {
    const market = sb.world.markets[0]!;
    for (const tickSize of ['abc', '0.0000001', '0', '0.7', undefined, true]) {
      const answer = await post('/admin/tick-size', { conditionId: market.conditionId, tickSize });
      expect(answer.status, String(tickSize)).toBe(400);
      expect(answer.body.error).toMatch(/tickSize/);
    }
    expect((await post('/admin/tick-size', { tickSize: '0.01' })).status).toBe(400);
    const unknown = await post('/admin/tick-size', { conditionId: '0x' + '0'.repeat(64), tickSize: '0.01' });
    expect(unknown.status).toBe(404);
    expect(sb.engine.market(market.conditionId)!.tickSize).toBe(market.tickSize);
  });

  it('answers loopback callers only', async () => {
    const app = buildSandboxApp({ markets: 4, events: 2, flow: { enabled: false } });
    try {
      const ctx = sandboxContextOf(app);
      const market = ctx.world.markets[0]!;
      const far = await app.inject({ method: 'POST', url: '/admin/tick-size', payload: { conditionId: market.conditionId, tickSize: '0.1' }, remoteAddress: '10.0.0.8' });
      expect(far.statusCode).toBe(403);
      expect(ctx.engine.market(market.conditionId)!.tickSize).toBe(market.tickSize);
    } finally {
      await app.close();
    }
  });
});

describe('fault setting `routes`', () => {
  it('applies the per-request knobs to the listed routes only', async () => {
    const token = sb.world.markets[0]!.tokens[0].tokenId;
    const set = await post('/admin/faults', { errorRate: 1, routes: ['postHeartbeatV1', 'postHeartbeatV1'] });
    expect(set.body).toMatchObject({ errorRate: 1, routes: ['postHeartbeatV1'] });
    try {
      // a beat fails before it is even authenticated; other routes answer as usual
      const beat = await post('/v1/heartbeats', { heartbeat_id: '' });
      expect(beat.status).toBe(500);
      expect((await fetch(`${sb.url}/book?token_id=${token}`)).status).toBe(200);
    } finally {
      await post('/admin/faults', { errorRate: 0, routes: [] });
    }
    // unscoped again: a beat without credentials is refused for them, not failed
    expect((await post('/v1/heartbeats', { heartbeat_id: '' })).status).toBe(401);
  });

  it('refuses an unknown route id with a 400 naming the key', async () => {
    const answer = await post('/admin/faults', { routes: ['postOrderz'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^faults\.routes/);
    expect(sb.faults.settings.routes).toEqual([]);
  });
});
