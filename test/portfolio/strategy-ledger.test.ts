import { describe, expect, it } from 'vitest';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { apportion, StrategyLedger } from '../../src/portfolio/strategy-ledger.ts';

const M = 1_000_000;
const f = (tokenId: string, side: 'BUY' | 'SELL', price: number, size: number, fee = 0) => ({ tokenId, side, price, size, fee });

/** The run's portfolio and the ledger fed the same fills, each with its strategy. */
function both(fills: readonly [string, ReturnType<typeof f>][]) {
  const run = new Portfolio(1_000 * M);
  const ledger = new StrategyLedger();
  for (const [id, fill] of fills) {
    run.applyFill(fill);
    ledger.applyFill(id, fill);
  }
  return { run, ledger };
}

/** realized + unrealized - fees, as the run's summary adds them. */
const runPnl = (run: Portfolio, mark: (t: string) => number | undefined) => {
  const t = run.totals(mark);
  return t.realizedPnl + t.unrealizedPnl - t.fees;
};

describe('StrategyLedger', () => {
  it("keeps each strategy's own position and average price on a shared token", () => {
    const { run, ledger } = both([
      ['a', f('Y', 'BUY', 400_000, 10 * M)],
      ['b', f('Y', 'BUY', 600_000, 10 * M)],
      ['a', f('Y', 'SELL', 500_000, 10 * M)],
    ]);
    expect(ledger.position('a', 'Y')).toEqual({ tokenId: 'Y', size: 0, avgPrice: 0, realizedPnl: 1 * M });
    expect(ledger.position('b', 'Y')).toEqual({ tokenId: 'Y', size: 10 * M, avgPrice: 600_000, realizedPnl: 0 });
    expect(ledger.position('nobody', 'Y')).toEqual({ tokenId: 'Y', size: 0, avgPrice: 0, realizedPnl: 0 });
    // the run averaged the two buys (0.5) and realized nothing on the sale
    expect(run.position('Y')).toEqual({ tokenId: 'Y', size: 10 * M, avgPrice: 500_000, realizedPnl: 0 });
    expect(ledger.strategyIds()).toEqual(['a', 'b']);
    expect(ledger.costBasis('b')).toBe(6 * M);
  });

  it("figures add up to the run's PnL, fees and turnover, marked or not", () => {
    const { run, ledger } = both([
      ['a', f('Y', 'BUY', 400_000, 10 * M, 12_345)],
      ['b', f('Y', 'BUY', 600_000, 10 * M, 1)],
      ['a', f('Y', 'SELL', 500_000, 10 * M, 7)],
      ['b', f('N', 'BUY', 333_333, 3 * M)],
      ['c', f('N', 'BUY', 333_334, 7 * M)],
    ]);
    for (const mark of [(t: string) => (t === 'Y' ? 555_555 : 123_457), () => undefined, (t: string) => (t === 'Y' ? 555_555 : undefined)]) {
      const figures = ledger.figures(run, mark);
      const totals = run.totals(mark);
      expect(figures.reduce((s, x) => s + x.pnl, 0)).toBe(runPnl(run, mark));
      expect(figures.reduce((s, x) => s + x.fees, 0)).toBe(totals.fees);
      expect(figures.reduce((s, x) => s + x.turnover, 0)).toBe(totals.turnover);
      expect(figures.reduce((s, x) => s + x.fills, 0)).toBe(totals.fills);
      for (const x of figures) expect(x.realizedPnl + x.unrealizedPnl - x.fees).toBe(x.pnl);
    }
    const marked = ledger.figures(run, () => 500_000);
    expect(marked.map((x) => [x.strategyId, x.pnl, x.realizedPnl])).toEqual([
      ['a', 1 * M - 12_352, 1 * M],
      ['b', -1 * M - 1 + 500_001, 0],
      ['c', 1_166_662, 0],
    ]);
  });

  it('a strategy that sells what another bought goes short in its own book; the sums still hold', () => {
    const { run, ledger } = both([
      ['a', f('Y', 'BUY', 400_000, 10 * M)],
      ['b', f('Y', 'SELL', 500_000, 10 * M)],
    ]);
    expect(run.position('Y').size).toBe(0);
    expect(ledger.position('b', 'Y').size).toBe(-10 * M);
    for (const mark of [() => 700_000, () => undefined]) {
      expect(ledger.figures(run, mark).reduce((s, x) => s + x.pnl, 0)).toBe(runPnl(run, mark));
    }
  });

  it("settles every strategy's position at a resolution, as the run's", () => {
    const { run, ledger } = both([
      ['a', f('Y', 'BUY', 400_000, 10 * M)],
      ['b', f('Y', 'BUY', 600_000, 5 * M)],
    ]);
    run.settle('Y', M);
    ledger.settle('Y', M);
    expect(ledger.position('a', 'Y')).toMatchObject({ size: 0, realizedPnl: 6 * M });
    expect(ledger.position('b', 'Y')).toMatchObject({ size: 0, realizedPnl: 2 * M });
    expect(ledger.figures(run, () => undefined).reduce((s, x) => s + x.pnl, 0)).toBe(runPnl(run, () => undefined));
  });

  it('takes a void fill back from its strategy alone', () => {
    const ledger = new StrategyLedger();
    const base = ledger.tokenState('a', 'Y');
    const first = f('Y', 'BUY', 400_000, 10 * M, 5);
    const second = f('Y', 'BUY', 500_000, 10 * M, 5);
    ledger.applyFill('a', first);
    ledger.applyFill('b', f('Y', 'BUY', 900_000, 1 * M));
    ledger.applyFill('a', second);
    ledger.voidFill('a', first, base, [second]);
    expect(ledger.position('a', 'Y')).toEqual({ tokenId: 'Y', size: 10 * M, avgPrice: 500_000, realizedPnl: 0 });
    expect(ledger.position('b', 'Y').size).toBe(1 * M);
    expect(ledger.figures(new Portfolio(0), () => undefined).find((x) => x.strategyId === 'a')).toMatchObject({ fills: 1, fees: 5 });
  });
});

describe('apportion', () => {
  it('rounds to the micro so the parts add up to the target, largest remainders first', () => {
    // 1.4 + 1.4 + 1.2 micros (in Micros²) to a total of 4
    expect(apportion([1_400_000n, 1_400_000n, 1_200_000n], 4)).toEqual([2, 1, 1]);
    expect(apportion([1_400_000n, 1_600_000n, 1_200_000n], 4)).toEqual([1, 2, 1]);
    // floors too high: taken back from the smallest remainders
    expect(apportion([2_000_000n, 2_900_000n], 3)).toEqual([1, 2]);
    expect(apportion([-1_500_000n, 500_000n], -1)).toEqual([-1, 0]);
    expect(apportion([], 0)).toEqual([]);
    // parts that do not make up the target (unowned fills): left as they are
    expect(apportion([1_000_000n], 100)).toEqual([1]);
  });
});
