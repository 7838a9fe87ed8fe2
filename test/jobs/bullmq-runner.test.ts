import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../src/core/redis-url.ts';
import { BullQueueRunner } from '../../src/jobs/bullmq-runner.ts';
import { bullConnection, DEFAULT_QUEUE_NAME, failedReason } from '../../src/jobs/bullmq-queue.ts';
import type { BacktestJob } from '../../src/jobs/job.ts';
import { TempDir } from '../backtest/helpers.ts';
import { RedisServer } from '../redis-server.ts';

/**
 * BullQueueRunner against a real Redis, with this test as the worker (BullMQ's manual job
 * handling: take a job, then complete or fail it), so what a worker answers is exact.
 */

const skip = RedisServer.skip();
const redis = new RedisServer();
const tmp = new TempDir();

function jobsOf(n: number, dir: string): BacktestJob[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    config: { file: '/nowhere/config.yaml', text: 'mode: backtest\n' },
    overrides: [],
    data: [],
    outDir: join(tmp.path(dir), `p${i}`),
  }));
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** Takes the queue's jobs one by one and settles each with `answer` (a result, or an Error to fail it). */
async function serve(count: number, answer: (job: BacktestJob) => unknown): Promise<void> {
  const worker = new Worker<BacktestJob>(DEFAULT_QUEUE_NAME, null, { connection: bullConnection(parseRedisUrl(redis.url, 'test')), autorun: false });
  try {
    for (let served = 0; served < count; ) {
      const job = await worker.getNextJob('t', { block: false });
      if (job === undefined) {
        // none queued yet (the runner adds them meanwhile)
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const a = answer(job.data);
      if (a instanceof Error) await job.moveToFailed(a, 't', false);
      else await job.moveToCompleted(a, 't', false);
      served++;
    }
  } finally {
    await worker.close();
  }
}

describe.skipIf(skip)('BullQueueRunner on a real Redis', () => {
  beforeAll(() => redis.start());
  afterAll(async () => {
    await redis.stop();
    tmp.remove();
  });

  it('a job that completes while the runner looks at it (every 1 ms) is read with its answer, never as a completed job without one', async () => {
    // the runner's check reads every open job every millisecond, so many of them are read
    // while active and completed a moment later: the state must be read before the job
    const jobs = jobsOf(40, 'race');
    const runner = new BullQueueRunner({ target: parseRedisUrl(redis.url, 'test'), statusEveryMs: 1 });
    const summary = (job: BacktestJob): string => JSON.stringify({ point: job.id });
    const [outcomes] = await Promise.all([runner.run(jobs), serve(jobs.length, (job) => ({ files: { 'summary.json': b64(summary(job)), 'fills.parquet': b64(`PAR1 ${job.id}`) } }))]);
    expect(outcomes.map((o) => o.kind)).toEqual(jobs.map(() => 'done'));
    for (const [i, job] of jobs.entries()) {
      expect(outcomes[i]).toEqual({ kind: 'done', id: job.id, summary: { point: job.id } });
      expect(readdirSync(job.outDir).sort()).toEqual(['fills.parquet', 'summary.json']);
      expect(readFileSync(join(job.outDir, 'fills.parquet'), 'utf8')).toBe(`PAR1 ${job.id}`);
    }
    // read jobs leave the queue
    const queue = new Queue(DEFAULT_QUEUE_NAME, { connection: bullConnection(parseRedisUrl(redis.url, 'test')) });
    expect(await queue.getJobCounts('completed', 'failed', 'waiting', 'active')).toMatchObject({ completed: 0, failed: 0, waiting: 0, active: 0 });
    await queue.close();
  });

  it('a failed job is an outcome with its error; an answer without summary.json or naming a path outside the folder fails its point, writing nothing', async () => {
    const jobs = jobsOf(3, 'bad');
    const runner = new BullQueueRunner({ target: parseRedisUrl(redis.url, 'test') });
    const answers: Record<string, unknown> = {
      p0: new Error(failedReason('DataHashMismatchError', '/data/rec.bin: the hash differs')),
      p1: { files: { 'report.html': b64('<html>') } },
      p2: { files: { 'summary.json': b64('{}'), '../escape.txt': b64('x') } },
    };
    const [outcomes] = await Promise.all([runner.run(jobs), serve(jobs.length, (job) => answers[job.id])]);
    expect(outcomes[0]).toEqual({ kind: 'failed', id: 'p0', name: 'DataHashMismatchError', message: '/data/rec.bin: the hash differs' });
    expect(outcomes[1]).toMatchObject({ kind: 'failed', id: 'p1', name: 'JobFailedError', message: expect.stringMatching(/has no summary\.json \(files: report\.html\)/) });
    expect(outcomes[2]).toMatchObject({ kind: 'failed', id: 'p2', name: 'JobFailedError', message: expect.stringMatching(/names a file it may not write: "\.\.\/escape\.txt"/) });
    expect(existsSync(tmp.path('bad'))).toBe(false);
  });
});
