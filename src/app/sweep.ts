import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ClobotError } from '../core/errors.ts';
import type { RunConfig } from '../config/run-config.ts';
import { loadStrategy } from '../strategy/loader.ts';
import { applyOverrides, pointLabel, sweepGrid, type ParamOverride, type SweepAxis } from '../backtest/param-overrides.ts';
import type { SweepJob, SweepReply } from './sweep-protocol.ts';
import type { BacktestSummary } from '../backtest/summary.ts';

const WORKER_URL = new URL('./sweep-worker.mjs', import.meta.url);

export interface SweepPoint {
  readonly index: number;
  readonly label: string;
  readonly overrides: readonly ParamOverride[];
  readonly outDir: string;
}

export interface SweepRow extends SweepPoint {
  readonly summary: BacktestSummary;
}

/** The grid of a sweep, each point with its label and output directory (`<outDir>/<label>`). */
export function sweepPoints(axes: readonly SweepAxis[], outDir: string): SweepPoint[] {
  return sweepGrid(axes).map((overrides, index) => {
    const label = pointLabel(overrides);
    return { index, label, overrides, outDir: join(outDir, label) };
  });
}

/**
 * Checks every grid point's parameters against the strategies' own schemas before any run
 * starts, so a bad value is one error naming the parameter, not a failure deep in a worker.
 */
export async function checkSweepPoints(config: RunConfig, points: readonly SweepPoint[]): Promise<void> {
  for (const s of config.strategies) {
    if (!s.enabled) continue;
    const touched = points.some((p) => p.overrides.some((o) => o.strategyId === s.id));
    if (!touched) continue;
    for (const p of points) await loadStrategy(s, { params: applyOverrides(s.id, s.params, p.overrides) });
  }
}

export interface SweepOptions {
  readonly configPath: string;
  readonly dataPath: string;
  readonly points: readonly SweepPoint[];
  /** Worker threads; default one per core, never more than points. */
  readonly workers?: number;
  readonly onPointDone?: (row: SweepRow, done: number) => void;
  /** Overrides the config's `backtest.keepGoing` in every point. */
  readonly keepGoing?: boolean;
}

/**
 * Runs the grid across worker threads, one point per worker at a time. Each worker loads the
 * config and reads the recording itself, so a point's result is exactly what an in-process run
 * of it gives. Returns the rows in grid order; fails after every point has run if any failed.
 */
export async function runSweep(options: SweepOptions): Promise<SweepRow[]> {
  const points = options.points;
  const size = Math.max(1, Math.min(points.length, options.workers ?? availableParallelism()));
  const rows: (SweepRow | undefined)[] = new Array<SweepRow | undefined>(points.length);
  const failures: string[] = [];
  let next = 0;
  let done = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: size }, () => {
        const worker = new Worker(WORKER_URL);
        workers.push(worker);
        return new Promise<void>((resolveAll, reject) => {
          const give = (): void => {
            const point = points[next++];
            if (point === undefined) {
              resolveAll();
              return;
            }
            const job: SweepJob = {
              kind: 'job',
              index: point.index,
              configPath: resolve(options.configPath),
              dataPath: resolve(options.dataPath),
              overrides: point.overrides,
              outDir: resolve(point.outDir),
              keepGoing: options.keepGoing,
            };
            worker.postMessage(job);
          };
          worker.on('message', (reply: SweepReply) => {
            const point = points[reply.index]!;
            done++;
            if (reply.kind === 'done') {
              const row = { ...point, summary: reply.summary };
              rows[reply.index] = row;
              options.onPointDone?.(row, done);
            } else {
              failures.push(`${point.label}: ${reply.name}: ${reply.message}`);
            }
            give();
          });
          worker.on('error', (err) => reject(new ClobotError(`sweep worker failed: ${err.message}`, { cause: err })));
          worker.on('exit', (code) => {
            if (code !== 0) reject(new ClobotError(`sweep worker exited with code ${code}`));
          });
          give();
        });
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (failures.length > 0) throw new ClobotError(`${failures.length} of ${points.length} sweep points failed; first: ${failures[0]}`);
  return rows as SweepRow[];
}

/** Sort keys of `--sort`: higher is better except where noted. */
export const SORT_METRICS = ['pnl', 'return', 'sharpe', 'maxDrawdown', 'fills', 'fees', 'turnover', 'winRate'] as const;
export type SortMetric = (typeof SORT_METRICS)[number];

/** The metric's value for sorting (null sorts last), and whether lower is better. */
function sortValue(s: BacktestSummary, metric: SortMetric): { value: number | null; lowerIsBetter: boolean } {
  const m = s.metrics;
  switch (metric) {
    case 'pnl':
      return { value: Number(m.pnl.total), lowerIsBetter: false };
    case 'return':
      return { value: Number(m.return), lowerIsBetter: false };
    case 'sharpe':
      return { value: m.sharpe === null ? null : Number(m.sharpe), lowerIsBetter: false };
    case 'maxDrawdown':
      return { value: Number(m.maxDrawdown.amount), lowerIsBetter: true };
    case 'fills':
      return { value: m.fills, lowerIsBetter: false };
    case 'fees':
      return { value: Number(m.fees), lowerIsBetter: true };
    case 'turnover':
      return { value: Number(m.turnover), lowerIsBetter: false };
    case 'winRate':
      return { value: m.winRate === null ? null : Number(m.winRate), lowerIsBetter: false };
  }
}

/** Best first by `metric`; ties keep grid order. */
export function sortRows<T extends { index: number; summary: BacktestSummary }>(rows: readonly T[], metric: SortMetric): T[] {
  return [...rows].sort((a, b) => {
    const x = sortValue(a.summary, metric);
    const y = sortValue(b.summary, metric);
    if (x.value === null || y.value === null) return x.value === y.value ? a.index - b.index : x.value === null ? 1 : -1;
    if (x.value !== y.value) return x.lowerIsBetter ? x.value - y.value : y.value - x.value;
    return a.index - b.index;
  });
}
