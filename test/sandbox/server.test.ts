import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { call } from './helpers.ts';

/** The server as a whole: same seed, same answers; a 5,000-market world; option checks. */

const T0 = Date.UTC(2026, 10, 20);

async function answers(sb: RunningSandbox): Promise<unknown[]> {
  const tokens = sb.world.markets.slice(0, 30).flatMap((m) => m.tokens.map((t) => ({ token_id: t.tokenId })));
  const out: unknown[] = [];
  for (const path of ['/markets', '/markets?next_cursor=MTAw', '/simplified-markets', '/events?limit=50', '/tags', '/events/creators', '/trades?limit=200', '/comments?limit=100']) {
    out.push((await call(`${sb.url}${path}`)).body);
  }
  out.push((await call(`${sb.url}/books`, { json: tokens })).body);
  out.push((await call(`${sb.url}/prices`, { json: tokens })).body);
  return out;
}

describe('sandbox server', () => {
  it('answers the same for the same seed, and differently for another seed', async () => {
    const options = { seed: 21, clock: new SimulatedClock(T0), limits: { enabled: false } };
    const a = await startSandbox(options);
    const b = await startSandbox({ ...options, clock: new SimulatedClock(T0) });
    const c = await startSandbox({ ...options, seed: 22, clock: new SimulatedClock(T0) });
    try {
      const first = await answers(a);
      expect(await answers(b)).toEqual(first);
      const other = await answers(c);
      first.forEach((answer, i) => {
        if (i !== 4) expect(other[i], `answer ${i}`).not.toEqual(answer); // tags are a fixed list
      });
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('serves a 5,000-market world', async () => {
    const sb = await startSandbox({ markets: 5000, events: 50, limits: { enabled: false } });
    try {
      expect(sb.world.markets).toHaveLength(5000);
      let cursor = 'MA==';
      let total = 0;
      let pages = 0;
      while (cursor !== 'LTE=') {
        const { status, body } = await call(`${sb.url}/simplified-markets?next_cursor=${encodeURIComponent(cursor)}`);
        expect(status).toBe(200);
        total += body.count;
        cursor = body.next_cursor;
        pages++;
      }
      expect(total).toBe(5000);
      expect(pages).toBe(50);
      const tail = sb.world.markets.slice(-250).flatMap((m) => m.tokens.map((t) => ({ token_id: t.tokenId })));
      const books = await call<unknown[]>(`${sb.url}/books`, { json: tail });
      expect(books.status).toBe(200);
      expect(books.body).toHaveLength(500);
      const events = await call<{ markets: unknown[] }[]>(`${sb.url}/events?limit=1000`);
      expect(events.body.reduce((n, e) => n + e.markets.length, 0)).toBe(5000);
    } finally {
      await sb.close();
    }
  });

  it('refuses bad options with a ConfigError naming the option', async () => {
    await expect(startSandbox({ port: 70_000 })).rejects.toThrow(/sandbox\.port/);
    await expect(startSandbox({ markets: 0 })).rejects.toThrow(ConfigError);
    await expect(startSandbox({ seed: 1.5 })).rejects.toThrow(/sandbox\.seed/);
    await expect(startSandbox({ profile: 'kalshi' as never })).rejects.toThrow(/sandbox\.profile/);
    await expect(startSandbox({ limits: { windowScale: 0 } })).rejects.toThrow(/windowScale/);
  });

  it('closes once, even when asked twice, and then refuses connections', async () => {
    const sb = await startSandbox({ markets: 10, events: 5, faults: { stallMs: 60_000 } });
    const pending = fetch(`${sb.url}/version`).then(
      (r) => r.status,
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all([sb.close(), sb.close()]);
    expect(['failed', 200]).toContain(await pending);
    await expect(fetch(`${sb.url}/version`)).rejects.toThrow();
  });
});
