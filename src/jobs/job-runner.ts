import type { BacktestJob, JobOutcome } from './job.ts';

/**
 * The port every way of running backtest jobs implements: worker threads on this machine
 * (`LocalPoolRunner`) and a BullMQ queue of `clobot worker` processes on many machines (`BullQueueRunner`).
 * A runner runs each job once, in any order and as many at a time as it can, and answers with one
 * outcome per job in the jobs' order. A job that fails is an outcome, not a rejection: the other
 * jobs still run. The promise rejects only when the runner itself breaks (a worker dies).
 *
 * Stopping (`hooks.signal`, Ctrl-C): no job starts after the abort; each running job is asked to
 * end at the event reached and answers with its summary marked partial (`data.partial`; a runner
 * that cannot reach a running job lets it finish); each job never started answers `notRun(id)`.
 */
export interface JobRunner {
  run(jobs: readonly BacktestJob[], hooks?: JobHooks): Promise<JobOutcome[]>;
  /** Frees what the runner keeps between runs (threads, connections); optional. */
  close?(): Promise<void>;
}

export interface JobHooks {
  /** Each outcome as it comes, with how many jobs have finished so far. */
  readonly onOutcome?: (outcome: JobOutcome, done: number) => void;
  /** Aborted: stop (see JobRunner). */
  readonly signal?: AbortSignal;
}

/** The name of a job's failure when it never ran because the run was stopped. */
export const NOT_RUN = 'JobNotRun';

/** The outcome of a job the runner never started because the run was stopped. */
export function notRun(id: string): JobOutcome {
  return { kind: 'failed', id, name: NOT_RUN, message: 'not run: stopped before it started' };
}

/** True for the outcome of a job that never ran because the run was stopped. */
export function isNotRun(outcome: JobOutcome): boolean {
  return outcome.kind === 'failed' && outcome.name === NOT_RUN;
}
