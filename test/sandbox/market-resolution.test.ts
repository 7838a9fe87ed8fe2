import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { ERR_MARKET_NOT_READY } from '../../src/sim/venue-messages.ts';
import { pickMarket, TestTrader, top, units } from './trading/harness.ts';

/**
 * Markets closing at their end date and resolving (sandbox/world/market-resolution.ts): seeded
 * schedule, open orders of every owner cancelled at the close, winners paid 1 a share at the
 * resolution, the ledger conserved, the wire showing `closed`, `accepting_orders` and `winner`.
 */

const START = Date.UTC(2026, 10, 20, 12, 0, 0);
const ADMIN_TOKEN = 'resolution-test-admin-token';

interface WireMarket {
  closed: boolean;
  accepting_orders: boolean;
  end_date_iso: string;
  tokens: { token_id: string; winner: boolean }[];
}

async function tradingMarket(sb: RunningSandbox, conditionId: string): Promise<WireMarket> {
  return (await (await fetch(`${sb.url}/clob/markets/${conditionId}`)).json()) as WireMarket;
}

async function admin(sb: RunningSandbox, path: string, body: unknown, token = ADMIN_TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

/** The ledger's conservation law (src/sim/ledger.ts), for every market. */
function expectConserved(sb: RunningSandbox): void {
  const t = sb.engine.ledger.totals();
  const sets = Object.values(t.completeSets).reduce((a, b) => a + b, 0);
  expect(t.collateral + t.collateralReserved + t.feesCollected + sets).toBe(t.deposited);
  for (const m of sb.engine.markets()) {
    const sets = t.completeSets[m.conditionId] ?? 0;
    for (const tokenId of m.tokenIds) expect(t.tokenSupply[tokenId] ?? 0, tokenId).toBe(sets);
  }
}

describe('scheduled resolution', () => {
  const clock = new SimulatedClock(START);
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 5, markets: 12, events: 4, clock, limits: { enabled: false }, flow: { enabled: true, intensity: 3 }, resolution: { markets: 2, withinMs: 20_000, resolveAfterMs: 3_000 } });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('closes the first N open markets at seeded end dates, then resolves them, while the flow trades', async () => {
    const open = sb.world.markets.filter((m) => !m.closed && m.acceptingOrders && m.enableOrderBook);
    const scheduled = (await (await fetch(`${sb.url}/admin/markets/resolution`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { conditionId: string; endDate: string; closed: boolean; winner: string | null }[];
    // no admin token was set on this sandbox: any bearer passes
    expect(scheduled.map((s) => s.conditionId)).toEqual(open.slice(0, 2).map((m) => m.conditionId));
    for (const s of scheduled) {
      const end = Date.parse(s.endDate);
      expect(end).toBeGreaterThanOrEqual(START + 1_000);
      expect(end).toBeLessThanOrEqual(START + 20_000);
      expect((await tradingMarket(sb, s.conditionId)).end_date_iso).toBe(s.endDate);
    }
    // the flow trades first (holders in the markets), then the clock passes every end date
    for (let t = 0; t < 30_000; t += 250) clock.advanceBy(250);
    for (const s of scheduled) {
      const market = sb.world.marketByConditionId(s.conditionId)!;
      const wire = await tradingMarket(sb, s.conditionId);
      expect(wire.closed).toBe(true);
      expect(wire.accepting_orders).toBe(false);
      expect(wire.tokens.filter((t) => t.winner)).toHaveLength(1);
      expect(sb.engine.openOrders({ conditionId: market.conditionId })).toEqual([]);
      const supply = sb.engine.ledger.totals().tokenSupply;
      for (const t of market.tokens) expect(supply[t.tokenId] ?? 0).toBe(0);
    }
    expectConserved(sb);
    // the same seed schedules the same markets, times and winners
    const again = await startSandbox({ seed: 5, markets: 12, events: 4, clock: new SimulatedClock(START), flow: { enabled: false }, resolution: { markets: 2, withinMs: 20_000, resolveAfterMs: 3_000 } });
    try {
      expect(again.world.markets.filter((m) => scheduled.some((s) => s.conditionId === m.conditionId)).map((m) => new Date(m.endDate).toISOString())).toEqual(scheduled.map((s) => s.endDate));
    } finally {
      await again.close();
    }
  });
});

describe('a scheduled market closed before its end date', () => {
  it('resolves resolveAfterMs after the admin close, to the winner drawn for it', async () => {
    const options = { seed: 5, markets: 12, events: 4, limits: { enabled: false }, flow: { enabled: false }, resolution: { markets: 1, withinMs: 600_000, resolveAfterMs: 3_000 } };
    // the same seed left to its end date: the winner drawn for the market
    const endClock = new SimulatedClock(START);
    const atEnd = await startSandbox({ ...options, clock: endClock });
    const clock = new SimulatedClock(START);
    const sb = await startSandbox({ ...options, clock });
    try {
      const [scheduled] = atEnd.context.resolutions.scheduled();
      const conditionId = scheduled!.conditionId;
      for (let t = 0; t <= 600_000 + 3_000; t += 250) endClock.advanceBy(250);
      const drawn = (await tradingMarket(atEnd, conditionId)).tokens.find((t) => t.winner)?.token_id;
      expect(drawn).toBeDefined();

      expect(sb.world.marketByConditionId(conditionId)!.endDate).toBeGreaterThan(START + 60_000);
      expect((await admin(sb, '/admin/markets/close', { conditionId })).status).toBe(200);
      for (let t = 250; t < 3_000; t += 250) clock.advanceBy(250);
      expect((await tradingMarket(sb, conditionId)).tokens.filter((t) => t.winner)).toEqual([]);
      clock.advanceBy(250);
      const wire = await tradingMarket(sb, conditionId);
      expect(wire.closed).toBe(true);
      expect(wire.tokens.filter((t) => t.winner).map((t) => t.token_id)).toEqual([drawn]);
      expectConserved(sb);
    } finally {
      await sb.close();
      await atEnd.close();
    }
  });
});

describe('admin close and resolve', () => {
  const clock = new SimulatedClock(START);
  let sb: RunningSandbox;
  let alice: TestTrader;
  let bob: TestTrader;
  let market: SandboxMarket;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 4, markets: 60, events: 12, clock, limits: { enabled: false }, flow: { enabled: false }, adminToken: ADMIN_TOKEN });
    alice = await new TestTrader(sb.url, 'interface', clock, 0x41).login();
    bob = await new TestTrader(sb.url, 'interface', clock, 0x42).login();
    market = pickMarket(sb, { minSpreadTicks: 2 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('cancels every open order at the close, refuses new ones, and pays the winner 1 a share', async () => {
    const { bid, ask } = top(sb, market);
    // alice buys 10 YES at the ask (a fill), and rests a bid; bob rests a bid on NO
    const bought = await alice.post({ market, side: 'BUY', price: units(ask), size: 10 }, { market, side: 'BUY', price: units(bid), size: 7 });
    expect(bought.body.map((r: { success: boolean }) => r.success)).toEqual([true, true]);
    const resting = await bob.post({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - ask), size: 5 });
    expect(resting.body[0].status).toBe('live');
    const before = sb.engine.ledger.balance(alice.address);
    expect(before.collateralReserved).toBeGreaterThan(0);

    expect((await admin(sb, '/admin/markets/close', { conditionId: market.conditionId }, 'wrong-token-wrong-token')).status).toBe(401);
    const closed = await admin(sb, '/admin/markets/close', { conditionId: market.conditionId });
    expect(closed.status).toBe(200);
    expect(closed.body.canceled).toBeGreaterThanOrEqual(2); // ours and the seeded liquidity's
    expect(sb.engine.openOrders({ conditionId: market.conditionId })).toEqual([]);
    const afterClose = sb.engine.ledger.balance(alice.address);
    expect(afterClose.collateralReserved).toBe(0);
    expect(afterClose.collateral).toBe(before.collateral + before.collateralReserved);
    const wire = await tradingMarket(sb, market.conditionId);
    expect(wire).toMatchObject({ closed: true, accepting_orders: false });
    const refused = await alice.post({ market, side: 'BUY', price: units(bid), size: 5 });
    expect(refused.body[0].errorMsg).toBe(ERR_MARKET_NOT_READY);
    const book = (await (await fetch(`${sb.url}/book?token_id=${market.tokens[0].tokenId}`)).json()) as { bids: unknown[]; asks: unknown[] };
    expect(book).toMatchObject({ bids: [], asks: [] });

    const yes = market.tokens[0].tokenId;
    expect(sb.engine.ledger.position(alice.address, yes)).toBe(10_000_000);
    const bad = await admin(sb, '/admin/markets/resolve', { conditionId: market.conditionId, winner: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/winner/);
    expect((await admin(sb, '/admin/markets/resolve', { conditionId: '0x' + '0'.repeat(64), winner: yes })).status).toBe(404);
    const resolved = await admin(sb, '/admin/markets/resolve', { conditionId: market.conditionId, winner: yes });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ closed: true, winnerIndex: 0 });
    const paid = sb.engine.ledger.balance(alice.address);
    expect(paid.collateral).toBe(afterClose.collateral + 10_000_000);
    expect(sb.engine.ledger.position(alice.address, yes)).toBe(0);
    const after = await tradingMarket(sb, market.conditionId);
    expect(after.tokens.map((t) => [t.token_id, t.winner])).toEqual([
      [yes, true],
      [market.tokens[1].tokenId, false],
    ]);
    // resolving again to the same winner changes nothing; to the other is refused
    expect((await admin(sb, '/admin/markets/resolve', { conditionId: market.conditionId, winner: yes })).body.redeemed).toBe('0');
    expect((await admin(sb, '/admin/markets/resolve', { conditionId: market.conditionId, winner: market.tokens[1].tokenId })).status).toBe(409);
    expectConserved(sb);
  });

  it('refuses bad resolution options with the key named', async () => {
    await expect(startSandbox({ resolution: { markets: -1 } })).rejects.toThrow(/sandbox\.resolution\.markets/);
    await expect(startSandbox({ resolution: { withinMs: 0 } })).rejects.toThrow(/sandbox\.resolution\.withinMs/);
  });
});
