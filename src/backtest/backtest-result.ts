import type { TrackedToken } from '../data/market-cache.ts';
import type { RecordedMarket } from '../data/recording/format.ts';
import type { EngineSummary } from '../engine/engine-summary.ts';
import type { BacktestMetrics, EquityCurve, FillRecord } from './metrics.ts';
import type { BacktestSummary } from './summary.ts';

/** What a backtest run gives: its summary, metrics, equity curve and fills, and what it ran on. */
export interface BacktestResult {
  readonly summary: BacktestSummary;
  readonly metrics: BacktestMetrics;
  readonly curve: EquityCurve;
  /** Our accrued liquidity rewards over time (USDC, at each point of the equity trail): the report's rewards line. */
  readonly rewardTrail?: { readonly t: readonly number[]; readonly v: readonly number[] };
  readonly fills: readonly FillRecord[];
  readonly tokens: readonly TrackedToken[];
  readonly markets: readonly RecordedMarket[];
  readonly engine: EngineSummary;
  readonly warnings: readonly string[];
}
