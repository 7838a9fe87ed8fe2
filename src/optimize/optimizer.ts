import { join, resolve } from 'node:path';
import { seededRandom } from '../core/seeded-random.ts';
import type { ConfigOverride } from '../config/config-overrides.ts';
import { readConfigText } from '../config/read-config-text.ts';
import { OBJECTIVES, type ObjectiveName } from '../backtest/objectives.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { sha256File } from '../jobs/data-hash.ts';
import type { BacktestJob, JobConfig, JobData, JobOutcome } from '../jobs/job.ts';
import { isNotRun, type JobRunner } from '../jobs/job-runner.ts';
import { randomSampler, type Observation, type Sampler, type SamplerName } from './sampler.ts';
import { pointOverrides, type SearchSpace, type SpacePoint } from './space.ts';
import { tpeSampler } from './tpe.ts';
import type { Fold } from './walk-forward.ts';

/**
 * The optimiser's loop: for each walk-forward fold, a search (TPE or random) over the space on
 * the fold's in-sample window, its trials run as backtest jobs through a JobRunner (worker
 * threads, or any other runner: the loop only makes jobs and reads outcomes); then each fold's best
 * point is backtested on the fold's out-of-sample window.
 *
 * Deterministic: each fold's sampler draws from its own stream seeded from `seed` and the fold's
 * number, and proposes `batch` points at a time from the trials finished before the batch, in a
 * fixed order; the jobs of a round run in parallel but their outcomes are read back in job order.
 * So the same seed, data, space and batch give the same trials and the same best point, however
 * many workers run them and in whatever order they finish.
 */
export interface OptimizeInput {
  readonly configPath: string;
  readonly dataPaths: readonly string[];
  readonly space: SearchSpace;
  /** `--set` keys, applied in every trial before the trial's own. */
  readonly sets: readonly ConfigOverride[];
  readonly folds: readonly Fold[];
  readonly objective: ObjectiveName;
  /** A trial with fewer fills has no score (it ranks last). */
  readonly minFills: number;
  readonly sampler: SamplerName;
  /** Trials per fold. */
  readonly trials: number;
  /** Points proposed together (per fold) before their results are known. */
  readonly batch: number;
  /** Uniform trials before TPE's model is used. */
  readonly startup: number;
  readonly seed: number;
  readonly keepGoing?: boolean;
  /** Trials' and out-of-sample runs' folders go under it. */
  readonly outDir: string;
  readonly runner: JobRunner;
  /** Aborted (Ctrl-C): trials running stop, none starts; the finished trials are kept. */
  readonly signal?: AbortSignal;
  /** Each trial as it is scored, with how many of all trials have finished. */
  readonly onTrial?: (trial: Trial, done: number, total: number) => void;
}

export interface Trial {
  readonly fold: number;
  /** 1-based within its fold, in the order proposed. */
  readonly number: number;
  readonly point: SpacePoint;
  /** The objective's value as the summary's exact decimal text; null: no score (see `reason`). */
  readonly score: string | null;
  /** Why there is no score: too few fills, the objective has no value (n/a), or the run failed. */
  readonly reason: string | null;
  readonly fills: number;
  readonly pnl: string | null;
  /** The trial's folder (summary.json, report.html), relative to the optimiser's output folder. */
  readonly dir: string | null;
  /** The run was stopped by Ctrl-C before the window's end: not scored. */
  readonly partial: boolean;
  /** The same point earlier in this fold: its result is reused, no run. */
  readonly repeatOf: number | null;
}

export interface FoldResult {
  readonly fold: Fold;
  readonly trials: readonly Trial[];
  /** The in-sample trial with the best score (ties: the earliest); null when none scored. */
  readonly best: Trial | null;
  /** The best point backtested on the out-of-sample window. */
  readonly outOfSample: OutOfSample | null;
}

export interface OutOfSample {
  readonly score: string | null;
  readonly reason: string | null;
  readonly fills: number;
  readonly pnl: string | null;
  readonly dir: string;
  readonly partial: boolean;
}

