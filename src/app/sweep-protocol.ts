import type { ParamOverride } from '../backtest/param-overrides.ts';
import type { BacktestSummary } from '../backtest/summary.ts';

/** Main thread to a sweep worker: run one grid point. */
export interface SweepJob {
  readonly kind: 'job';
  readonly index: number;
  readonly configPath: string;
  readonly dataPath: string;
  readonly overrides: readonly ParamOverride[];
  /** Where the point's summary.json and report.html go. */
  readonly outDir: string;
  /** `--keep-going`: overrides the config's `backtest.keepGoing`. */
  readonly keepGoing?: boolean;
}

/** A sweep worker's answer to one job. */
export type SweepReply =
  | { readonly kind: 'done'; readonly index: number; readonly summary: BacktestSummary }
  | { readonly kind: 'failed'; readonly index: number; readonly name: string; readonly message: string };
