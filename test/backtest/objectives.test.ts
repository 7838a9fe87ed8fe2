import { describe, expect, it } from 'vitest';
import { isObjectiveName, OBJECTIVE_NAMES, OBJECTIVES, rankBy } from '../../src/backtest/objectives.ts';
import type { BacktestSummary } from '../../src/backtest/summary.ts';
import { Dec } from '../../src/core/fixed.ts';

const summary = (metrics: Record<string, unknown>) => ({ metrics }) as unknown as BacktestSummary;

describe('objectives over the summary\'s exact figures', () => {
  it('compare decimal strings exactly, where Number() would call them equal', () => {
    // one micro apart past 2^53 micros: the same double, different money
    const rows = [
      { index: 0, summary: summary({ pnl: { total: '900719925474.099201' } }) },
      { index: 1, summary: summary({ pnl: { total: '900719925474.099202' } }) },
    ];
    expect(Number('900719925474.099201')).toBe(Number('900719925474.099202'));
    expect(rankBy(rows, OBJECTIVES.pnl).map((r) => r.index)).toEqual([1, 0]);
    expect(OBJECTIVES.pnl.score(rows[1]!.summary)!.minus(OBJECTIVES.pnl.score(rows[0]!.summary)!).toString()).toBe('0.000001');
  });

  it('score each figure with its direction; a missing ratio scores null and ranks last', () => {
    const s = summary({
      pnl: { total: '-1.5' },
      return: '-0.00015',
      sharpe: null,
      sortino: '1.25',
      calmar: null,
      maxDrawdown: { amount: '2.25' },
      fills: 7,
      fees: '0.031',
      turnover: '120.5',
      winRate: '0.5',
    });
    expect(Object.fromEntries(OBJECTIVE_NAMES.map((n) => [n, OBJECTIVES[n].score(s)?.toString() ?? null]))).toEqual({
      pnl: '-1.5',
      return: '-0.00015',
      sharpe: null,
      sortino: '1.25',
      calmar: null,
      pnlPerDrawdown: new Dec('-1.5').div('2.25').toString(),
      maxDrawdown: '2.25',
      fills: '7',
      fees: '0.031',
      turnover: '120.5',
      winRate: '0.5',
    });
    expect(OBJECTIVE_NAMES.filter((n) => !OBJECTIVES[n].higherIsBetter)).toEqual(['maxDrawdown', 'fees']);
    // PnL per drawdown: the drawdown floored at 1 USDC
    expect(OBJECTIVES.pnlPerDrawdown.score(summary({ pnl: { total: '3' }, maxDrawdown: { amount: '0' } })).toString()).toBe('3');
    const rows = [0, 1, 2].map((index) => ({ index, summary: summary({ winRate: index === 1 ? null : '0.25' }) }));
    expect(rankBy(rows, OBJECTIVES.winRate).map((r) => r.index)).toEqual([0, 2, 1]);
  });

  it('knows its names', () => {
    expect(isObjectiveName('sharpe')).toBe(true);
    expect(isObjectiveName('luck')).toBe(false);
    expect(isObjectiveName('toString')).toBe(false);
  });
});
