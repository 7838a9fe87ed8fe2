import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { decodeHeartbeatId, decodeHeartbeatStatus } from '../../../src/venue/decode.ts';
import { pickMarket, TestTrader, units } from './harness.ts';

/**
 * Heartbeats: the id chain, the 400 with the id to adopt, and the cancel of every open order of
 * a key whose beats stop. The sandbox runs on a simulated clock the test moves; its deadline
 * check runs on that clock's scheduler.
 */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let market: SandboxMarket;
let n = 0x50;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 12, markets: 60, events: 12, clock, limits: { enabled: false } });
  market = pickMarket(sb);
});
afterEach(() => {
  sb.faults.reset();
});
afterAll(async () => {
  await sb.close();
});

async function trader(): Promise<TestTrader> {
  return new TestTrader(sb.url, 'interface', clock, n++).login();
}

async function rest(t: TestTrader, count: number): Promise<string[]> {
  const size = units(market.minOrderSize);
  const answer = await t.post(...Array.from({ length: count }, (_, i) => ({ market, side: 'BUY' as const, price: units(market.tickSize * (i + 1)), size })));
  return answer.body.map((r: any) => r.orderID);
}

async function beat(t: TestTrader, id: string): Promise<{ status: number; body: any }> {
  return t.l2('POST', '/v1/heartbeats', { heartbeat_id: id });
}

async function openIds(t: TestTrader): Promise<string[]> {
  return (await t.l2('GET', '/data/orders')).body.data.map((o: any) => o.id);
}

describe('POST /v1/heartbeats', () => {
  it('hands out a new id per beat; a wrong id gets 400 with the id to adopt', async () => {
    const t = await trader();
    const first = await beat(t, '');
    expect(first.status).toBe(200);
    const id1 = decodeHeartbeatId(first.body);
    expect(id1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const id2 = decodeHeartbeatId((await beat(t, id1)).body);
    expect(id2).not.toBe(id1);
    const stale = await beat(t, id1);
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ error: 'Invalid Heartbeat ID', heartbeat_id: id2 });
    const id3 = decodeHeartbeatId((await beat(t, stale.body.heartbeat_id)).body);
    expect(id3).not.toBe(id2);
    expect((await t.l2('POST', '/v1/heartbeats', {})).status).toBe(400);
  });

  it('answers a key without a chain 400 with a fresh id that then works', async () => {
    const t = await trader();
    const wrong = await beat(t, '11111111-1111-4111-8111-111111111111');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Invalid Heartbeat ID');
    expect((await beat(t, wrong.body.heartbeat_id)).status).toBe(200);
  });

  it('cancels every open order of a key one timeout after its last valid beat, and only that key\'s', async () => {
    const t = await trader();
    const other = await trader();
    const ids = await rest(t, 3);
    const kept = await rest(other, 2);
    let id = decodeHeartbeatId((await beat(t, '')).body);
    clock.advanceBy(6_000);
    id = decodeHeartbeatId((await beat(t, id)).body); // deadline: now + 10 s
    clock.advanceBy(9_700);
    expect(await openIds(t)).toEqual(ids);
    clock.advanceBy(600); // past the deadline, one check later
    expect(await openIds(t)).toEqual([]);
    expect(await openIds(other)).toEqual(kept);
    const order = (await t.l2('GET', `/data/order/${ids[0]}`)).body;
    expect(order.status).toBe('CANCELED');
    // the chain expired with it: the old id is refused, the new one re-arms
    const expired = await beat(t, id);
    expect(expired.status).toBe(400);
    expect((await beat(t, expired.body.heartbeat_id)).status).toBe(200);
    // orders placed after a restart are safe while the beats go on
    const again = await rest(t, 1);
    clock.advanceBy(5_000);
    await t.l2('POST', '/heartbeats');
    clock.advanceBy(5_000);
    expect(await openIds(t)).toEqual(again);
    clock.advanceBy(10_500);
    expect(await openIds(t)).toEqual([]);
  });

  it('never cancels for a key that has not beaten', async () => {
    const t = await trader();
    const ids = await rest(t, 2);
    clock.advanceBy(60_000);
    expect(await openIds(t)).toEqual(ids);
  });
});

describe('POST /heartbeats', () => {
  it('answers {"status": "ok"} and keeps the session alive with the same deadline rule', async () => {
    const t = await trader();
    const ids = await rest(t, 2);
    const answer = await t.l2('POST', '/heartbeats');
    expect(answer.status).toBe(200);
    expect(decodeHeartbeatStatus(answer.body)).toBe('ok');
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(5_000);
      expect((await t.l2('POST', '/heartbeats')).body).toEqual({ status: 'ok' });
    }
    expect(await openIds(t)).toEqual(ids);
    clock.advanceBy(10_300);
    expect(await openIds(t)).toEqual([]);
  });
});

describe('fault ignoreHeartbeats', () => {
  it('answers beats but lets the deadline of the first one pass', async () => {
    const t = await trader();
    const ids = await rest(t, 2);
    sb.faults.set({ ignoreHeartbeats: true });
    let id = decodeHeartbeatId((await beat(t, '')).body);
    for (let i = 0; i < 3; i++) {
      clock.advanceBy(3_000);
      const answer = await beat(t, id);
      expect(answer.status).toBe(200);
      id = decodeHeartbeatId(answer.body);
    }
    expect(await openIds(t)).toEqual(ids);
    clock.advanceBy(1_300); // 10.3 s after the first beat
    expect(await openIds(t)).toEqual([]);
  });
});

describe('a live clock', () => {
  it('cancels on real time with a short timeout', async () => {
    const live = await startSandbox({ flow: { enabled: false }, seed: 12, markets: 60, events: 12, heartbeatTimeoutMs: 300, heartbeatCheckMs: 50, limits: { enabled: false } });
    try {
      const { LiveClock } = await import('../../../src/core/clock.ts');
      const t = await new TestTrader(live.url, 'interface', new LiveClock(), 0x5f).login();
      const m = pickMarket(live);
      const placed = await t.post({ market: m, side: 'BUY', price: units(m.tickSize), size: units(m.minOrderSize) });
      expect(placed.body[0].success).toBe(true);
      expect((await t.l2('POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
      // until the venue has cancelled it, however long a loaded machine makes 300 ms of real time
      // and the checks every 50 ms take (no count of polls: the test's time limit bounds a miss)
      let open = 1;
      while (open > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        open = (await t.l2('GET', '/data/orders')).body.count;
      }
      expect(open).toBe(0);
    } finally {
      await live.close();
    }
  });
});
