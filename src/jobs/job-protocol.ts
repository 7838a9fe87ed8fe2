import type { BacktestJob, JobOutcome } from './job.ts';

/**
 * The local pool to one of its worker threads: run this job, or stop the job running (Ctrl-C: it
 * ends at the event reached and answers with its partial summary, as an interrupted backtest does).
 */
export type ToJobWorker = { readonly kind: 'job'; readonly job: BacktestJob } | { readonly kind: 'stop' };

/** A worker thread's answer: the job's outcome. */
export type FromJobWorker = JobOutcome;
