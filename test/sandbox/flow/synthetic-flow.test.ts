import { describe, expect, it } from 'vitest';
import { isValidPrice, MICROS_PER_UNIT } from '../../../src/core/fixed.ts';
import { FLOW_ACCOUNTS, FLOW_MAKER_ACCOUNTS, isFlowAccount } from '../../../src/sandbox/flow/flow-accounts.ts';
import { quoteStep } from '../../../src/sandbox/flow/market-agent.ts';
import { SyntheticFlow } from '../../../src/sandbox/flow/synthetic-flow.ts';
import type { MatchingEngine } from '../../../src/sim/matching/matching-engine.ts';
import { ERR_INVALID_PAYLOAD, ERR_PRICE_TICK, ERR_SIZE_MINIMUM } from '../../../src/sim/venue-messages.ts';
import { expectSoundLedger, flowRig, T0 } from './helpers.ts';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { World } from '../../../src/sandbox/world/world.ts';
import { SandboxEngine } from '../../../src/sandbox/trading/sandbox-engine.ts';
import { SandboxActivity } from '../../../src/sandbox/trading/sandbox-activity.ts';
import { flowMarketsOf } from '../../../src/sandbox/flow/install-flow.ts';

/** Every book of the engine's markets, by token: levels and hash. */
function books(engine: MatchingEngine, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of engine.markets()) {
    for (const t of m.tokenIds) {
      const b = engine.book(t, now);
      out[t] = { bids: b.bids, asks: b.asks, hash: b.hash, last: b.lastTradePrice };
    }
  }
  return out;
}

function tradeLog(engine: MatchingEngine): unknown[] {
  return engine.trades().map((t) => [t.id, t.tokenId, t.side, t.price, t.size, t.takerOrderId, t.matchTime, t.makerOrders.map((m) => [m.orderId, m.matchedAmount])]);
}

