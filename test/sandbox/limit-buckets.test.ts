import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { FAILED_AUTH_WINDOW } from '../../src/sandbox/rate-limiter.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { pickMarket, TestTrader, units } from './trading/harness.ts';

/**
 * Who pays for a request: the API key once authenticated, the IP address on public routes, and a
 * failed authentication the IP address's own failed-auth bucket, so callers that share an address
 * (every client of a local sandbox) do not use up each other's budget. Real HTTP on loopback,
 * part 8's unmodified table, the sandbox clock held still so no window slides unless a test says so.
 */

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/** One request from a chosen loopback source address; resolves with the status and the body text. */
function from(localAddress: string, url: string, method: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, localAddress, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `count` unsigned `POST /orders` from 127.0.0.1, `parallel` at a time; the statuses seen, counted. */
async function unsignedPosts(url: string, count: number, parallel = 32): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  const body = JSON.stringify([{ order: {}, orderType: 'GTC', owner: 'nobody' }]);
  for (let sent = 0; sent < count; sent += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - sent) }, () =>
      fetch(`${url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) => {
        await r.text();
        return r.status;
      }),
    );
    for (const status of await Promise.all(batch)) statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return statuses;
}

describe('rate limits per caller on a shared sandbox', () => {
  let clock: SimulatedClock;
  let sb: RunningSandbox;
  let alice: TestTrader;
  let market: SandboxMarket;

  beforeAll(async () => {
    clock = new SimulatedClock(T0);
    sb = await startSandbox({ flow: { enabled: false }, seed: 6, markets: 40, events: 8, clock });
    alice = await new TestTrader(sb.url, 'interface', clock, 0x61).login();
    market = pickMarket(sb);
  });
  afterAll(async () => {
    await sb.close();
  });

  it("2,400 unsigned POST /orders from one caller leave another account's valid post untouched", async () => {
    const statuses = await unsignedPosts(sb.url, 2_400);
    // the failed-auth bucket of the address fills, and only it
    expect(statuses).toEqual({ 401: FAILED_AUTH_WINDOW.limit, 429: 2_400 - FAILED_AUTH_WINDOW.limit });
    const posted = await alice.post({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize), postOnly: true });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.body[0]).toMatchObject({ success: true, status: 'live' });
    // the flood never reached the order budgets: none of it is in the order log
    expect(sb.context.orderLog.entries().filter((e) => e.apiKey !== alice.apiKey)).toEqual([]);
  });

  it('a caller that fails authentication is limited on its own bucket: its address, failures only', async () => {
    // still full from the flood above (the clock has not moved): the same address fails with 429 ...
    const refused = await from('127.0.0.1', `${sb.url}/orders`, 'POST', '[]');
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toEqual({ error: expect.stringContaining("'failed auth' allows 300 per 10000 ms"), retry_after_seconds: 10 });
    // ... a bad signature of a real account too (the failure is charged to the address, not the key) ...
    const forged = await alice.l2('GET', '/data/orders', undefined, { tamper: (h) => (h['SERVICE_SIGNATURE'] = 'AAAA') });
    expect(forged.status).toBe(429);
    // ... while its public reads, the same account signed correctly and another address's failures pass
    const token = market.tokens[0].tokenId;
    expect((await from('127.0.0.1', `${sb.url}/book?token_id=${token}`, 'GET')).status).toBe(200);
    expect((await alice.l2('GET', '/data/orders')).status).toBe(200);
    const elsewhere = await from('127.0.0.2', `${sb.url}/orders`, 'POST', '[]');
    expect(elsewhere.status).toBe(401);
    expect(JSON.parse(elsewhere.text)).toEqual({ error: 'L2 auth: header SERVICE_ADDRESS is missing' });
    // once the window slid by, the address's failures are 401 again
    clock.advanceBy(10_000);
    expect((await from('127.0.0.1', `${sb.url}/orders`, 'POST', '[]')).status).toBe(401);
  });
});

describe('rate limits per API key', () => {
  it("one account's full order budget does not refuse another account on the same address", async () => {
    const clock = new SimulatedClock(T0);
    const sb = await startSandbox({
      flow: { enabled: false },
      seed: 7,
      markets: 40,
      events: 8,
      clock,
      limits: { routeOverrides: { postOrders: [{ name: 'test orders', limit: 3, windowMs: 10_000 }] } },
    });
    try {
      const market = pickMarket(sb);
      const alice = await new TestTrader(sb.url, 'interface', clock, 0x71).login();
      const bob = await new TestTrader(sb.url, 'interface', clock, 0x72).login();
      const order = (t: TestTrader): Promise<{ status: number; body: unknown }> =>
        t.post({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize), postOnly: true });
      for (let i = 0; i < 3; i++) expect((await order(alice)).status).toBe(200);
      const refused = await order(alice);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: expect.stringContaining("'test orders' allows 3 per 10000 ms"), retry_after_seconds: 10 });
      expect((await order(bob)).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
