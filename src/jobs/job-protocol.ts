import type { BacktestJob, JobOutcome } from './job.ts';

/** The local pool to one of its worker threads: run this job. */
export interface ToJobWorker {
  readonly kind: 'job';
  readonly job: BacktestJob;
}

/** A worker thread's answer: the job's outcome. */
export type FromJobWorker = JobOutcome;
