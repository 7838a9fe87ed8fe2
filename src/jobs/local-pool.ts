import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ClobotError } from '../core/errors.ts';
import type { BacktestJob, JobOutcome } from './job.ts';
import type { FromJobWorker, ToJobWorker } from './job-protocol.ts';
import { notRun, type JobHooks, type JobRunner } from './job-runner.ts';

const WORKER_URL = new URL('./job-worker.mjs', import.meta.url);

export interface LocalPoolOptions {
  /** Worker threads; default one per core, never more than jobs. */
  readonly workers?: number;
}

/**
 * The JobRunner of one machine: a pool of worker threads, one job per worker at a time, the next
 * job given to whichever worker answers first. Each worker reads the config and the data itself,
 * so a job's result is exactly what an in-process run of it gives. Threads outlive a `run`: the
 * next `run` (an optimiser's next batch) reuses them instead of loading the code again; an idle
 * thread never holds the process open, and `close()` ends them. On `hooks.signal` each busy
 * worker is told to stop its job at the event reached (it answers with the partial summary) and
 * no other job starts.
 */
export class LocalPoolRunner implements JobRunner {
  readonly #workers: number | undefined;
  readonly #idle: Worker[] = [];

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
    let broken = false;
    const signal = hooks.signal;
    const stopAll = (): void => {
      for (const w of workers) w.postMessage({ kind: 'stop' } satisfies ToJobWorker);
    };
    signal?.addEventListener('abort', stopAll, { once: true });
    try {
      await Promise.all(
        Array.from({ length: size }, () => {
          const worker = this.#idle.pop() ?? new Worker(WORKER_URL);
          worker.removeAllListeners();
          worker.ref();
          workers.push(worker);
          return new Promise<void>((resolveAll, reject) => {
            const give = (): void => {
              const job = signal?.aborted === true ? undefined : jobs[next++];
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
            worker.on('error', (err) => {
              broken = true;
              reject(new ClobotError(`job worker failed: ${err.message}`, { cause: err }));
            });
            worker.on('exit', (code) => {
              broken = true;
              reject(new ClobotError(`job worker exited with code ${code}`));
            });
            give();
          });
        }),
      );
    } finally {
      signal?.removeEventListener('abort', stopAll);
      if (broken) await Promise.all(workers.map((w) => w.terminate()));
      else for (const w of workers) this.#park(w);
    }
    return jobs.map((job, i) => outcomes[i] ?? notRun(job.id));
  }

  /** Ends the idle threads (a `run` after this starts new ones). */
  async close(): Promise<void> {
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((w) => w.terminate()));
  }

  /** Keeps a thread for the next run, not holding the process open; one that fails meanwhile is dropped. */
  #park(worker: Worker): void {
    worker.removeAllListeners();
    const drop = (): void => {
      const i = this.#idle.indexOf(worker);
      if (i >= 0) this.#idle.splice(i, 1);
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    worker.unref();
    this.#idle.push(worker);
  }
}
