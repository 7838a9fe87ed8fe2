import type { ConnectionOptions } from 'bullmq';
import { redisConnectionFields, type RedisTarget } from '../core/redis-url.ts';

/**
 * What the submitter (`BullQueueRunner`) and the workers (`clobot worker`) agree on: the queue's
 * name, what a queued job carries and what a finished one answers. A queued job's data is the
 * `BacktestJob` itself (plain JSON: the resolved config and the data by path and SHA-256).
 */

/** The BullMQ queue of backtest jobs, unless `--queue-name` names another. */
export const DEFAULT_QUEUE_NAME = 'clobot-backtest';

/** The BullMQ job name of a backtest job (one kind of job per queue today). */
export const BACKTEST_JOB_NAME = 'backtest';

/**
 * What a worker answers for a job that ran: every file the job wrote (summary.json, report.html,
 * fills/orders/equity tables), by file name, each file's exact bytes in base64. The submitter
 * writes them to the job's folder, so a queue sweep leaves the same files as a local one.
 */
export interface QueuedJobResult {
  readonly files: Readonly<Record<string, string>>;
}

/**
 * A failed job's reason as BullMQ keeps it: the error's name, then its message. A failed job is
 * not retried (a backtest is deterministic); a worker that dies mid-job is another matter
 * (stalled-job recovery runs the job again elsewhere).
 */
export function failedReason(name: string, message: string): string {
  return `${name}: ${message}`;
}

/** The error's name and message back from a failed job's reason. */
export function readFailedReason(reason: string | undefined): { name: string; message: string } {
  const m = /^([A-Za-z][A-Za-z0-9]*Error): ([\s\S]*)$/.exec(reason ?? '');
  if (m) return { name: m[1] as string, message: m[2] as string };
  return { name: 'JobFailedError', message: reason === undefined || reason === '' ? 'the job failed without a reason' : reason };
}

/**
 * ioredis options for BullMQ. `maxRetriesPerRequest: null` is what BullMQ needs for its blocking
 * commands; a lost connection is retried with a capped backoff, so a Redis restart is ridden out.
 */
export function bullConnection(target: RedisTarget): ConnectionOptions {
  return {
    ...redisConnectionFields(target),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(200 * times, 2_000),
  };
}
