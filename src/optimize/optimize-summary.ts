import { OBJECTIVES, type ObjectiveName } from '../backtest/objectives.ts';
import { paramImportance } from './importance.ts';
import { samplerScore, type OptimizeRun, type Trial } from './optimizer.ts';
import type { SamplerName } from './sampler.ts';
import type { SearchSpace, SpacePoint } from './space.ts';

/**
 * optimize.json: what `clobot optimize` found, for people (the report page renders it) and for
 * tools. Scores are the objective's exact decimal text (null with a reason when a trial has none).
 */
export interface OptimizeSummary {
  readonly format: 'clobot-optimize';
  readonly version: 1;
  /** Stopped by Ctrl-C: fewer trials than asked (those finished are all here). */
  readonly partial: boolean;
  readonly config: string;
  readonly data: readonly string[];
  readonly sets: readonly string[];
  readonly space: readonly SpaceEntry[];
  readonly objective: { readonly name: ObjectiveName; readonly describe: string; readonly higherIsBetter: boolean };
  readonly minFills: number;
  readonly sampler: SamplerName;
  readonly seed: number;
  readonly trialsPerFold: number;
  readonly batch: number;
  readonly startup: number;
  readonly walkForward: boolean;
  readonly folds: readonly FoldEntry[];
  /** Means over the folds that have both scores; the out-of-sample mean is the honest estimate. */
  readonly overall: { readonly meanInSample: number | null; readonly meanOutOfSample: number | null; readonly foldsScored: number };
  /** The point to use: the best of the last fold (fitted on the most recent in-sample window). */
  readonly best: BestEntry | null;
  /** Each param's share of the spread of in-sample scores (η², src/optimize/importance.ts), averaged over folds. */
  readonly importance: readonly { readonly name: string; readonly importance: number | null }[];
  readonly trials: readonly TrialEntry[];
}

type SpaceEntry = { readonly name: string; readonly key: string } & (
  | { readonly kind: 'range'; readonly min: number; readonly max: number; readonly step: number | null; readonly log: boolean }
  | { readonly kind: 'choice'; readonly choices: readonly (string | number | boolean)[] }
);

export interface FoldEntry {
  readonly number: number;
  readonly inSample: { readonly from: string; readonly to: string };
  readonly outOfSample: { readonly from: string; readonly to: string } | null;
  readonly trials: number;
  readonly best: { readonly trial: number; readonly params: Record<string, string | number | boolean>; readonly score: string | null; readonly fills: number; readonly dir: string | null } | null;
  readonly outOfSampleResult: { readonly score: string | null; readonly reason: string | null; readonly fills: number; readonly pnl: string | null; readonly dir: string; readonly partial: boolean } | null;
}

export interface BestEntry {
  readonly fold: number;
  readonly params: Record<string, string | number | boolean>;
  /** The point as `--set` flags of `clobot backtest` / `clobot run`. */
  readonly sets: readonly string[];
  readonly inSample: string | null;
  readonly outOfSample: string | null;
}

export interface TrialEntry {
  readonly fold: number;
  readonly number: number;
  readonly params: Record<string, string | number | boolean>;
  readonly score: string | null;
  readonly reason: string | null;
  readonly fills: number;
  readonly pnl: string | null;
  readonly dir: string | null;
  readonly partial: boolean;
  readonly repeatOf: number | null;
}

export interface SummaryInput {
  readonly run: OptimizeRun;
  readonly space: SearchSpace;
  readonly config: string;
  readonly data: readonly string[];
  readonly sets: readonly string[];
  readonly objective: ObjectiveName;
  readonly minFills: number;
  readonly sampler: SamplerName;
  readonly seed: number;
  readonly trialsPerFold: number;
  readonly batch: number;
  readonly startup: number;
  readonly walkForward: boolean;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function paramsOf(space: SearchSpace, point: SpacePoint): Record<string, string | number | boolean> {
  return Object.fromEntries(space.params.map((p, i) => [p.name, point[i]!]));
}

export function buildOptimizeSummary(input: SummaryInput): OptimizeSummary {
  const { run, space, objective } = input;
  const folds: FoldEntry[] = run.folds.map((f) => ({
    number: f.fold.number,
    inSample: { from: iso(f.fold.inSample.from), to: iso(f.fold.inSample.to) },
    outOfSample: f.fold.outOfSample ? { from: iso(f.fold.outOfSample.from), to: iso(f.fold.outOfSample.to) } : null,
    trials: f.trials.length,
    best: f.best ? { trial: f.best.number, params: paramsOf(space, f.best.point), score: f.best.score, fills: f.best.fills, dir: f.best.dir } : null,
    outOfSampleResult: f.outOfSample,
  }));
  const both = run.folds.filter((f) => f.best?.score != null && f.outOfSample?.score != null);
  const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
  const last = [...run.folds].reverse().find((f) => f.best !== null);
  const best: BestEntry | null = last?.best
    ? {
        fold: last.fold.number,
        params: paramsOf(space, last.best.point),
        sets: space.params.map((p, i) => `${p.name}=${String(last.best!.point[i])}`),
        inSample: last.best.score,
        outOfSample: last.outOfSample?.score ?? null,
      }
    : null;
  const perFold = run.folds.map((f) => paramImportance(space, f.trials.filter((t) => t.repeatOf === null && !t.partial).map((t) => ({ point: t.point, score: samplerScore(t.score, objective) }))));
  const importance = space.params.map((p, i) => {
    const values = perFold.map((v) => v[i]).filter((v): v is number => v !== null);
    return { name: p.name, importance: mean(values) };
  });
  return {
    format: 'clobot-optimize',
    version: 1,
    partial: run.partial,
    config: input.config,
    data: input.data,
    sets: input.sets,
    space: space.params.map((p) =>
      p.kind === 'range' ? { name: p.name, key: p.key, kind: 'range', min: p.min, max: p.max, step: p.step ?? null, log: p.log } : { name: p.name, key: p.key, kind: 'choice', choices: p.choices },
    ),
    objective: { name: objective, describe: OBJECTIVES[objective].describe, higherIsBetter: OBJECTIVES[objective].higherIsBetter },
    minFills: input.minFills,
    sampler: input.sampler,
    seed: input.seed,
    trialsPerFold: input.trialsPerFold,
    batch: input.batch,
    startup: input.startup,
    walkForward: input.walkForward,
    folds,
    overall: {
      meanInSample: mean(both.map((f) => Number(f.best!.score))),
      meanOutOfSample: mean(both.map((f) => Number(f.outOfSample!.score))),
      foldsScored: both.length,
    },
    best,
    importance,
    trials: run.folds.flatMap((f) => f.trials.map((t) => trialEntry(space, t))),
  };
}

function trialEntry(space: SearchSpace, t: Trial): TrialEntry {
  return { fold: t.fold, number: t.number, params: paramsOf(space, t.point), score: t.score, reason: t.reason, fills: t.fills, pnl: t.pnl, dir: t.dir, partial: t.partial, repeatOf: t.repeatOf };
}