export interface OptimizeRun {
  readonly folds: readonly FoldResult[];
  /** Stopped by Ctrl-C: fewer trials than asked, and out-of-sample runs may be missing. */
  readonly partial: boolean;
}

/** Scores a summary by the objective, with the minimum-fills guard. */
export function scoreSummary(summary: BacktestSummary, objective: ObjectiveName, minFills: number): { score: string | null; reason: string | null } {
  if (summary.metrics.fills < minFills) return { score: null, reason: `${summary.metrics.fills} fills, fewer than --min-fills ${minFills}` };
  const value = OBJECTIVES[objective].score(summary);
  if (value === null) return { score: null, reason: `${objective} n/a${noteOf(summary, objective)}` };
  return { score: value.toString(), reason: null };
}

function noteOf(summary: BacktestSummary, objective: ObjectiveName): string {
  const notes = summary.metrics.ratios.notes as Record<string, string | null>;
  const note = notes[objective];
  return note ? `: ${note}` : '';
}

/** The sampler's view of a score: larger is better, whatever the objective's direction. */
export function samplerScore(score: string | null, objective: ObjectiveName): number | null {
  if (score === null) return null;
  const v = Number(score);
  return OBJECTIVES[objective].higherIsBetter ? v : -v;
}

export function makeSampler(space: SearchSpace, name: SamplerName, startup: number): Sampler {
  return name === 'tpe' ? tpeSampler(space, { startup }) : randomSampler(space);
}

/** The seed of fold `n`'s stream: a mix of the run's seed and the fold number (never 0 for fold 1). */
function foldSeed(seed: number, fold: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(fold, 0x85ebca6b)) >>> 0;
}