describe('synthetic flow', () => {
  it('is deterministic: the same seed and clock ticks give the same trades and books', () => {
    const a = flowRig({ seed: 11 });
    const b = flowRig({ seed: 11 });
    const c = flowRig({ seed: 12 });
    for (let t = 1; t <= 100; t++) {
      for (const rig of [a, b, c]) rig.clock.advanceTo(T0 + t * 100);
    }
    const now = T0 + 10_000;
    expect(tradeLog(a.engine).length).toBeGreaterThan(0);
    expect(tradeLog(b.engine)).toEqual(tradeLog(a.engine));
    expect(books(b.engine, now)).toEqual(books(a.engine, now));
    expect(b.flow.stats()).toEqual(a.flow.stats());
    // Another seed is another world and another flow.
    expect(tradeLog(c.engine)).not.toEqual(tradeLog(a.engine));
  });

  it('is deterministic whether the clock moves in one jump or in small ticks', () => {
    const a = flowRig({ seed: 5 });
    const b = flowRig({ seed: 5 });
    a.clock.advanceTo(T0 + 8_000);
    for (let t = 1; t <= 80; t++) b.clock.advanceTo(T0 + t * 100);
    expect(tradeLog(b.engine)).toEqual(tradeLog(a.engine));
    expect(books(b.engine, T0 + 8_000)).toEqual(books(a.engine, T0 + 8_000));
  });

  it('moves books and prints trades within a few simulated seconds', () => {
    const rig = flowRig({ seed: 3 });
    const open = rig.world.markets.filter((m) => !m.closed);
    const before = new Map(open.map((m) => [m.conditionId, rig.engine.book(m.tokens[0].tokenId, T0).hash]));
    rig.clock.advanceTo(T0 + 5_000);
    const trades = rig.engine.trades();
    expect(trades.length).toBeGreaterThan(0);
    // Trades are between agents (and the seeded liquidity); the flow's own counters agree.
    expect(trades.every((t) => isFlowAccount(t.owner))).toBe(true);
    expect(rig.flow.stats().trades).toBe(trades.length);
    const moved = open.filter((m) => rig.engine.book(m.tokens[0].tokenId, T0 + 5_000).hash !== before.get(m.conditionId));
    expect(moved.length).toBe(open.length);
    expect(open.some((m) => rig.engine.quote(m.tokens[0].tokenId).lastTradePrice !== undefined)).toBe(true);
  });

  it('quotes only on the tick grid within [tick, 1 - tick], also across tick size changes', () => {
    const rig = flowRig({ seed: 9, markets: 40, events: 12 });
    const ticks = new Set<number>();
    const onGrid = (): void => {
      for (const maker of FLOW_MAKER_ACCOUNTS) {
        for (const o of rig.engine.openOrders({ owner: maker.owner })) {
          const tick = (rig.engine.market(o.conditionId) as { tickSize: number }).tickSize;
          ticks.add(tick);
          expect(isValidPrice(o.price, tick), `${o.id} at ${o.price} on tick ${tick}`).toBe(true);
        }
      }
    };
    for (let s = 1; s <= 30; s++) {
      rig.clock.advanceTo(T0 + s * 1_000);
      onGrid();
      expectSoundLedger(rig.engine);
    }
    // Change the tick of every open market (coarser and finer), give the makers a few visits, check again.
    const now = rig.clock.now();
    for (const m of rig.world.markets.filter((x) => !x.closed)) {
      rig.engine.setTickSize(m.conditionId, m.tickSize === 10_000 ? 1_000 : 10_000, now);
    }
    for (let s = 1; s <= 30; s++) rig.clock.advanceTo(now + s * 1_000);
    onGrid();
    expectSoundLedger(rig.engine);
    const stats = rig.flow.stats();
    expect(stats.makerOrders).toBeGreaterThan(0);
    expect(ticks.size).toBeGreaterThanOrEqual(4); // 0.1, 0.01, 0.001, 0.0001 all quoted
    for (const reason of [ERR_PRICE_TICK, ERR_SIZE_MINIMUM, ERR_INVALID_PAYLOAD]) expect(stats.rejected[reason], reason).toBeUndefined();
  });

  it('keeps agent balances non-negative and the ledger conserved over a long run', () => {
    const rig = flowRig({ seed: 21, intensity: 3 });
    for (let s = 1; s <= 120; s++) {
      rig.clock.advanceTo(T0 + s * 1_000);
      if (s % 10 === 0) expectSoundLedger(rig.engine);
    }
    expect(rig.flow.stats().deposits).toBeGreaterThanOrEqual(0);
    // Agents hold inventory from split and trades, and every one of them has traded.
    const traded = new Set(rig.engine.trades().flatMap((t) => [t.address, ...t.makerOrders.map((m) => m.address)]));
    for (const a of FLOW_ACCOUNTS) expect(traded.has(a.address), a.owner).toBe(true);
  });

  it('spends a fixed budget of actions per second whatever the number of markets', () => {
    const small = flowRig({ seed: 2, markets: 300, events: 60 });
    const large = flowRig({ seed: 2, markets: 1_200, events: 240 });
    const busy = flowRig({ seed: 2, markets: 300, events: 60, intensity: 2 });
    for (const rig of [small, large, busy]) rig.clock.advanceTo(T0 + 10_000);
    // 400 actions/s for 10 s, give or take the last visit's cost (1 + 3 takers and their trades + 6 maker orders + 1 cancel call).
    for (const [rig, budget] of [
      [small, 4_000],
      [large, 4_000],
      [busy, 8_000],
    ] as const) {
      const s = rig.flow.stats();
      expect(s.actions).toBeGreaterThan(budget - 2);
      expect(s.actions).toBeLessThan(budget + 40);
      expect(s.actions).toBe(s.visits + s.makerOrders + s.takerOrders + s.cancelCalls + s.trades);
    }
    expect(large.flow.stats().markets).toBeGreaterThan(small.flow.stats().markets * 3);
  });

  it('does not spin on a small world: at most maxVisitsPerMarketPerSecond per market', () => {
    const rig = flowRig({ seed: 2, markets: 6, events: 2 });
    rig.clock.advanceTo(T0 + 10_000);
    expect(rig.flow.stats().visits).toBe(rig.flow.stats().markets * 4 * 10);
  });

  it('stops: no visit and no order after stop()', () => {
    const rig = flowRig({ seed: 4 });
    rig.clock.advanceTo(T0 + 2_000);
    rig.flow.stop();
    const stats = rig.flow.stats();
    const trades = rig.engine.trades().length;
    rig.clock.advanceTo(T0 + 20_000);
    expect(rig.flow.stats()).toEqual({ ...stats, running: false });
    expect(rig.engine.trades().length).toBe(trades);
    rig.flow.start();
    rig.clock.advanceTo(T0 + 22_000);
    expect(rig.flow.stats().visits).toBeGreaterThan(stats.visits);
  });

  it('follows the trading mode: no takers in post-only, no new orders in cancel-only', () => {
    let mode: 'normal' | 'post-only' | 'cancel-only' = 'post-only';
    const rig = flowRig({ seed: 6, mode: () => mode });
    rig.clock.advanceTo(T0 + 5_000);
    expect(rig.flow.stats().takerOrders).toBe(0);
    expect(rig.flow.stats().makerOrders).toBeGreaterThan(0);
    mode = 'cancel-only';
    const makers = rig.flow.stats().makerOrders;
    rig.clock.advanceTo(T0 + 60_000);
    expect(rig.flow.stats().makerOrders).toBe(makers);
    expect(rig.flow.stats().takerOrders).toBe(0);
    mode = 'normal';
    rig.clock.advanceTo(T0 + 70_000);
    expect(rig.flow.stats().takerOrders).toBeGreaterThan(0);
  });

  it('keeps its latent probability inside the bounds', () => {
    const rig = flowRig({ seed: 8, params: { volatility: 0.5, jumpsPerSecond: 0.2, jumpSize: 2 } });
    for (let s = 1; s <= 60; s++) {
      rig.clock.advanceTo(T0 + s * 1_000);
      for (let i = 0; i < rig.flow.stats().markets; i++) {
        const p = rig.flow.agent(i)?.latent;
        if (p !== undefined) {
          expect(p).toBeGreaterThanOrEqual(0.03 - 1e-12);
          expect(p).toBeLessThanOrEqual(0.97 + 1e-12);
        }
      }
    }
    expectSoundLedger(rig.engine);
  });

  it('rejects an intensity out of range', () => {
    const rig = flowRig({ start: false });
    expect(() => new SyntheticFlow({ engine: rig.engine, markets: [], seed: 1, clock: rig.clock, intensity: 0 })).toThrow(/intensity/);
    expect(() => new SyntheticFlow({ engine: rig.engine, markets: [], seed: 1, clock: rig.clock, intensity: 1_000 })).toThrow(/intensity/);
  });

  it('spaces maker levels on the tick grid, at least 0.005 apart', () => {
    expect(quoteStep(100_000)).toBe(100_000);
    expect(quoteStep(10_000)).toBe(10_000);
    expect(quoteStep(1_000)).toBe(5_000);
    expect(quoteStep(100)).toBe(5_000);
    expect(quoteStep(2_500)).toBe(5_000);
    for (const t of [100, 1_000, 2_500, 10_000, 100_000]) expect(quoteStep(t) % t).toBe(0);
    expect(MICROS_PER_UNIT % quoteStep(1_000)).toBe(0);
  });
});

