import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ClobotError } from '../core/errors.ts';
import type { BacktestJob, JobOutcome } from './job.ts';
import type { FromJobWorker, ToJobWorker } from './job-protocol.ts';
import type { JobHooks, JobRunner } from './job-runner.ts';

const WORKER_URL = new URL('./job-worker.mjs', import.meta.url);

export interface LocalPoolOptions {
  /** Worker threads; default one per core, never more than jobs. */
  readonly workers?: number;
}

/**
 * The JobRunner of one machine: a pool of worker threads, one job per worker at a time, the next
 * job given to whichever worker answers first. Each worker reads the config and the data itself,
 * so a job's result is exactly what an in-process run of it gives. The threads live for one `run`.
 */
export class LocalPoolRunner implements JobRunner {
  readonly #workers: number | undefined;

  constructor(options: LocalPoolOptions = {}) {
    this.#workers = options.workers;
  }

  async run(jobs: readonly BacktestJob[], hooks: JobHooks = {}): Promise<JobOutcome[]> {
    const size = Math.max(1, Math.min(jobs.length, this.#workers ?? availableParallelism()));
    const outcomes = new Array<JobOutcome | undefined>(jobs.length);
    const indexOf = new Map(jobs.map((job, i) => [job.id, i]));
    if (indexOf.size !== jobs.length) throw new ClobotError('job ids must be unique among the jobs run together');
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
              const job = jobs[next++];
              if (job === undefined) {
                resolveAll();
                return;
              }
              worker.postMessage({ kind: 'job', job } satisfies ToJobWorker);
            };
            worker.on('message', (outcome: FromJobWorker) => {
              outcomes[indexOf.get(outcome.id)!] = outcome;
              hooks.onOutcome?.(outcome, ++done);
              give();
            });
            worker.on('error', (err) => reject(new ClobotError(`job worker failed: ${err.message}`, { cause: err })));
            worker.on('exit', (code) => {
              if (code !== 0) reject(new ClobotError(`job worker exited with code ${code}`));
            });
            give();
          });
        }),
      );
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
    return outcomes as JobOutcome[];
  }
}
