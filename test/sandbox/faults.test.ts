import { getEventListeners } from 'node:events';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';
import { DEFAULT_FAULTS } from '../../src/sandbox/faults.ts';
import { buildSandboxApp, sandboxContextOf, startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { call } from './helpers.ts';

/** Fault knobs: seeded 500s, latency, stalls, drops, rate-limit storms; the admin routes; request counts. */

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ seed: 5, markets: 40, events: 10, limits: { enabled: false } });
});
afterEach(() => {
  sb.faults.reset();
});
afterAll(async () => {
  await sb.close();
});

async function statuses(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const { status, body } = await call(url);
    if (status !== 200) expect(Object.keys(body)).toEqual(['error']);
    out.push(status);
  }
  return out;
}

describe('errorRate', () => {
  it('answers about that share with 500 {"error"}, the same run each time it is set', async () => {
    sb.faults.set({ errorRate: 0.3 });
    const first = await statuses(`${sb.url}/version`, 200);
    const errors = first.filter((s) => s === 500).length;
    expect(first.every((s) => s === 200 || s === 500)).toBe(true);
    expect(errors).toBeGreaterThan(30);
    expect(errors).toBeLessThan(90);
    sb.faults.set({ errorRate: 0.3 });
    expect(await statuses(`${sb.url}/version`, 200)).toEqual(first);
    const other = await startSandbox({ seed: 5, markets: 40, events: 10, faults: { errorRate: 0.3 } });
    try {
      expect(await statuses(`${other.url}/version`, 200)).toEqual(first);
    } finally {
      await other.close();
    }
    sb.faults.set({ errorRate: 0 });
    expect(new Set(await statuses(`${sb.url}/version`, 20))).toEqual(new Set([200]));
  });
});

