import { join, resolve } from 'node:path';
import { ClobotError, ConfigError } from '../core/errors.ts';
import { loadCheckedConfig } from '../config/load-config.ts';
import type { ConfigOverride } from '../config/config-overrides.ts';
import { readConfigText } from '../config/read-config-text.ts';
import { pointLabel, sweepGrid, type SweepAxis } from '../backtest/param-overrides.ts';
import type { DataWindow } from '../backtest/data-window.ts';
import { OBJECTIVES, rankBy, type ObjectiveName } from '../backtest/objectives.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { sha256File } from './data-hash.ts';
import type { BacktestJob, JobData } from './job.ts';
import { isNotRun, type JobRunner } from './job-runner.ts';

/**
 * A parameter sweep: the grid of points, one backtest job per point, run through a JobRunner
 * (worker threads here; the same jobs fit any runner), and the rows sorted by an objective.
 */

export interface SweepPoint {
  readonly index: number;
  readonly label: string;
  /** The point's keys (`--sweep`), applied after the command's `--set` keys. */
  readonly overrides: readonly ConfigOverride[];
  readonly outDir: string;
}

export interface SweepRow extends SweepPoint {
  readonly summary: BacktestSummary;
}

/** The grid of a sweep, each point with its label and output directory (`<outDir>/<label>`). */
export function sweepPoints(axes: readonly SweepAxis[], outDir: string): SweepPoint[] {
  const seen = new Map<string, number>();
  return sweepGrid(axes).map((overrides, index) => {
    const label = pointLabel(overrides);
    const other = seen.get(label);
    if (other !== undefined) throw new ConfigError(`--sweep: points ${other + 1} and ${index + 1} both write to ${label} (values that differ only in characters a folder name cannot hold)`);
    seen.set(label, index);
    return { index, label, overrides, outDir: join(outDir, label) };
  });
}

/**
 * Checks every grid point's config exactly as the YAML is checked (the schema, the cross-key rules,
 * each strategy's params) before any run starts, so a bad value is one error naming its key and
 * the flag that set it, not a failure deep in a worker. `sets`: the command's `--set` keys.
 */
export async function checkSweepPoints(configPath: string, points: readonly SweepPoint[], sets: readonly ConfigOverride[] = []): Promise<void> {
  for (const p of points) await loadCheckedConfig(configPath, process.env, { requireStrategy: true, overrides: [...sets, ...p.overrides] });
}

export interface SweepJobsInput {
  readonly configPath: string;
  /** The data files (a sweep replays them as one, as `clobot backtest --data a b` does). */
  readonly dataPaths: readonly string[];
  readonly points: readonly SweepPoint[];
  /** The command's `--set` keys, applied in every point before the point's own. */
  readonly sets?: readonly ConfigOverride[];
  /** Overrides the config's `backtest.keepGoing` in every point. */
  readonly keepGoing?: boolean;
  /** Overrides the config's `backtest.from` / `backtest.to` in every point. */
  readonly window?: Partial<DataWindow>;
}

/** One job per point: the config file's text read once, each data file hashed once. */
export async function sweepJobs(input: SweepJobsInput): Promise<BacktestJob[]> {
  const file = resolve(input.configPath);
  const config = { file, text: readConfigText(file) };
  const data: JobData[] = [];
  for (const p of input.dataPaths) {
    const path = resolve(p);
    data.push({ path, sha256: await sha256File(path) });
  }
  return input.points.map((p) => ({
    id: p.label,
    config,
    overrides: [...(input.sets ?? []), ...p.overrides],
    data,
    ...(input.window !== undefined ? { window: input.window } : {}),
    ...(input.keepGoing !== undefined ? { keepGoing: input.keepGoing } : {}),
    outDir: resolve(p.outDir),
  }));
}

/**
 * Runs the points' jobs through `runner`. Returns the rows in grid order; fails after every point
 * has run if any failed, naming how many and the first. When `signal` is aborted (Ctrl-C), the
 * points running stop at the event reached (their summaries marked partial) and the points not
 * started are left out of the rows.
 */
export async function runSweep(
  runner: JobRunner,
  points: readonly SweepPoint[],
  jobs: readonly BacktestJob[],
  onPointDone?: (row: SweepRow, done: number) => void,
  signal?: AbortSignal,
): Promise<SweepRow[]> {
  const byId = new Map(points.map((p) => [p.label, p]));
  const failures: string[] = [];
  const outcomes = await runner.run(jobs, {
    signal,
    onOutcome: (outcome, done) => {
      const point = byId.get(outcome.id)!;
      if (outcome.kind === 'done') onPointDone?.({ ...point, summary: outcome.summary }, done);
      else if (!isNotRun(outcome)) failures.push(`${point.label}: ${outcome.name}: ${outcome.message}`);
    },
  });
  for (const o of outcomes) if (o.kind === 'failed' && isNotRun(o) && signal?.aborted !== true) failures.push(`${o.id}: ${o.message}`);
  if (failures.length > 0) throw new ClobotError(`${failures.length} of ${points.length} sweep points failed; first: ${failures[0]}`);
  const rows: SweepRow[] = [];
  for (const o of outcomes) if (o.kind === 'done') rows.push({ ...byId.get(o.id)!, summary: o.summary });
  return rows;
}

/** Best first by the objective named `metric` (src/backtest/objectives.ts); ties keep grid order. */
export function sortRows<T extends { index: number; summary: BacktestSummary }>(rows: readonly T[], metric: ObjectiveName): T[] {
  return rankBy(rows, OBJECTIVES[metric]);
}
