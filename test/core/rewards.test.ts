import { describe, expect, it } from 'vitest';
import {
  adjustedMidpoint,
  bookInYesTerms,
  estimateShare,
  makerScore,
  oneSidedScores,
  orderScore,
  quoteInYesTerms,
  rewardRulesOf,
  sampleMarket,
  sampleReward,
  shareOf,
  type RewardBook,
  type RewardQuote,
  type RewardRules,
} from '../../src/core/rewards.ts';

/**
 * Known answers of the scoring model, each worked by hand below (docs/rewards.md).
 * The rules of every case: v = 3 cents, min_size = 100 shares, 144 USDC a day (0.1 USDC a
 * minute for the whole market). Prices in Micros (0.49 = 490_000), sizes in Micros of shares.
 */
const RULES: RewardRules = { dailyRate: 144, minSize: 100_000_000, maxSpreadCents: 3 };
const sh = (n: number): number => Math.round(n * 1_000_000);
const px = (p: number): number => Math.round(p * 1_000_000);
const bid = (p: number, size: number): RewardQuote => ({ side: 'BUY', price: px(p), size: sh(size) });
const ask = (p: number, size: number): RewardQuote => ({ side: 'SELL', price: px(p), size: sh(size) });
const book = (bids: [number, number][], asks: [number, number][]): RewardBook => ({
  bids: bids.map(([p, s]) => ({ price: px(p), size: sh(s) })),
  asks: asks.map(([p, s]) => ({ price: px(p), size: sh(s) })),
});
const DIGITS = 9;