describe('latency, stall and drop', () => {
  it('latencyMs delays the answer by at least that long', async () => {
    sb.faults.set({ latencyMs: 120 });
    const started = performance.now();
    const { status } = await call(`${sb.url}/version`);
    expect(status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it('stallMs holds the answer past a client timeout; the request did reach the route', async () => {
    sb.faults.set({ stallMs: 5_000 });
    const before = (await call(`${sb.url}/admin/stats`)).body.routes.getVersion ?? 0;
    // the client gives up once the route has the request (a timer started with the fetch could
    // fire before a loaded machine had even sent it: then it never reached the route)
    const client = new AbortController();
    const answer = fetch(`${sb.url}/version`, { signal: client.signal });
    while (sb.context.stats.of('getVersion') === before) await new Promise((resolve) => setImmediate(resolve));
    client.abort(new DOMException('the client timed out', 'TimeoutError'));
    await expect(answer).rejects.toThrow(/timed out|timeout|aborted/i);
    const after = (await call(`${sb.url}/admin/stats`)).body.routes.getVersion ?? 0;
    expect(after).toBe(before + 1);
  });

  it('requests held by a fault share one listener on the closing signal; closing ends their waits', async () => {
    // CI's soak printed MaxListenersExceededWarning: the crash loop's stalls held more than 10
    // requests at once, each with its own listener on this signal
    const own = await startSandbox({ seed: 5, markets: 40, events: 10, limits: { enabled: false }, faults: { latencyMs: 600_000 } });
    const closing = own.context.closing;
    const N = 20;
    let answers: Promise<PromiseSettledResult<Response>[]> | undefined;
    try {
      answers = Promise.allSettled(Array.from({ length: N }, () => fetch(`${own.url}/version`)));
      // a request is counted, then waits its latency in the same turn: counted means waiting
      while (own.context.stats.snapshot().total < N) await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(closing, 'abort')).toHaveLength(1);
    } finally {
      // far shorter than the latency: closing cut the waits short
      await own.close();
    }
    const settled = await answers;
    expect(settled).toHaveLength(N);
    expect(closing.aborted).toBe(true);
    expect(getEventListeners(closing, 'abort')).toHaveLength(0);
  });

  it('dropRate destroys connections without an answer', async () => {
    sb.faults.set({ dropRate: 1 });
    await expect(fetch(`${sb.url}/version`)).rejects.toThrow();
    sb.faults.set({ dropRate: 0.5 });
    let dropped = 0;
    let answered = 0;
    for (let i = 0; i < 40; i++) {
      try {
        const response = await fetch(`${sb.url}/version`);
        expect(response.status).toBe(200);
        await response.text();
        answered++;
      } catch {
        dropped++;
      }
    }
    expect(dropped).toBeGreaterThan(5);
    expect(answered).toBeGreaterThan(5);
  });
});

describe('rateLimitStorm', () => {
  it('answers every route 429 with Retry-After; the admin routes still answer', async () => {
    sb.faults.set({ rateLimitStorm: true });
    for (const path of ['/version', '/markets', '/tags', '/trades', '/comments', '/no/such/route-is-404-not-429']) {
      const { status, headers, body } = await call(`${sb.url}${path}`);
      if (path.startsWith('/no/')) {
        expect(status).toBe(404);
        continue;
      }
      expect(status, path).toBe(429);
      expect(headers.get('retry-after')).toBe('1');
      expect(body).toEqual({ error: expect.stringContaining('storm'), retry_after_seconds: 1 });
    }
    const off = await call(`${sb.url}/admin/faults`, { json: { rateLimitStorm: false } });
    expect(off.status).toBe(200);
    expect((await call(`${sb.url}/version`)).status).toBe(200);
  });
});

describe('admin routes', () => {
  it('GET and POST /admin/faults read and set the knobs; bad settings are a 400 naming the key', async () => {
    expect((await call(`${sb.url}/admin/faults`)).body).toEqual(DEFAULT_FAULTS);
    const set = await call(`${sb.url}/admin/faults`, { json: { mode: 'post-only', latencyMs: 5, ignoreHeartbeats: true } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ...DEFAULT_FAULTS, mode: 'post-only', latencyMs: 5, ignoreHeartbeats: true });
    expect(sb.faults.settings.mode).toBe('post-only');
    for (const [bad, key] of [
      [{ errorRate: 2 }, 'errorRate'],
      [{ latencyMs: -1 }, 'latencyMs'],
      [{ mode: 'closed' }, 'mode'],
      [{ stormy: true }, 'stormy'],
      [[1, 2], 'faults'],
    ] as const) {
      const answer = await call(`${sb.url}/admin/faults`, { json: bad });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error).toContain(key);
    }
    expect(sb.faults.settings.latencyMs).toBe(5);
  });

  it('faults come from the options too, and bad ones refuse to start', async () => {
    const slow = await startSandbox({ markets: 10, events: 5, faults: { latencyMs: 7, mode: 'cancel-only' } });
    try {
      expect((await call(`${slow.url}/admin/faults`)).body).toMatchObject({ latencyMs: 7, mode: 'cancel-only' });
    } finally {
      await slow.close();
    }
    await expect(startSandbox({ faults: { errorRate: -1 } })).rejects.toThrow(ConfigError);
  });

  it('GET /admin/stats counts requests per route and unmatched paths, not admin calls', async () => {
    await call(`${sb.url}/admin/stats/reset`, { json: {} });
    await call(`${sb.url}/tags`);
    await call(`${sb.url}/tags?limit=1`);
    await call(`${sb.url}/book?token_id=1`);
    await call(`${sb.url}/nothing-here`);
    const stats = (await call(`${sb.url}/admin/stats`)).body;
    expect(stats).toEqual({ total: 3, routes: { getTags: 2, getOrderBook: 1 }, unmatched: 1, statuses: { '200': 2, '404': 2 }, routeStatuses: { getTags: { '200': 2 }, getOrderBook: { '404': 1 } } });
  });

  it('refuses callers that are not on loopback with 403', async () => {
    const app = buildSandboxApp({ markets: 10, events: 5 });
    try {
      const far = await app.inject({ method: 'GET', url: '/admin/faults', remoteAddress: '10.1.2.3' });
      expect(far.statusCode).toBe(403);
      expect(far.json()).toEqual({ error: expect.stringContaining('loopback') });
      const farPost = await app.inject({ method: 'POST', url: '/admin/faults', payload: { rateLimitStorm: true }, remoteAddress: '192.168.0.9' });
      expect(farPost.statusCode).toBe(403);
      expect(sandboxContextOf(app).faults.settings.rateLimitStorm).toBe(false);
      const near = await app.inject({ method: 'GET', url: '/admin/stats', remoteAddress: '::ffff:127.0.0.1' });
      expect(near.statusCode).toBe(200);
      const read = await app.inject({ method: 'GET', url: '/version', remoteAddress: '10.1.2.3' });
      expect(read.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(external === undefined)('refuses a real connection from a non-loopback address', async () => {
    const open = await startSandbox({ host: '0.0.0.0', markets: 10, events: 5 });
    try {
      const base = `http://${external}:${open.port}`;
      const admin = await call(`${base}/admin/faults`);
      expect(admin.status).toBe(403);
      expect((await call(`${base}/version`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
