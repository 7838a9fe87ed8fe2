import { Dec } from '../core/fixed.ts';
import type { BacktestSummary } from './summary.ts';

/**
 * What a sweep sorts by (and an optimiser will score by): functions over a summary's exact
 * figures. The summary keeps money and ratios as exact decimal strings; an objective reads them as
 * decimals (never through `Number()`), so two points compare exactly as the summaries say.
 */
export interface Objective {
  /** What the objective measures, for `--sort` help and tables. */
  readonly describe: string;
  /** True when a larger value is better (PnL), false when a smaller one is (drawdown, fees). */
  readonly higherIsBetter: boolean;
  /** The point's score, or null when the summary has none (no Sharpe without varying returns). */
  score(summary: BacktestSummary): Dec | null;
}

const exact = (text: string | null): Dec | null => (text === null ? null : new Dec(text));
const count = (n: number): Dec => new Dec(n);

/** Every objective by name; `--sort` takes these names. */
export const OBJECTIVES = {
  pnl: { describe: 'total PnL (realized + unrealized − fees)', higherIsBetter: true, score: (s) => exact(s.metrics.pnl.total) },
  return: { describe: 'total PnL over the starting balance', higherIsBetter: true, score: (s) => exact(s.metrics.return) },
  sharpe: { describe: 'annualised Sharpe ratio of the equity curve', higherIsBetter: true, score: (s) => exact(s.metrics.sharpe) },
  sortino: { describe: 'annualised Sortino ratio (downside deviation only)', higherIsBetter: true, score: (s) => exact(s.metrics.sortino) },
  calmar: { describe: 'annualised return over the largest drawdown', higherIsBetter: true, score: (s) => exact(s.metrics.calmar) },
  pnlPerDrawdown: {
    describe: 'total PnL over the largest drawdown (floored at 1 USDC, so a run that never fell is not a division by 0)',
    higherIsBetter: true,
    score: (s) => new Dec(s.metrics.pnl.total).div(Dec.max(new Dec(s.metrics.maxDrawdown.amount), 1)),
  },
  maxDrawdown: { describe: 'largest fall of equity from a peak (lower is better)', higherIsBetter: false, score: (s) => exact(s.metrics.maxDrawdown.amount) },
  fills: { describe: 'number of fills', higherIsBetter: true, score: (s) => count(s.metrics.fills) },
  fees: { describe: 'fees paid (lower is better)', higherIsBetter: false, score: (s) => exact(s.metrics.fees) },
  turnover: { describe: 'traded notional', higherIsBetter: true, score: (s) => exact(s.metrics.turnover) },
  winRate: { describe: 'share of closing fills that made money', higherIsBetter: true, score: (s) => exact(s.metrics.winRate) },
} as const satisfies Record<string, Objective>;

export type ObjectiveName = keyof typeof OBJECTIVES;
export const OBJECTIVE_NAMES = Object.keys(OBJECTIVES) as ObjectiveName[];

export function isObjectiveName(name: string): name is ObjectiveName {
  return Object.hasOwn(OBJECTIVES, name);
}

/**
 * Orders rows best first by `objective`: a point without a score after every point with one;
 * ties keep the rows' `index` order (the grid's), so a sort is the same on every machine.
 */
export function rankBy<T extends { readonly index: number; readonly summary: BacktestSummary }>(rows: readonly T[], objective: Objective): T[] {
  const scored = rows.map((row) => ({ row, score: objective.score(row.summary) }));
  scored.sort((a, b) => {
    if (a.score === null || b.score === null) return a.score === b.score ? a.row.index - b.row.index : a.score === null ? 1 : -1;
    const c = a.score.comparedTo(b.score);
    if (c !== 0) return objective.higherIsBetter ? -c : c;
    return a.row.index - b.row.index;
  });
  return scored.map((s) => s.row);
}
