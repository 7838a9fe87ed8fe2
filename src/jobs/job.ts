import type { ConfigOverride } from '../config/config-overrides.ts';
import type { DataWindow } from '../backtest/data-window.ts';
import type { BacktestSummary } from '../backtest/summary.ts';

/**
 * A backtest job: everything one run needs, as plain JSON (a thread, a process or a queue on
 * another machine can carry it). The config is resolved: the file's bytes as they were when the
 * job was made, plus the overrides of this point, so a file edited meanwhile changes no job. The
 * data is one file or several replayed as one (src/backtest/data-set.ts), each named by its
 * content: the runner reads it at `path` and refuses it unless its SHA-256 is `sha256` (a job
 * never runs on other data than it was made for).
 */
export interface BacktestJob {
  /** Unique among the jobs run together (a sweep point's label). */
  readonly id: string;
  readonly config: JobConfig;
  /** Config keys set for this job (`--set`, then the sweep point's keys), applied over the text's as the YAML's own. */
  readonly overrides: readonly ConfigOverride[];
  /** The data files, in the order given (`--data a b`, a glob's matches in name order). */
  readonly data: readonly JobData[];
  /** Overrides the config's `backtest.from` / `backtest.to`. */
  readonly window?: Partial<DataWindow>;
  /** Overrides the config's `backtest.keepGoing`. */
  readonly keepGoing?: boolean;
  /** Where the job writes summary.json and report.html (absolute). */
  readonly outDir: string;
}

/** The run config of a job: its text and the file it came from (relative paths in it resolve against the file). */
export interface JobConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  readonly text: string;
}

/** A job's data file: where to read it and the SHA-256 its content must have. */
export interface JobData {
  /** Absolute path, as the machine running the job sees it. */
  readonly path: string;
  /** Lower-case hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

/** What became of a job: its summary, or the error that stopped it (name and message). */
export type JobOutcome =
  | { readonly kind: 'done'; readonly id: string; readonly summary: BacktestSummary }
  | { readonly kind: 'failed'; readonly id: string; readonly name: string; readonly message: string };

/** A backtest's log file (the strategies' `ctx.log` and the engine's lines) in its output folder. */
export const JOB_LOG_FILE = 'backtest.log';