describe('synthetic flow over a long run', () => {
  it('keeps the sandbox history bounded: trades and fills lists stay within twice the history', () => {
    const clock = new SimulatedClock(T0);
    const world = new World({ seed: 3, markets: 12, events: 4, clock });
    const engine = new SandboxEngine(world, clock, { transientOwner: isFlowAccount, tradeHistory: 50 });
    const activity = new SandboxActivity(world, engine, { history: 50, walletHistory: 50, transientWallet: isFlowAccount });
    const flow = new SyntheticFlow({ engine, markets: flowMarketsOf(world, engine), seed: world.seed, clock, intensity: 4 });
    flow.start();
    let most = 0;
    for (let t = 1; t <= 600; t++) {
      clock.advanceTo(T0 + t * 100);
      most = Math.max(most, engine.trades().length, activity.fills().length, ...FLOW_ACCOUNTS.map((a) => activity.fillsOf(a.address).length));
    }
    expect(flow.stats().trades).toBeGreaterThan(200); // far more than the lists keep
    expect(most).toBeLessThan(100);
    expect(engine.trades().length).toBeGreaterThanOrEqual(50);
    for (const a of FLOW_ACCOUNTS) expect(engine.trades({ owner: a.owner })).toEqual([]);
    expectSoundLedger(engine);
  });
});
