import { describe, expect, it } from 'vitest';
import { MICROS_PER_UNIT } from '../../../src/core/fixed.ts';
import { LEADER_ACCOUNTS, LeaderWallets, type LeaderMarket, type LeaderWalletOptions } from '../../../src/sandbox/flow/leader-wallets.ts';
import { flowMarketsOf } from '../../../src/sandbox/flow/install-flow.ts';
import { SandboxActivity } from '../../../src/sandbox/trading/sandbox-activity.ts';
import { flowRig } from './helpers.ts';

function rig(options: LeaderWalletOptions = {}, withFlow = true) {
  const r = flowRig({ seed: 5, markets: 12, events: 4 });
  const markets: LeaderMarket[] = flowMarketsOf(r.world, r.engine).map((m) => ({ conditionId: m.conditionId, slug: r.world.marketByConditionId(m.conditionId)!.slug, tokenIds: m.tokenIds }));
  const activity = new SandboxActivity(r.world, r.engine);
  const leaders = new LeaderWallets(r.engine, markets, withFlow ? (c, dp) => r.flow.nudge(c, dp) : undefined, r.world.seed, r.clock, options);
  leaders.start();
  // the flow visits every market before an episode (its walk exists from the first visit)
  r.clock.advanceBy(5_000);
  const mid = (tokenId: string): number => {
    const q = r.engine.quote(tokenId);
    return ((q.bestBid ?? 0) + (q.bestAsk ?? MICROS_PER_UNIT)) / 2 / MICROS_PER_UNIT;
  };
  return { ...r, markets, leaders, activity, mid };
}

describe('leader wallets (sandbox)', () => {
  it('a leader buys, the price moves its way after the lead time, the leader sells after the hold; its fills are on the analytics', () => {
    const r = rig();
    const market = r.markets.find((m) => r.mid(m.tokenIds[0]) > 0.2 && r.mid(m.tokenIds[0]) < 0.7)!;
    const before = r.mid(market.tokenIds[0]);
    const started = r.leaders.begin({ market: market.slug, wallet: 1, direction: 'up', move: 0.1, leadMs: 6_000, holdMs: 30_000, sizeShares: 25 });
    if (typeof started === 'string') throw new Error(started);
    const leader = LEADER_ACCOUNTS[1]!.address;
    expect(started).toMatchObject({ wallet: leader, conditionId: market.conditionId, tokenId: market.tokenIds[0], direction: 'up', moved: false });
    const held = r.engine.ledger.account(leader).holding(market.tokenIds[0]).free;
    expect(held).toBeGreaterThan(0);
    // the entry is a taker fill of the leader (BUY YES), with a transaction hash
    const entry = r.activity.fillsOf(leader);
    expect(entry.length).toBeGreaterThan(0);
    expect(entry.every((f) => f.side === 'BUY' && f.token.tokenId === market.tokenIds[0] && f.taker && f.transactionHash.length > 0)).toBe(true);
    r.clock.advanceBy(4_000);
    expect(r.leaders.stats().active[0]!.moved).toBe(false);
    r.clock.advanceBy(8_000);
    expect(r.leaders.stats()).toMatchObject({ started: 1, moved: 1, exited: 0 });
    // the maker re-centred: the mid is well above where it was when the leader bought
    expect(r.mid(market.tokenIds[0])).toBeGreaterThan(before + 0.05);
    r.clock.advanceBy(30_000);
    expect(r.leaders.stats()).toMatchObject({ started: 1, moved: 1, exited: 1, active: [] });
    expect(r.engine.ledger.account(leader).holding(market.tokenIds[0]).free).toBeLessThan(held);
    const sells = r.activity.fillsOf(leader).filter((f) => f.side === 'SELL');
    expect(sells.length).toBeGreaterThan(0);
    expect(sells.every((f) => f.timestamp >= started.exitsAt)).toBe(true);
  });

  it('down: the leader buys NO and YES falls; refusals say why', () => {
    const r = rig();
    const market = r.markets.find((m, i) => i !== 2 && r.mid(m.tokenIds[0]) > 0.3 && r.mid(m.tokenIds[0]) < 0.8)!;
    const before = r.mid(market.tokenIds[0]);
    const started = r.leaders.begin({ market: market.conditionId, direction: 'down', move: 0.1, leadMs: 1_000, holdMs: 60_000 });
    if (typeof started === 'string') throw new Error(started);
    expect(started.tokenId).toBe(market.tokenIds[1]);
    expect(r.leaders.begin({ market: market.conditionId })).toMatch(/in a leader episode already/);
    expect(r.leaders.begin({ market: 'nope' })).toMatch(/no market 'nope'/);
    expect(r.leaders.begin({ wallet: 7 })).toMatch(/no leader wallet 7/);
    r.clock.advanceBy(5_000);
    expect(r.mid(market.tokenIds[0])).toBeLessThan(before - 0.05);
    expect(rig({}, false).leaders.begin()).toMatch(/synthetic flow, which is off/);
  });

  it('the rate knob starts episodes by itself, the same ones for the same seed; 0 starts none', () => {
    const run = (ratePerHour: number) => {
      const r = rig({ ratePerHour });
      const seen = new Set<string>();
      for (let s = 0; s < 1200; s++) {
        r.clock.advanceBy(1_000);
        for (const e of r.leaders.stats().active) seen.add(`${e.wallet}@${e.slug}@${e.enteredAt}@${e.direction}`);
      }
      return { seen: [...seen], stats: r.leaders.stats() };
    };
    const a = run(120);
    expect(a.stats.started).toBeGreaterThan(10);
    expect(a.stats.exited).toBeGreaterThan(5);
    expect(run(120).seen).toEqual(a.seen);
    expect(run(0).stats.started).toBe(0);
  });
});
