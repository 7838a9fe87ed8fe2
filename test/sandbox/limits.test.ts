import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { call } from './helpers.ts';

/** Part 8's limits: 429 `{"error"}` with Retry-After, per client address, on the injected clock. */

const T0 = Date.UTC(2026, 10, 20);
let clock: SimulatedClock;
let sb: RunningSandbox;

beforeAll(async () => {
  clock = new SimulatedClock(T0);
  sb = await startSandbox({
    clock,
    limits: {
      routeOverrides: {
        getOrderBook: [{ name: 'GET /book', limit: 3, windowMs: 10_000 }],
        getEvents: [{ name: 'listings', limit: 2, windowMs: 10_000 }],
        getMarkets: [{ name: 'listings', limit: 2, windowMs: 10_000 }],
      },
    },
  });
});
afterAll(async () => {
  await sb.close();
});

/** GET from a chosen loopback source address (the limits are per client address). */
function getFrom(localAddress: string, url: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('rate limits', () => {
  it('answers 429 with Retry-After once a shrunken window is full, and again 200 once it slid by', async () => {
    const token = sb.world.markets[0]!.tokens[0].tokenId;
    const book = `${sb.url}/book?token_id=${token}`;
    for (let i = 0; i < 3; i++) expect((await call(book)).status).toBe(200);
    const refused = await call(book);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.body).toEqual({ error: expect.stringContaining("'GET /book'"), retry_after_seconds: 10 });
    clock.advanceBy(6_000);
    const later = await call(book);
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('4');
    clock.advanceBy(4_000);
    expect((await call(book)).status).toBe(200);
    const stats = await call(`${sb.url}/admin/stats`);
    expect(stats.body.routes.getOrderBook).toBe(6);
    expect(stats.body.statuses['429']).toBeGreaterThanOrEqual(2);
  });

  it('counts per client address', async () => {
    clock.advanceBy(20_000);
    const token = sb.world.markets[1]!.tokens[0].tokenId;
    const book = `${sb.url}/book?token_id=${token}`;
    for (let i = 0; i < 3; i++) expect((await getFrom('127.0.0.1', book)).status).toBe(200);
    expect((await getFrom('127.0.0.1', book)).status).toBe(429);
    const other = await getFrom('127.0.0.2', book);
    expect(other.status).toBe(200);
    expect(other.retryAfter).toBeUndefined();
  });

  it('windows that share a name share their count (combined event and market listings)', async () => {
    clock.advanceBy(20_000);
    expect((await call(`${sb.url}/events?limit=1`)).status).toBe(200);
    expect((await call(`${sb.url}/markets`)).status).toBe(200);
    const third = await call(`${sb.url}/events?limit=1`);
    expect(third.status).toBe(429);
    expect(third.body.error).toContain("'listings'");
    expect((await call(`${sb.url}/tags`)).status).toBe(200);
  });

  it('the unmodified table: GET / allows 50 per 10 s; windowScale shrinks the window', async () => {
    const c = new SimulatedClock(T0);
    const scaled = await startSandbox({ clock: c, limits: { windowScale: 0.01 }, markets: 10, events: 5 });
    try {
      for (let i = 0; i < 50; i++) expect((await call(`${scaled.url}/`)).status).toBe(200);
      const refused = await call(`${scaled.url}/`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toContain('50 per 100 ms');
      c.advanceBy(100);
      expect((await call(`${scaled.url}/`)).status).toBe(200);
    } finally {
      await scaled.close();
    }
  });

  it('limits can be switched off', async () => {
    const open = await startSandbox({ limits: { enabled: false }, markets: 10, events: 5 });
    try {
      for (let i = 0; i < 60; i++) expect((await call(`${open.url}/`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
