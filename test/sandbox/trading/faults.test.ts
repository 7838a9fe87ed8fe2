import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LiveClock } from '../../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { decodeOrderPostResults } from '../../../src/venue/decode.ts';
import { pickMarket, send, TestTrader, units } from './harness.ts';

/** Fault knobs on the order routes: trading modes, stall after acceptance, drop after acceptance. */

const clock = new LiveClock();
let sb: RunningSandbox;
let alice: TestTrader;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 21, markets: 80, events: 16, limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x61).login();
  market = pickMarket(sb);
});
afterEach(async () => {
  sb.faults.reset();
  await alice.l2('DELETE', '/cancel-all');
});
afterAll(async () => {
  await sb.close();
});

const spec = (postOnly = false): Parameters<TestTrader['sign']>[0] => ({ market, side: 'BUY', price: units(market.tickSize), size: units(market.minOrderSize), postOnly });

async function adminOrders(): Promise<any[]> {
  return (await send(`${sb.url}/admin/orders?owner=${alice.apiKey}`, 'GET', {})).body;
}

describe('mode', () => {
  it('cancel-only answers every order post 503 with Retry-After and lets cancels and heartbeats through', async () => {
    const [id] = (await alice.post(spec())).body.map((r: any) => r.orderID);
    const set = await send(`${sb.url}/admin/faults`, 'POST', {}, JSON.stringify({ mode: 'cancel-only' }));
    expect(set.body.mode).toBe('cancel-only');
    const before = (await adminOrders()).length;
    for (const [path, body] of [
      ['/orders', [alice.item(alice.sign(spec(true)))]],
      ['/order', alice.item(alice.sign(spec(true)))],
    ] as const) {
      const answer = await alice.l2('POST', path, body);
      expect(answer.status, path).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body).toEqual({ error: 'cancel-only mode: only cancels are allowed', code: 'cancel_only_mode', retry_after_seconds: 5 });
    }
    expect((await adminOrders()).length).toBe(before);
    expect((await alice.l2('DELETE', '/order', { orderID: id })).body.canceled).toEqual([id]);
    expect((await alice.l2('POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
  });

  it('post-only lets batches of post-only orders through and refuses any other with 503', async () => {
    sb.faults.set({ mode: 'post-only' });
    const ok = await alice.l2('POST', '/orders', [alice.item(alice.sign(spec(true))), alice.item(alice.sign(spec(true)))]);
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: any) => r.status)).toEqual(['live', 'live']);
    const mixed = await alice.l2('POST', '/orders', [alice.item(alice.sign(spec(true))), alice.item(alice.sign(spec(false)))]);
    expect(mixed.status).toBe(503);
    expect(mixed.body).toEqual({ error: 'post-only mode: only post-only orders and cancels are allowed', code: 'post_only_mode', retry_after_seconds: 5 });
    expect(mixed.headers.get('retry-after')).toBe('5');
    expect((await alice.l2('POST', '/order', alice.item(alice.sign(spec(false))))).status).toBe(503);
    expect((await alice.l2('POST', '/order', alice.item(alice.sign(spec(true))))).body.status).toBe('live');
    expect((await alice.l2('DELETE', '/cancel-all')).body.canceled).toHaveLength(3);
  });
});

describe('stallMs', () => {
  it('places the orders, then holds the answer', async () => {
    sb.faults.set({ stallMs: 2_500 });
    // the stall runs on setTimeout's clock, held still until the test has seen the order placed
    // and the answer not out (on real time, a look slower than the stall on a loaded machine saw
    // the answer out already); then the test lets it run
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const signed = alice.sign(spec());
    let answered = false;
    let pending: ReturnType<TestTrader['l2']>;
    try {
      pending = alice.l2('POST', '/orders', [alice.item(signed)]).then((a) => {
        answered = true;
        return a;
      });
      // placed: looked for until it is there (the test's time limit bounds it)
      let seen: any;
      while (seen === undefined) {
        seen = (await adminOrders()).find((o) => o.hash === signed.orderHash);
        if (seen === undefined) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(seen).toMatchObject({ accepted: true, status: 'LIVE' });
      expect(answered).toBe(false);
    } finally {
      vi.runOnlyPendingTimers();
      vi.useRealTimers();
    }
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(decodeOrderPostResults(answer.body, 1)[0]).toMatchObject({ kind: 'accepted', orderId: signed.orderHash });
  });
});

describe('dropAfterAccept', () => {
  it('places the orders and destroys the connection without an answer', async () => {
    await send(`${sb.url}/admin/faults`, 'POST', {}, JSON.stringify({ dropAfterAccept: 1 }));
    const a = alice.sign(spec());
    const b = alice.sign(spec());
    await expect(alice.l2('POST', '/orders', [alice.item(a), alice.item(b)])).rejects.toThrow();
    const c = alice.sign(spec());
    await expect(alice.l2('POST', '/order', alice.item(c))).rejects.toThrow();
    sb.faults.set({ dropAfterAccept: 0 });
    const open = (await alice.l2('GET', '/data/orders')).body.data.map((o: any) => o.id);
    expect(open).toEqual([a.orderHash, b.orderHash, c.orderHash]);
  });

  it('draws from a seeded stream: the same share gives the same run', async () => {
    const run = async (): Promise<boolean[]> => {
      sb.faults.set({ dropAfterAccept: 0.5 });
      const out: boolean[] = [];
      for (let i = 0; i < 12; i++) {
        out.push(await alice.post(spec()).then(() => true, () => false));
      }
      return out;
    };
    const first = await run();
    expect(first.filter((x) => !x).length).toBeGreaterThan(0);
    expect(first.filter((x) => x).length).toBeGreaterThan(0);
    expect(await run()).toEqual(first);
  });

  it('is refused by the fault patch outside 0..1', async () => {
    const answer = await send(`${sb.url}/admin/faults`, 'POST', {}, JSON.stringify({ dropAfterAccept: 2 }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^faults\.dropAfterAccept/);
  });
});
