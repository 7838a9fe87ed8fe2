/**
 * Sweep throughput (points per minute) of a 12-point sweep: on worker threads (the local pool,
 * one per core), and on a BullMQ queue with 1, 2 and 3 `clobot worker` processes (concurrency 1
 * each) on this machine, Redis a local redis-server on a free loopback port. Each row is the wall
 * time from the first job given to the last result, workers already connected (their threads, like
 * the pool's, start with the sweep). Ratios are against the worker threads of the same run.
 * `BENCH_ROUNDS` (default 1) rounds per row: median and range.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSweepAxis } from '../src/backtest/param-overrides.ts';
import { parseRedisUrl } from '../src/core/redis-url.ts';
import { BullQueueRunner } from '../src/jobs/bullmq-runner.ts';
import type { JobRunner } from '../src/jobs/job-runner.ts';
import { LocalPoolRunner } from '../src/jobs/local-pool.ts';
import { runSweep, sweepJobs, sweepPoints } from '../src/jobs/sweep.ts';
import { SWEEP_CONFIG, writeSweepRecording } from '../test/jobs/sweep-fixture.ts';
import { RedisServer } from '../test/redis-server.ts';
import type { BenchTable } from './table.ts';

const BIN = fileURLToPath(new URL('../bin/clobot.mjs', import.meta.url));

function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('worker: taking jobs')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${log}`)));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function run(): Promise<BenchTable> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-sweep-'));
  const redis = new RedisServer();
  await redis.start();
  try {
    const configPath = join(dir, 'sweep.yaml');
    writeFileSync(configPath, SWEEP_CONFIG);
    const dataPath = await writeSweepRecording(join(dir, 'rec.bin'));
    const axes = [parseSweepAxis('bq.halfSpreadTicks=1,2,3', ['bq']), parseSweepAxis('requoteTicks=1,3', ['bq']), parseSweepAxis('size=10,20', ['bq'])];
    const timeSweep = async (runner: JobRunner, round: number, name: string): Promise<number> => {
      const points = sweepPoints(axes, join(dir, `${name}-${round}`));
      const jobs = await sweepJobs({ configPath, dataPaths: [dataPath], points });
      const began = performance.now();
      await runSweep(runner, points, jobs);
      return (performance.now() - began) / 1000;
    };
    const rows: { name: string; seconds: number[] }[] = [];
    const threads = availableParallelism();
    rows.push({ name: `worker threads (${threads})`, seconds: [] });
    for (let r = 0; r < rounds; r++) {
      // a fresh pool each round (its threads start with the sweep, like the workers' jobs), closed after
      const pool = new LocalPoolRunner();
      try {
        rows[0]!.seconds.push(await timeSweep(pool, r, 'threads'));
      } finally {
        await pool.close();
      }
    }
    for (const n of [1, 2, 3]) {
      const row = { name: `queue, ${n} worker process${n > 1 ? 'es' : ''}`, seconds: [] as number[] };
      rows.push(row);
      for (let r = 0; r < rounds; r++) {
        const workers = await Promise.all(Array.from({ length: n }, () => startWorker(redis.url)));
        try {
          row.seconds.push(await timeSweep(new BullQueueRunner({ target: parseRedisUrl(redis.url, 'bench'), statusEveryMs: 250 }), r, `queue${n}`));
        } finally {
          for (const w of workers) w.kill('SIGKILL');
        }
      }
    }
    const base = 720 / median(rows[0]!.seconds);
    return {
      title: 'sweep throughput: 12 points (band quoter, 2 markets, 2,000 events)',
      columns: ['runner', 'points/min (median)', 'range', 'vs threads'],
      rows: rows.map((r) => {
        const ppm = r.seconds.map((s) => 720 / s);
        return [r.name, 720 / median(r.seconds), `${Math.min(...ppm).toFixed(1)}-${Math.max(...ppm).toFixed(1)}`, 720 / median(r.seconds) / base];
      }),
      notes: [`${rounds} round(s) per row on ${threads} cores; 720 = 12 points x 60 s`, 'queue rows include Redis round trips and the 250 ms check of the queue; each worker runs one job at a time'],
    };
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
