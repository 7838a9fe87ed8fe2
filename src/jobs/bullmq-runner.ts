import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { ClobotError } from '../core/errors.ts';
import type { RedisTarget } from '../core/redis-url.ts';
import type { BacktestSummary } from '../backtest/summary.ts';
import { BACKTEST_JOB_NAME, bullConnection, DEFAULT_QUEUE_NAME, readFailedReason, type QueuedJobResult } from './bullmq-queue.ts';
import type { BacktestJob, JobOutcome } from './job.ts';
import { notRun, type JobHooks, type JobRunner } from './job-runner.ts';
import { pingRedis } from './redis-ping.ts';

/** What the queue holds for a run, as the submitter shows it. */
export interface QueueStatus {
  /** This run's jobs finished so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** The queue's jobs waiting for a worker and running now (every submitter's). */
  readonly waiting: number;
  readonly active: number;
  /** Workers connected to the queue. */
  readonly workers: number;
}

export interface BullQueueRunnerOptions {
  readonly target: RedisTarget;
  /** Default `clobot-backtest`; workers must name the same queue. */
  readonly queueName?: string;
  /** Called with the queue's state about every `statusEveryMs` while the run waits. */
  readonly onStatus?: (status: QueueStatus) => void;
  /** Default 1,000 ms. Also how often the run checks its jobs' states in case an event was missed. */
  readonly statusEveryMs?: number;
  /** Called once the jobs are on the queue. */
  readonly onQueued?: (count: number) => void;
}

/**
 * The JobRunner of many machines: one BullMQ job per backtest job on a Redis queue, run by
 * `clobot worker` processes wherever they are. Each queued job carries the BacktestJob itself;
 * a worker answers with the bytes of every file the job wrote (summary.json, report.html, the
 * fills, orders and equity tables), which this runner writes to the job's `outDir` here, so the submitter ends with the same files as a local sweep.
 *
 * Jobs are named `<run id>-<index>`, so each settles once however often it ran: a job whose
 * worker died is run again by another (BullMQ's stalled-job recovery) and answers once. The
 * run's jobs are removed from Redis once read (and expire by age if the submitter dies first).
 */
export class BullQueueRunner implements JobRunner {
  readonly #options: BullQueueRunnerOptions;

  constructor(options: BullQueueRunnerOptions) {
    this.#options = options;
  }

