import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl } from '../../src/core/redis-url.ts';
import { BullQueueRunner } from '../../src/jobs/bullmq-runner.ts';
import { isNotRun } from '../../src/jobs/job-runner.ts';
import type { BacktestJob } from '../../src/jobs/job.ts';
import type { OptimizeSummary } from '../../src/optimize/optimize-summary.ts';
import { TempDir } from '../backtest/helpers.ts';
import { RedisServer } from '../redis-server.ts';
import { killProcesses } from '../jobs/kill-processes.ts';
import { leanFixture } from './lean-fixture.ts';

/**
 * `clobot optimize --queue` (issue 25 point 1 with issue 24's optimiser): the trials run on
 * `clobot worker` processes through a real Redis and give the trials and best point of worker
 * threads; a stop (Ctrl-C's signal) takes back the trials no worker has started.
 */

const BIN = fileURLToPath(new URL('../../bin/clobot.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = RedisServer.skip();
const redis = new RedisServer();
const tmp = new TempDir();
const workers: ChildProcess[] = [];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, CLOBOT_DEBUG: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

function startWorker(): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', redis.url], { cwd: ROOT, env: { ...process.env, CLOBOT_DEBUG: '' } });
  workers.push(child);
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('worker: taking jobs')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${log}`)));
  });
}

function stopWorkers(): Promise<void> {
  return killProcesses(workers.splice(0));
}

/** What a search decided: each fold's trials (point and score), best point and out-of-sample score. */
function decisions(s: OptimizeSummary): unknown {
  return {
    trials: s.trials.map((t) => [t.fold, t.params, t.score]),
    best: s.folds.map((f) => [f.best?.params, f.best?.score, f.outOfSampleResult?.score]),
  };
}

describe.skipIf(skip)('clobot optimize on a BullMQ queue of worker processes', async () => {
  const fixture = await leanFixture(tmp);
  const common = ['--data', fixture.data, '--space', fixture.space, '--folds', '1', '--trials', '8', '--batch', '4', '--startup', '4', '--objective', 'pnl', '--min-fills', '1', '--seed', '9', '--no-progress'];

  beforeAll(() => redis.start(), 60_000);
  afterEach(() => stopWorkers());
  afterAll(async () => {
    await redis.stop();
    tmp.remove();
  });

  it('2 worker processes give the trials, best point and out-of-sample score of worker threads', async () => {
    const local = await cli(['optimize', fixture.config, ...common, '--workers', '2', '--out', tmp.path('local')]);
    expect(local.code, local.stderr).toBe(0);
    await Promise.all([startWorker(), startWorker()]);
    const queued = await cli(['optimize', fixture.config, ...common, '--queue', redis.url, '--out', tmp.path('queued')]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain(`optimize: 4 trials queued on ${redis.url}`);
    const read = (dir: string): OptimizeSummary => JSON.parse(readFileSync(join(dir, 'optimize.json'), 'utf8')) as OptimizeSummary;
    const a = read(tmp.path('local'));
    const b = read(tmp.path('queued'));
    expect(b.trials).toHaveLength(8);
    expect(decisions(b)).toEqual(decisions(a));
  }, 120_000);

  it('--queue-name without --queue, or --workers with it: one line naming the flag, exit 2', async () => {
    const named = await cli(['optimize', fixture.config, ...common, '--queue-name', 'q', '--out', tmp.path('bad1')]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--queue-name: names the queue of --queue; give --queue too');
    const both = await cli(['optimize', fixture.config, ...common, '--queue', redis.url, '--workers', '2', '--out', tmp.path('bad2')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--workers: the threads of trials on this machine');
  });

  it('stopped with no worker connected: every queued job is taken back from Redis and answers notRun', async () => {
    const target = parseRedisUrl(redis.url, 'test');
    const runner = new BullQueueRunner({ target, queueName: 'stop-test', statusEveryMs: 50 });
    // never run (no worker listens on this queue): their contents are not read
    const jobs = [0, 1, 2].map((i) => ({ id: `p${i}`, config: { path: fixture.config }, data: [], overrides: [], outDir: tmp.path(`stop-${i}`) }) as unknown as BacktestJob);
    const stop = new AbortController();
    const done: string[] = [];
    const running = runner.run(jobs, { signal: stop.signal, onOutcome: (o) => done.push(o.id) });
    // once queued (nobody takes them: no worker listens on this queue), stop
    setTimeout(() => stop.abort(), 300);
    const outcomes = await running;
    expect(outcomes.map((o) => o.id)).toEqual(['p0', 'p1', 'p2']);
    expect(outcomes.every(isNotRun)).toBe(true);
    expect(done.sort()).toEqual(['p0', 'p1', 'p2']);
    // nothing of the run is left on the queue
    const { Queue } = await import('bullmq');
    const { bullConnection } = await import('../../src/jobs/bullmq-queue.ts');
    const queue = new Queue('stop-test', { connection: bullConnection(target) });
    try {
      expect(await queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed')).toMatchObject({ waiting: 0, active: 0, prioritized: 0, delayed: 0 });
    } finally {
      await queue.close();
    }
  });
});