describe('the liquidity-rewards scoring model (src/core/rewards.ts)', () => {
  // the book of most cases: 0.48 bid / 0.52 ask, 200 shares each: adjusted mid 0.50
  const B = book([[0.48, 200]], [[0.52, 200]]);

  it('one order: S = ((v - s) / v)^2 * size', () => {
    // bid 0.49 x 100 against mid 0.50: s = 1 cent; ((3 - 1) / 3)^2 * 100 = 4/9 * 100 = 44.444...
    expect(orderScore(RULES, 500_000, bid(0.49, 100))).toBeCloseTo(400 / 9, DIGITS);
    // ask 0.52 x 200: s = 2 cents; (1/3)^2 * 200 = 22.222...
    expect(orderScore(RULES, 500_000, ask(0.52, 200))).toBeCloseTo(200 / 9, DIGITS);
    // at the midpoint: the full size
    expect(orderScore(RULES, 500_000, bid(0.5, 150))).toBeCloseTo(150, DIGITS);
  });

  it('one-sided inside [0.10, 0.90]: a third of the side (c = 3)', () => {
    const sample = sampleMarket(RULES, B, new Map([['A', [bid(0.49, 100)]]]));
    expect(sample.mid).toBe(500_000);
    // Q1 = 44.444, Q2 = 0: max(min(Q1, Q2), max(Q1, Q2) / 3) = 14.814...
    expect(sample.scores.get('A')).toBeCloseTo(400 / 27, DIGITS);
    // alone in the market: the whole minute, 144 / 1440 = 0.1 USDC
    expect(shareOf(sample, 'A')).toBe(1);
    expect(sampleReward(RULES, shareOf(sample, 'A'), 60_000)).toBeCloseTo(0.1, DIGITS);
  });

  it('two-sided: the weaker side, unless a third of the stronger is more', () => {
    // Q1 = 44.444 (bid 0.49 x 100), Q2 = 22.222 (ask 0.52 x 200): max(22.222, 14.815) = 22.222
    expect(makerScore(RULES, 500_000, [bid(0.49, 100), ask(0.52, 200)])).toBeCloseTo(200 / 9, DIGITS);
    // Q1 = 44.444, Q2 = (0.5 / 3)^2 * 100 = 2.778 (ask 0.525 x 100): max(2.778, 14.815) = 14.815
    expect(makerScore(RULES, 500_000, [bid(0.49, 100), ask(0.525, 100)])).toBeCloseTo(400 / 27, DIGITS);
  });

  it('the complement: a NO ask is a YES bid, a NO bid a YES ask, summed on the same side', () => {
    // SELL NO 0.51 x 100 = BUY YES 0.49 x 100; BUY NO 0.48 x 200 = SELL YES 0.52 x 200
    const noAsk = quoteInYesTerms(1, 'SELL', px(0.51), sh(100));
    const noBid = quoteInYesTerms(1, 'BUY', px(0.48), sh(200));
    expect(noAsk).toEqual(bid(0.49, 100));
    expect(noBid).toEqual(ask(0.52, 200));
    // the same 22.222 as the YES-only two-sided maker
    expect(makerScore(RULES, 500_000, [noAsk, noBid])).toBeCloseTo(200 / 9, DIGITS);
    // YES bid 0.49 x 100 and NO ask 0.51 x 100 both sit on the bid side: Q1 = 88.889, Q2 = 0: 29.630
    expect(makerScore(RULES, 500_000, [bid(0.49, 100), noAsk])).toBeCloseTo(800 / 27, DIGITS);
    // the NO book in YES terms: its bid 0.48 is a YES ask 0.52
    expect(bookInYesTerms(1, book([[0.48, 200]], [[0.52, 200]]))).toEqual(book([[0.48, 200]], [[0.52, 200]]));
    expect(bookInYesTerms(1, book([[0.4, 10]], [[0.7, 20]]))).toEqual(book([[0.3, 20]], [[0.6, 10]]));
  });

  it('the min-size cutoff: an order under min_size earns nothing', () => {
    expect(orderScore(RULES, 500_000, { side: 'BUY', price: 490_000, size: 99_999_999 })).toBe(0);
    expect(orderScore(RULES, 500_000, bid(0.49, 100))).toBeGreaterThan(0);
    const sample = sampleMarket(RULES, B, new Map([['A', [bid(0.49, 99.999999), ask(0.51, 99.999999)]]]));
    expect(sample.scores.has('A')).toBe(false);
    expect(shareOf(sample, 'A')).toBe(0);
  });

  it('the max-spread cutoff: at v cents or farther earns nothing', () => {
    // 0.47 is 3 cents from 0.50: ((3 - 3) / 3)^2 = 0
    expect(orderScore(RULES, 500_000, bid(0.47, 1000))).toBe(0);
    expect(orderScore(RULES, 500_000, ask(0.54, 1000))).toBe(0);
    // 0.475 is 2.5 cents: (0.5 / 3)^2 * 100 = 2.777...
    expect(orderScore(RULES, 500_000, bid(0.475, 100))).toBeCloseTo(25 / 9, DIGITS);
  });

  it('the size-cutoff-adjusted midpoint: dust in front of a side does not move it', () => {
    // bids 0.49 x 10 then 0.45 x 200: 100 shares are reached at 0.45; ask 0.55: mid 0.50 (a plain mid would be 0.52)
    expect(adjustedMidpoint(book([[0.49, 10], [0.45, 200]], [[0.55, 200]]), RULES.minSize)).toBe(500_000);
    // a side thinner than min_size gives its last level; an empty side gives none
    expect(adjustedMidpoint(book([[0.49, 10]], [[0.55, 20]]), RULES.minSize)).toBe(520_000);
    expect(adjustedMidpoint(book([], [[0.55, 200]]), RULES.minSize)).toBeUndefined();
    const empty = sampleMarket(RULES, book([], [[0.55, 200]]), new Map([['A', [ask(0.55, 200)]]]));
    expect(empty.mid).toBeUndefined();
    expect(empty.total).toBe(0);
  });

  it('the [0.10, 0.90] rule: outside it one-sided quoting earns nothing, two-sided the weaker side', () => {
    expect(oneSidedScores(100_000)).toBe(true);
    expect(oneSidedScores(900_000)).toBe(true);
    expect(oneSidedScores(99_999.5)).toBe(false);
    expect(oneSidedScores(900_000.5)).toBe(false);
    // book bids 0.05 x 100 (A's), 0.04 x 500; asks 0.06 x 500: cutoffs 0.05 and 0.06, mid 0.055
    const low = book([[0.05, 100], [0.04, 500]], [[0.06, 500]]);
    const oneSided = sampleMarket(RULES, low, new Map([['A', [bid(0.05, 100)]]]));
    expect(oneSided.mid).toBe(55_000);
    expect(oneSided.scores.has('A')).toBe(false);
    // with an ask 0.06 x 100 too: both sides (2.5 / 3)^2 * 100 = 69.444, min = 69.444
    const twoSided = sampleMarket(RULES, book([[0.05, 100], [0.04, 500]], [[0.06, 600]]), new Map([['A', [bid(0.05, 100), ask(0.06, 100)]]]));
    expect(twoSided.scores.get('A')).toBeCloseTo(625 / 9, DIGITS);
    // the same one-sided quote at mid 0.50 would keep a third
    expect(makerScore(RULES, 500_000, [bid(0.49, 100)])).toBeCloseTo(400 / 27, DIGITS);
  });

  it('several makers share one minute by their Q_min', () => {
    // A: bid 0.49 x 100 and ask 0.51 x 100: 44.444 each side: Q = 44.444
    // B: bid 0.48 x 300 only: (1/3)^2 * 300 = 33.333, one-sided: 11.111
    // C: bid 0.49 x 50: under min_size: 0
    // book: bids 0.49 x 150, 0.48 x 300; ask 0.51 x 100: cutoffs 0.49 and 0.51, mid 0.50
    const b = book([[0.49, 150], [0.48, 300]], [[0.51, 100]]);
    const makers = new Map([
      ['A', [bid(0.49, 100), ask(0.51, 100)]],
      ['B', [bid(0.48, 300)]],
      ['C', [bid(0.49, 50)]],
    ]);
    const sample = sampleMarket(RULES, b, makers);
    expect(sample.total).toBeCloseTo(500 / 9, DIGITS); // 44.444 + 11.111
    expect(shareOf(sample, 'A')).toBeCloseTo(0.8, DIGITS);
    expect(shareOf(sample, 'B')).toBeCloseTo(0.2, DIGITS);
    expect(shareOf(sample, 'C')).toBe(0);
    // the minute pays 0.1: A 0.08, B 0.02
    expect(sampleReward(RULES, shareOf(sample, 'A'), 60_000)).toBeCloseTo(0.08, DIGITS);
    expect(sampleReward(RULES, shareOf(sample, 'B'), 60_000)).toBeCloseTo(0.02, DIGITS);
    // the day: the daily rate times the mean share; 1,440 minutes at 0.8 = 115.2
    let day = 0;
    for (let i = 0; i < 1440; i++) day += sampleReward(RULES, 0.8, 60_000);
    expect(day).toBeCloseTo(115.2, 6);
  });

  it("our estimate from the displayed book: the rest of the book as one maker, with or without our orders in it", () => {
    const ours = [bid(0.49, 100), ask(0.51, 100)];
    // live: the book shows ours. Without them: bids 0.49 x 50 (under min) and 0.48 x 300 (11.111 one-sided)
    const live = estimateShare(RULES, book([[0.49, 150], [0.48, 300]], [[0.51, 100]]), ours, true);
    expect(live.mid).toBe(500_000);
    expect(live.ours).toBeCloseTo(400 / 9, DIGITS);
    expect(live.others).toBeCloseTo(100 / 9, DIGITS);
    expect(live.share).toBeCloseTo(0.8, DIGITS);
    // simulated: the recorded book never holds ours; the midpoint is taken with ours added
    const sim = estimateShare(RULES, book([[0.49, 50], [0.48, 300]], []), ours, false);
    expect(sim.mid).toBe(500_000);
    expect(sim.share).toBeCloseTo(0.8, DIGITS);
    // nothing of ours qualifies: no share
    expect(estimateShare(RULES, book([[0.49, 150]], [[0.51, 100]]), [bid(0.49, 50)], true).share).toBe(0);
  });

  it('with the inferred competition: sub-min_size orders of one level earn nothing and do not compete; one big order does', () => {
    // ours: bid 0.49 x 100 and ask 0.51 x 100 against mid 0.50: 44.444 a side, Q_min 44.444
    const ours = [bid(0.49, 100), ask(0.51, 100)];
    // the others' bid level 0.49 x 150: as one order (the level model) it scores 4/9 * 150 = 66.667 one-sided: 22.222
    const levels = book([[0.49, 150]], [[0.52, 200]]);
    const asOneOrder = estimateShare(RULES, levels, ours, false);
    expect(asOneOrder.mid).toBe(500_000);
    // others: bid 66.667, ask 0.52 x 200 at 2 cents: 1/9 * 200 = 22.222; Q_min = max(22.222, 66.667 / 3) = 22.222
    expect(asOneOrder.others).toBeCloseTo(200 / 9, DIGITS);
    expect(asOneOrder.share).toBeCloseTo(400 / 9 / (400 / 9 + 200 / 9), DIGITS);
    // the same level as three orders of 50 (each under min_size 100): only the ask scores,
    // one-sided 22.222 / 3 = 7.407; the share 44.444 / 51.852 = 0.857
    const small = [bid(0.49, 50), bid(0.49, 50), bid(0.49, 50), ask(0.52, 200)];
    const split = estimateShare(RULES, levels, ours, false, small);
    expect(split.mid).toBe(500_000);
    expect(split.others).toBeCloseTo(200 / 27, DIGITS);
    expect(split.share).toBeCloseTo(400 / 9 / (400 / 9 + 200 / 27), DIGITS);
    // nothing but dust: the others score nothing, our share is 1
    const dust = estimateShare(RULES, levels, ours, false, [bid(0.49, 50), bid(0.49, 99.999999), ask(0.52, 60)]);
    expect(dust.others).toBe(0);
    expect(dust.share).toBe(1);
    // one big order is what the level model assumed: the same figure
    const big = estimateShare(RULES, levels, ours, false, [bid(0.49, 150), ask(0.52, 200)]);
    expect(big.others).toBeCloseTo(asOneOrder.others, DIGITS);
    expect(big.share).toBeCloseTo(asOneOrder.share, DIGITS);
  });

  it('live, the inferred orders hold ours: each of ours takes out the order of its size, else its size from the newest', () => {
    const ours = [bid(0.49, 100), ask(0.51, 100)];
    // the venue's book: 0.49 x 150 (ours 100 + someone's 50), 0.51 x 100 (ours), 0.52 x 200
    const shown = book([[0.49, 150]], [[0.51, 100], [0.52, 200]]);
    const inferred = [bid(0.49, 50), bid(0.49, 100), ask(0.51, 100), ask(0.52, 200)];
    const live = estimateShare(RULES, shown, ours, true, inferred);
    // mid: bid cutoff 0.49 (150 >= 100), ask cutoff 0.51: 0.50. Others: the 50 (dust) and ask 0.52 x 200: 22.222 / 3
    expect(live.mid).toBe(500_000);
    expect(live.others).toBeCloseTo(200 / 27, DIGITS);
    // the level inferred as one order of 150 (no history): ours comes off it, 50 left, dust again
    const oneOrder = estimateShare(RULES, shown, ours, true, [bid(0.49, 150), ask(0.51, 100), ask(0.52, 200)]);
    expect(oneOrder.others).toBeCloseTo(200 / 27, DIGITS);
  });

  it('the wire form becomes the rules: rates summed, min_size in Micros, max_spread in cents; no rates: no rewards', () => {
    expect(rewardRulesOf({ rates: [{ rewardsDailyRate: 750 }, { rewardsDailyRate: 50 }], minSize: 200, maxSpread: 1.5 })).toEqual({ dailyRate: 800, minSize: 200_000_000, maxSpreadCents: 1.5 });
    expect(rewardRulesOf({ rates: [], minSize: 0, maxSpread: 0 })).toBeUndefined();
  });
});