  async run(jobs: readonly BacktestJob[], hooks: JobHooks = {}): Promise<JobOutcome[]> {
    if (new Set(jobs.map((j) => j.id)).size !== jobs.length) throw new ClobotError('job ids must be unique among the jobs run together');
    const signal = hooks.signal;
    // stopped before anything was queued: nothing runs
    if (signal?.aborted === true) return jobs.map((j) => notRun(j.id));
    const { target } = this.#options;
    await pingRedis(target, '--queue');
    const name = this.#options.queueName ?? DEFAULT_QUEUE_NAME;
    const connection = bullConnection(target);
    const queue = new Queue(name, { connection });
    const events = new QueueEvents(name, { connection });
    const runId = randomUUID();
    const bullIds = jobs.map((_, i) => `${runId}-${i}`);
    const indexOf = new Map(bullIds.map((id, i) => [id, i]));
    const outcomes = new Array<JobOutcome | undefined>(jobs.length);
    const settling = new Set<string>();
    let done = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let startChecks = (): void => undefined;
    let detach = (): void => undefined;
    try {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
      const finished = new Promise<void>((resolve, reject) => {
        const settle = async (bullId: string): Promise<void> => {
          const i = indexOf.get(bullId);
          if (i === undefined || outcomes[i] !== undefined || settling.has(bullId)) return;
          settling.add(bullId);
          try {
            // the state first, then the job: a job read while active holds no answer (its returnvalue
            // comes with the read), and one found completed a moment later would settle without it;
            // a finished job no longer changes (no retries), so a job read after its state is whole
            const state = await queue.getJobState(bullId);
            if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return;
            const job = state === 'unknown' ? undefined : await Job.fromId<BacktestJob, QueuedJobResult>(queue, bullId);
            if (job === undefined) throw new ClobotError(`job ${jobs[i]!.id} (${bullId}) is gone from the queue ${name} before its result was read`);
            const outcome = state === 'completed' ? writeAnswer(jobs[i]!, job.returnvalue) : failedOutcome(jobs[i]!.id, job.failedReason);
            if (outcomes[i] !== undefined) return;
            outcomes[i] = outcome;
            done++;
            hooks.onOutcome?.(outcome, done);
            await queue.remove(bullId).catch(() => undefined);
            if (done === jobs.length) resolve();
          } finally {
            settling.delete(bullId);
          }
        };
        const onEvent = ({ jobId }: { jobId: string }): void => {
          settle(jobId).catch(reject);
        };
        events.on('completed', onEvent);
        events.on('failed', onEvent);
        // stopped (Ctrl-C): a job no worker has taken is taken back and answers notRun; a running
        // one cannot be reached on its worker, so it finishes and answers as usual
        const takeBack = async (): Promise<void> => {
          for (let i = 0; i < bullIds.length; i++) {
            const bullId = bullIds[i]!;
            if (outcomes[i] !== undefined || settling.has(bullId)) continue;
            settling.add(bullId);
            try {
              // 0: a worker holds its lock (running), or it is gone (finished: settled by its event)
              const removed = await queue.remove(bullId).catch(() => 0);
              if (removed !== 1 || outcomes[i] !== undefined) continue;
              const outcome = notRun(jobs[i]!.id);
              outcomes[i] = outcome;
              done++;
              hooks.onOutcome?.(outcome, done);
            } finally {
              settling.delete(bullId);
            }
          }
          if (done === jobs.length) resolve();
        };
        const onAbort = (): void => {
          takeBack().catch(reject);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        detach = () => signal?.removeEventListener('abort', onAbort);
        // events are the fast path; this check catches one missed (sent before the listener read the stream)
        const check = async (): Promise<void> => {
          const open = bullIds.filter((_, i) => outcomes[i] === undefined);
          for (const id of open) await settle(id);
          // stopped: the take-back skips a job a check is reading at that moment; take it back now
          if (signal?.aborted === true) await takeBack();
          if (done === jobs.length) return;
          const [counts, workers] = await Promise.all([queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed'), queue.getWorkersCount()]);
          this.#options.onStatus?.({
            done,
            total: jobs.length,
            waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
            active: counts.active ?? 0,
            workers,
          });
        };
        const tick = (): void => {
          if (stopped || done === jobs.length) return;
          timer = setTimeout(() => {
            check().then(tick, reject);
          }, this.#options.statusEveryMs ?? 1_000);
        };
        // once the jobs are on the queue: a job looked for before it is added would read as gone
        startChecks = (): void => {
          tick();
          if (signal?.aborted === true) onAbort();
        };
      });
      // a failure while the jobs are being added is thrown below, not left unhandled
      finished.catch(() => undefined);
      await queue.addBulk(
        jobs.map((job, i) => ({
          name: BACKTEST_JOB_NAME,
          data: job,
          opts: {
            jobId: bullIds[i]!,
            // a backtest is deterministic: a job that failed fails again; a dead worker's job is not a failure
            attempts: 1,
            removeOnComplete: { age: 86_400 },
            removeOnFail: { age: 7 * 86_400 },
          },
        })),
      );
      this.#options.onQueued?.(jobs.length);
      startChecks();
      if (jobs.length > 0) await finished;
    } finally {
      stopped = true;
      detach();
      if (timer !== undefined) clearTimeout(timer);
      // a run that ends early (Ctrl-C, an error) takes back what no worker has started
      const open = bullIds.filter((_, i) => outcomes[i] === undefined);
      await Promise.all(open.map((id) => queue.remove(id).catch(() => undefined)));
      await events.close();
      await queue.close();
    }
    return outcomes as JobOutcome[];
  }
}

/** The files a finished job answers with: names of one path segment, no folder of their own. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Writes a worker's answer to the job's folder (the bytes the job wrote on the worker, file by
 * file): the outcome with its summary. An answer without summary.json, or naming a file outside
 * the folder, fails the point instead.
 */
function writeAnswer(job: BacktestJob, answer: QueuedJobResult | null | undefined): JobOutcome {
  const files = answer?.files;
  const fail = (why: string): JobOutcome => ({ kind: 'failed', id: job.id, name: 'JobFailedError', message: `the worker's answer ${why} (a worker of another clobot version?)` });
  if (files === undefined || files === null || typeof files !== 'object') return fail(`holds no files: ${(JSON.stringify(answer) ?? 'nothing').slice(0, 200)}`);
  const entries = Object.entries(files);
  const bad = entries.find(([name, bytes]) => !FILE_NAME.test(name) || typeof bytes !== 'string');
  if (bad !== undefined) return fail(`names a file it may not write: ${JSON.stringify(bad[0]).slice(0, 200)}`);
  const summary = files['summary.json'];
  if (summary === undefined) return fail(`has no summary.json (files: ${entries.map(([n]) => n).join(', ') || 'none'})`);
  mkdirSync(job.outDir, { recursive: true });
  for (const [name, bytes] of entries) writeFileSync(join(job.outDir, name), Buffer.from(bytes, 'base64'));
  return { kind: 'done', id: job.id, summary: JSON.parse(Buffer.from(summary, 'base64').toString('utf8')) as BacktestSummary };
}

function failedOutcome(id: string, reason: string | undefined): JobOutcome {
  return { kind: 'failed', id, ...readFailedReason(reason) };
}
