import { fileURLToPath } from 'node:url';
import { Worker, type Job } from 'bullmq';
import type { RedisTarget } from '../core/redis-url.ts';
import { bullConnection, DEFAULT_QUEUE_NAME } from './bullmq-queue.ts';
import { DATA_DIR_ENV } from './bullmq-processor.ts';
import type { BacktestJob } from './job.ts';
import { pingRedis } from './redis-ping.ts';

const PROCESSOR = fileURLToPath(new URL('./bullmq-processor.mjs', import.meta.url));

export interface QueueWorkerOptions {
  readonly target: RedisTarget;
  readonly queueName?: string;
  /** Jobs run at once, each on its own thread. Default 1. */
  readonly concurrency?: number;
  /** Read job data from this folder by file name, instead of at the submitter's path. */
  readonly dataDir?: string;
  /**
   * How long a job's lock lasts without renewal (renewed every half of it), and how often stalled
   * jobs are looked for. A worker that dies mid-job has its job run again elsewhere within about
   * twice this. Default 30,000 ms (BullMQ's).
   */
  readonly lockMs?: number;
  /** Each job as it starts and ends. */
  readonly onJob?: (event: QueueWorkerEvent) => void;
}

export type QueueWorkerEvent =
  | { readonly kind: 'started'; readonly id: string; readonly point: string }
  | { readonly kind: 'done'; readonly id: string; readonly point: string; readonly ms: number }
  | { readonly kind: 'failed'; readonly id: string; readonly point: string; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

export interface QueueWorker {
  /** Lets running jobs end, takes no more, and disconnects. */
  close(): Promise<void>;
}

/**
 * A `clobot worker`: takes backtest jobs from the queue and runs each in a sandboxed processor,
 * a worker thread per concurrent job (bullmq-processor.mjs), so this thread stays free to renew
 * the jobs' locks. A job stalled by a dead worker (its lock not renewed) goes back to the queue
 * and runs on another worker; one that stalls again is failed, so a job that kills every worker
 * does not go round forever.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  await pingRedis(options.target, '--queue');
  if (options.dataDir !== undefined) process.env[DATA_DIR_ENV] = options.dataDir;
  const lockMs = options.lockMs ?? 30_000;
  const started = new Map<string, number>();
  const point = (job: Job<BacktestJob> | undefined): string => job?.data.id ?? '?';
  const worker = new Worker<BacktestJob>(options.queueName ?? DEFAULT_QUEUE_NAME, PROCESSOR, {
    connection: bullConnection(options.target),
    concurrency: options.concurrency ?? 1,
    useWorkerThreads: true,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 1,
    autorun: false,
  });
  worker.on('active', (job) => {
    started.set(job.id ?? '', performance.now());
    options.onJob?.({ kind: 'started', id: job.id ?? '?', point: point(job) });
  });
  worker.on('completed', (job) => {
    const ms = performance.now() - (started.get(job.id ?? '') ?? performance.now());
    started.delete(job.id ?? '');
    options.onJob?.({ kind: 'done', id: job.id ?? '?', point: point(job), ms });
  });
  worker.on('failed', (job, err) => {
    started.delete(job?.id ?? '');
    options.onJob?.({ kind: 'failed', id: job?.id ?? '?', point: point(job), reason: job?.failedReason ?? err.message });
  });
  worker.on('error', (err) => options.onJob?.({ kind: 'error', message: err.message }));
  worker.run().catch((err: unknown) => options.onJob?.({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
  await worker.waitUntilReady();
  return {
    close: () => worker.close(),
  };
}
