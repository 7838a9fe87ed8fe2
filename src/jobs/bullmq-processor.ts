import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Job } from 'bullmq';
import { DataVerifier } from './data-hash.ts';
import { failedReason, type QueuedJobResult } from './bullmq-queue.ts';
import type { BacktestJob } from './job.ts';
import { runJob } from './run-job.ts';

/**
 * The sandboxed processor of `clobot worker` (a worker thread BullMQ starts per concurrent job,
 * see bullmq-worker.ts): runs one queued job as a local sweep would (`runJob`), into a scratch
 * folder, and answers the bytes of every file it wrote there (summary.json, report.html, the
 * fills, orders and equity tables), which the submitter writes to the job's folder. The worker process's own thread only talks to Redis, so a replay that keeps this
 * thread's core busy for minutes never stalls the job's lock renewal.
 *
 * `CLOBOT_WORKER_DATA_DIR` (set by `clobot worker --data-dir`): each data file is read from that
 * folder by its name instead of at the submitter's path; its SHA-256 is checked all the same.
 */
export const DATA_DIR_ENV = 'CLOBOT_WORKER_DATA_DIR';

const verifier = new DataVerifier();

export default async function processBacktestJob(job: Job<BacktestJob>): Promise<QueuedJobResult> {
  const dataDir = process.env[DATA_DIR_ENV];
  const backtest: BacktestJob = dataDir ? { ...job.data, data: job.data.data.map((file) => ({ ...file, path: join(dataDir, basename(file.path)) })) } : job.data;
  const scratch = mkdtempSync(join(tmpdir(), 'clobot-job-'));
  try {
    await runJob(backtest, verifier, { dir: scratch });
    const files: Record<string, string> = {};
    for (const name of readdirSync(scratch).sort()) files[name] = readFileSync(join(scratch, name)).toString('base64');
    return { files };
  } catch (err) {
    // BullMQ keeps a failed job's message only: the error's name goes in front of it
    const name = err instanceof Error ? err.name : 'Error';
    throw new Error(failedReason(name, err instanceof Error ? err.message : String(err)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
