import { describe, expect, it } from 'vitest';
import type { EventInfo } from '../../src/core/types.ts';
import { completeSetShape, heldSets, setHoldings, type SetToken } from '../../src/portfolio/complete-sets.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { StrategyLedger } from '../../src/portfolio/strategy-ledger.ts';

/**
 * Issue 21 point 3: a held YES+NO pair of one market is worth the 1 it pays, and so is a full set
 * of YES across a non-augmented neg-risk event; an augmented event's listed YES are no set.
 */

const M = 1_000_000;
const event = (id: string, augmented: boolean, markets: string[]): EventInfo => ({ id, slug: id, title: id, negRisk: true, augmented, marketConditionIds: markets });
const token = (tokenId: string, conditionId: string, outcomeIndex: 0 | 1, complementTokenId: string, e?: EventInfo): SetToken => ({ tokenId, conditionId, outcomeIndex, complementTokenId, event: e });

// a plain market (p), a neg-risk event of three outcomes (e1..e3), an augmented one of two (a1, a2)
const election = event('election', false, ['e1', 'e2', 'e3']);
const weather = event('weather', true, ['a1', 'a2']);
const TOKENS: SetToken[] = [
  token('pY', 'p', 0, 'pN'),
  token('pN', 'p', 1, 'pY'),
  ...['e1', 'e2', 'e3'].flatMap((c) => [token(`${c}Y`, c, 0, `${c}N`, election), token(`${c}N`, c, 1, `${c}Y`, election)]),
  ...['a1', 'a2'].flatMap((c) => [token(`${c}Y`, c, 0, `${c}N`, weather), token(`${c}N`, c, 1, `${c}Y`, weather)]),
];
const MARKS: Record<string, number> = { pY: 0.6 * M, pN: 0.38 * M, e1Y: 0.3 * M, e2Y: 0.25 * M, e3Y: 0.4 * M, a1Y: 0.2 * M, a2Y: 0.3 * M };
const mark = (t: string): number | undefined => MARKS[t];

function buy(p: Portfolio, tokenId: string, price: number, size: number): void {
  p.applyFill({ tokenId, side: 'BUY', price: price * M, size: size * M, fee: 0 });
}

describe('complete sets at payout', () => {
  it('the shape: a pair per market, a set per non-augmented neg-risk event whose every market is tracked', () => {
    const shape = completeSetShape(TOKENS);
    expect(shape.pairs).toHaveLength(6);
    expect(shape.eventSets).toEqual([['e1Y', 'e2Y', 'e3Y']]);
    // an event with a market the run does not track cannot be known complete
    expect(completeSetShape(TOKENS.filter((t) => t.conditionId !== 'e3')).eventSets).toEqual([]);
  });

  it('counts each share in one set at most: pairs first, then event sets', () => {
    const shape = completeSetShape(TOKENS);
    const sizes: Record<string, bigint> = { pY: 10n, pN: 4n, e1Y: 7n, e1N: 2n, e2Y: 5n, e3Y: 9n, a1Y: 3n, a2Y: 3n };
    const held = setHoldings(shape, (t) => sizes[t] ?? 0n);
    // pairs: p 4, e1 2; event set: min(7 - 2, 5, 9) = 5; the augmented event: none
    expect(held.sets).toBe(11n);
    expect(Object.fromEntries(held.inSets)).toEqual({ pY: 4n, pN: 4n, e1Y: 7n, e1N: 2n, e2Y: 5n, e3Y: 5n });
    expect(heldSets(shape, (t) => sizes[t] ?? 0n)).toEqual({ pairs: [['pY', 'pN'], ['e1Y', 'e1N']], eventSets: [['e1Y', 'e2Y', 'e3Y']] });
  });

  it('a YES+NO pair and a full neg-risk set are valued at 1 a set; the augmented set and the rest at their marks', () => {
    const p = new Portfolio(1_000 * M);
    buy(p, 'pY', 0.55, 10);
    buy(p, 'pN', 0.4, 10);
    buy(p, 'e1Y', 0.28, 20);
    buy(p, 'e2Y', 0.24, 20);
    buy(p, 'e3Y', 0.38, 25);
    buy(p, 'a1Y', 0.2, 10);
    buy(p, 'a2Y', 0.3, 10);
    const atMid = p.totals(mark);
    // before the shape is known: everything at its mark
    expect(atMid.positionValue).toBe(10 * 0.6 * M + 10 * 0.38 * M + 20 * 0.3 * M + 20 * 0.25 * M + 25 * 0.4 * M + 10 * 0.2 * M + 10 * 0.3 * M);
    expect(atMid.completeSets).toBe(0);

    p.setCompleteSets(completeSetShape(TOKENS));
    const t = p.totals(mark);
    // 10 pairs + 20 event sets at 1; 5 e3Y over the set at 0.40; the augmented YES at their marks
    expect(t.completeSets).toBe(30 * M);
    expect(t.setValue).toBe(30 * M);
    expect(t.setMarkValue).toBe(10 * (0.6 + 0.38) * M + 20 * (0.3 + 0.25 + 0.4) * M);
    expect(t.positionValue).toBe(30 * M + 5 * 0.4 * M + 10 * 0.2 * M + 10 * 0.3 * M);
    // unrealized: value less cost (the cost of everything held)
    const cost = 10 * 0.55 * M + 10 * 0.4 * M + 20 * 0.28 * M + 20 * 0.24 * M + 25 * 0.38 * M + 10 * 0.2 * M + 10 * 0.3 * M;
    expect(t.unrealizedPnl).toBe(t.positionValue - cost);
    expect(t.positionValue - atMid.positionValue).toBe(t.setValue - t.setMarkValue);
    // risk's PnL reads the same valuation
    expect(p.pnl(mark)).toBe(t.realizedPnl + t.unrealizedPnl - t.fees);
    // a set is worth 1 with no mark at all
    expect(p.totals(() => undefined).setValue).toBe(30 * M);
  });

  it("each strategy's own sets at payout, adding up to the run's", () => {
    const shape = completeSetShape(TOKENS);
    const run = new Portfolio(1_000 * M);
    const ledger = new StrategyLedger();
    run.setCompleteSets(shape);
    ledger.setCompleteSets(shape);
    const fill = (id: string, tokenId: string, price: number, size: number) => {
      const f = { tokenId, side: 'BUY' as const, price: price * M, size: size * M, fee: 0 };
      run.applyFill(f);
      ledger.applyFill(id, f);
    };
    fill('arb', 'e1Y', 0.28, 20);
    fill('arb', 'e2Y', 0.24, 20);
    fill('arb', 'e3Y', 0.38, 20);
    fill('mm', 'pY', 0.55, 4);
    const [arb, mm] = ledger.figures(run, mark);
    // arb: 20 sets at 1 against a cost of 18: 2; mm: 4 YES marked at 0.60 against 2.2
    expect(arb).toMatchObject({ strategyId: 'arb', pnl: 2 * M, unrealizedPnl: 2 * M });
    expect(mm).toMatchObject({ strategyId: 'mm', pnl: 0.2 * M });
    const t = run.totals(mark);
    expect(arb!.pnl + mm!.pnl).toBe(t.realizedPnl + t.unrealizedPnl - t.fees);
  });
});
