import { describe, expect, it } from 'vitest';
import { byExpectedReward, rewardCompetition } from '../../src/core/reward-competition.ts';
import type { RewardBook, RewardRules } from '../../src/core/rewards.ts';

/**
 * The competition measure `clobot markets --rewards` ranks by (src/core/reward-competition.ts),
 * worked by hand. Rules: 144 USDC a day, min_size 100 shares, band 3 cents; tick 0.01; a quote of
 * 100 USDC.
 */
const RULES: RewardRules = { dailyRate: 144, minSize: 100_000_000, maxSpreadCents: 3 };
const TICK = 10_000;
const book = (bid: number, ask: number, size = 500): RewardBook => ({
  bids: [{ price: bid * 1e6, size: size * 1e6 }],
  asks: [{ price: ask * 1e6, size: size * 1e6 }],
});

describe('the reward competition measure (clobot markets --rewards)', () => {
  it('a competed band: the quote joins the best prices; its share against the depth shown', () => {
    const c = rewardCompetition(RULES, book(0.48, 0.52), TICK, 100);
    // mid 0.50; both levels 2 cents out (inside the 3-cent band) and at least min_size
    expect(c.mid).toBe(500_000);
    expect(c.depthInBand).toEqual({ bid: 500_000_000, ask: 500_000_000 });
    // the rest of the book as one maker: (1/3)^2 * 500 = 55.556 a side
    expect(c.competition).toBeCloseTo(500 / 9, 9);
    // one share a side costs 0.48 + (1 - 0.52) = 0.96: 100 / 0.96 = 104.1666 -> 104.16 shares, 99.9936 USDC
    expect(c.quote).toEqual({ bid: 480_000, ask: 520_000, size: 104_160_000, costUsdc: 99.9936 });
    expect(c.minCostUsdc).toBeCloseTo(96, 9);
    // ours at the same distance: (1/9) * 104.16 a side; share 104.16 / 604.16; 144 a day times it
    expect(c.share).toBeCloseTo(104.16 / 604.16, 12);
    expect(c.dailyReward).toBeCloseTo((144 * 104.16) / 604.16, 9);
  });

  it('an empty band: the ticks nearest the midpoint, the whole rate', () => {
    const c = rewardCompetition(RULES, book(0.4, 0.6), TICK, 100);
    expect(c.depthInBand).toEqual({ bid: 0, ask: 0 });
    expect(c.competition).toBe(0);
    // 0.40 and 0.60 are 10 cents out: 0.49 / 0.51 instead; 100 / 0.98 = 102.04 shares
    expect(c.quote).toMatchObject({ bid: 490_000, ask: 510_000, size: 102_040_000 });
    expect(c.share).toBe(1);
    expect(c.dailyReward).toBe(144);
  });

  it('a quote under min_size earns nothing and says what would; an empty side has no midpoint', () => {
    const c = rewardCompetition({ ...RULES, minSize: 200_000_000 }, book(0.48, 0.52), TICK, 100);
    expect(c.quote?.size).toBe(104_160_000);
    expect(c.share).toBe(0);
    expect(c.dailyReward).toBe(0);
    expect(c.minCostUsdc).toBeCloseTo(192, 9);
    const oneSided = rewardCompetition(RULES, { bids: book(0.48, 0.52).bids, asks: [] }, TICK, 100);
    expect(oneSided).toMatchObject({ mid: undefined, quote: undefined, share: 0, dailyReward: 0 });
  });

  it('outside [0.10, 0.90] the two-sided quote still scores (its weaker side)', () => {
    // mid 0.05: 0.04 / 0.06, each 1 cent out; 100 / (0.04 + 0.94) = 102.04 shares
    const c = rewardCompetition(RULES, book(0.04, 0.06), TICK, 100);
    expect(c.quote).toMatchObject({ bid: 40_000, ask: 60_000, size: 102_040_000 });
    expect(c.share).toBeCloseTo(102.04 / 602.04, 12);
  });

  it('ranks by expected USDC a day, then the daily rate, then the condition id', () => {
    const row = (conditionId: string, dailyRate: number, dailyReward: number) => ({ conditionId, dailyRate, competition: { dailyReward } });
    const rows = [row('0xb', 10, 1), row('0xa', 50, 0), row('0xc', 10, 1), row('0xd', 5, 3), row('0xe', 60, 0)];
    expect(rows.sort(byExpectedReward).map((r) => r.conditionId)).toEqual(['0xd', '0xb', '0xc', '0xe', '0xa']);
  });
});