export async function optimize(input: OptimizeInput): Promise<OptimizeRun> {
  const file = resolve(input.configPath);
  const config: JobConfig = { file, text: readConfigText(file) };
  const data: JobData[] = [];
  for (const p of input.dataPaths) {
    const path = resolve(p);
    data.push({ path, sha256: await sha256File(path) });
  }
  const job = (id: string, point: SpacePoint, window: { from: number; to: number }, dir: string): BacktestJob => ({
    id,
    config,
    overrides: [...input.sets, ...pointOverrides(input.space, point)],
    data,
    window,
    ...(input.keepGoing !== undefined ? { keepGoing: input.keepGoing } : {}),
    outDir: resolve(input.outDir, dir),
  });
  const folds = input.folds.map((fold) => ({
    fold,
    sampler: makeSampler(input.space, input.sampler, input.startup),
    random: seededRandom(foldSeed(input.seed, fold.number)),
    trials: [] as Trial[],
    history: [] as Observation[],
    seen: new Map<string, Trial>(),
  }));
  const total = input.trials * folds.length;
  let done = 0;
  const stopped = (): boolean => input.signal?.aborted === true;
  const record = (f: (typeof folds)[number], trial: Trial): void => {
    f.trials.push(trial);
    if (!trial.partial) f.history.push({ point: trial.point, score: samplerScore(trial.score, input.objective) });
    input.onTrial?.(trial, ++done, total);
  };

  while (!stopped() && folds.some((f) => f.trials.length < input.trials)) {
    // one round: `batch` new points per fold, proposed from the trials finished before it
    const round: { f: (typeof folds)[number]; number: number; point: SpacePoint; job: BacktestJob | undefined }[] = [];
    for (const f of folds) {
      const start = f.trials.length;
      const n = Math.min(input.batch, input.trials - start);
      const inRound = new Set<string>();
      for (let k = 0; k < n; k++) {
        const number = start + k + 1;
        const point = f.sampler.propose(f.history, f.random);
        const key = JSON.stringify(point);
        // a point tried before in this fold (a stepped or choice space) reuses that result
        const fresh = !f.seen.has(key) && !inRound.has(key);
        inRound.add(key);
        round.push({ f, number, point, job: fresh ? job(`f${f.fold.number}-t${number}`, point, f.fold.inSample, trialDir(f.fold.number, number)) : undefined });
      }
    }
    const jobs = round.flatMap((r) => (r.job ? [r.job] : []));
    const outcomes = jobs.length > 0 ? await input.runner.run(jobs, { signal: input.signal }) : [];
    const byId = new Map<string, JobOutcome>(outcomes.map((o) => [o.id, o]));
    for (const r of round) {
      if (r.job) {
        const outcome = byId.get(r.job.id)!;
        if (isNotRun(outcome)) continue;
        const trial = trialOf(r.f.fold.number, r.number, r.point, outcome, input, trialDir(r.f.fold.number, r.number));
        if (!trial.partial) r.f.seen.set(JSON.stringify(r.point), trial);
        record(r.f, trial);
      } else {
        // its twin came earlier (an earlier round, or earlier in this one: recorded above)
        const same = r.f.seen.get(JSON.stringify(r.point));
        if (same === undefined) continue; // the twin did not finish (Ctrl-C)
        record(r.f, { ...same, number: r.number, repeatOf: same.number });
      }
    }
  }

  // each fold's best point on the window after it
  const bests = folds.map((f) => bestTrial(f.trials, input.objective));
  const oosJobs: BacktestJob[] = [];
  folds.forEach((f, i) => {
    const best = bests[i];
    if (best && f.fold.outOfSample && !stopped()) oosJobs.push(job(`oos-${f.fold.number}`, best.point, f.fold.outOfSample, join('out-of-sample', `fold-${f.fold.number}`)));
  });
  const oosOutcomes = oosJobs.length > 0 ? await input.runner.run(oosJobs, { signal: input.signal }) : [];
  const oosById = new Map(oosOutcomes.map((o) => [o.id, o]));
  const results: FoldResult[] = folds.map((f, i) => {
    const outcome = oosById.get(`oos-${f.fold.number}`);
    let outOfSample: OutOfSample | null = null;
    if (outcome !== undefined && !isNotRun(outcome)) {
      const t = trialOf(f.fold.number, 0, bests[i]!.point, outcome, input, join('out-of-sample', `fold-${f.fold.number}`));
      outOfSample = { score: t.score, reason: t.reason, fills: t.fills, pnl: t.pnl, dir: t.dir!, partial: t.partial };
    }
    return { fold: f.fold, trials: f.trials, best: bests[i] ?? null, outOfSample };
  });
  const partial = stopped() || results.some((r) => r.trials.length < input.trials || (r.fold.outOfSample !== undefined && r.best !== null && r.outOfSample === null));
  return { folds: results, partial };
}

function trialDir(fold: number, number: number): string {
  return join('trials', `fold-${fold}`, String(number).padStart(4, '0'));
}

function trialOf(fold: number, number: number, point: SpacePoint, outcome: JobOutcome, input: OptimizeInput, dir: string): Trial {
  if (outcome.kind === 'failed') return { fold, number, point, score: null, reason: `failed: ${outcome.name}: ${outcome.message}`, fills: 0, pnl: null, dir: null, partial: false, repeatOf: null };
  const s = outcome.summary;
  const partial = s.data.partial;
  const scored = partial ? { score: null, reason: 'stopped (Ctrl-C) before the window ended' } : scoreSummary(s, input.objective, input.minFills);
  return { fold, number, point, ...scored, fills: s.metrics.fills, pnl: s.metrics.pnl.total, dir, partial, repeatOf: null };
}

/** The finished trial with the best score (ties: the earliest proposed); undefined when none scored. */
export function bestTrial(trials: readonly Trial[], objective: ObjectiveName): Trial | undefined {
  let best: Trial | undefined;
  let bestScore = -Infinity;
  for (const t of trials) {
    const s = samplerScore(t.score, objective);
    if (s === null || t.partial || t.repeatOf !== null) continue;
    if (s > bestScore) [best, bestScore] = [t, s];
  }
  return best;
}
