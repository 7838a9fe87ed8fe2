import type { BacktestJob, JobOutcome } from './job.ts';

/**
 * The port every way of running backtest jobs implements: worker threads on this machine
 * (`LocalPoolRunner`) and a BullMQ queue of `clobot worker` processes on many machines (`BullQueueRunner`).
 * A runner runs each job once, in any order and as many at a time as it can, and answers with one
 * outcome per job in the jobs' order. A job that fails is an outcome, not a rejection: the other
 * jobs still run. The promise rejects only when the runner itself breaks (a worker dies).
 */
export interface JobRunner {
  run(jobs: readonly BacktestJob[], hooks?: JobHooks): Promise<JobOutcome[]>;
}

export interface JobHooks {
  /** Each outcome as it comes, with how many jobs have finished so far. */
  readonly onOutcome?: (outcome: JobOutcome, done: number) => void;
}
