import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TempDir } from '../backtest/helpers.ts';
import { clobotProcess } from '../cli/clobot-process.ts';
import { RedisServer } from '../redis-server.ts';
import { killProcesses } from './kill-processes.ts';
import { SWEEP_CONFIG, writeSweepRecording } from './sweep-fixture.ts';

/**
 * A sweep across worker processes on a real Redis (issue 25 point 1): `clobot backtest --sweep
 * --queue` and `clobot worker` processes, against the same sweep on worker threads.
 */

const BIN = fileURLToPath(new URL('../../bin/clobot.mjs', import.meta.url));
const skip = RedisServer.skip();
const redis = new RedisServer();
const tmp = new TempDir();
const workers: ChildProcess[] = [];

/** 12 points: 3 x 2 x 2. */
const SWEEP = ['--sweep', 'bq.halfSpreadTicks=1,2,3', '--sweep', 'requoteTicks=1,3', '--sweep', 'size=10,20'];

let configPath = '';
let dataPath = '';

/** A `clobot worker` process; its stderr is kept in `log`. */
interface WorkerProcess {
  readonly child: ChildProcess;
  log: string;
}

function startWorker(extra: readonly string[] = []): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', redis.url, '--lock-ms', '6000', ...extra], { env: { ...process.env, CLOBOT_DEBUG: '' } });
  workers.push(child);
  const worker: WorkerProcess = { child, log: '' };
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      worker.log += d.toString();
      if (worker.log.includes('worker: taking jobs')) resolve(worker);
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${worker.log}`)));
  });
}

function stopWorkers(): Promise<void> {
  return killProcesses(workers.splice(0));
}

/** The sweep table's rows (the lines before the `wrote` line, which names the folder). */
function table(stdout: string): string[] {
  return stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('wrote '));
}

/** Every point's files under a sweep's folder (summary.json, report.html, the Parquet tables), by label: each file's name and SHA-256. */
function pointFiles(dir: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const files: Record<string, string> = {};
    const names = readdirSync(join(dir, entry.name)).sort();
    // every point has its log; its lines carry wall-clock times, so it is not compared byte for byte
    if (!names.includes('backtest.log')) throw new Error(`${entry.name}: no backtest.log`);
    for (const name of names.filter((n) => n !== 'backtest.log')) files[name] = createHash('sha256').update(readFileSync(join(dir, entry.name, name))).digest('hex');
    out.set(entry.name, files);
  }
  return out;
}

afterAll(() => tmp.remove());

function writeRecording(path: string): Promise<string> {
  return writeSweepRecording(path, { seed: 7, markets: 2, depth: 8, events: 1_200, meanGapMs: 400 });
}

describe.skipIf(skip)('a sweep on a BullMQ queue of worker processes', () => {
  let local: { table: string[]; files: Map<string, Record<string, string>> };

  beforeAll(async () => {
    await redis.start();
    configPath = tmp.write('cluster.yaml', SWEEP_CONFIG);
    dataPath = await writeRecording(tmp.path('rec.bin'));
    const out = tmp.path('local');
    const res = await clobotProcess(['backtest', configPath, '--data', dataPath, ...SWEEP, '--out', out, '--workers', '2']);
    expect(res.status, res.stderr).toBe(0);
    local = { table: table(res.stdout), files: pointFiles(out) };
    expect(local.files.size).toBe(12);
    for (const files of local.files.values()) expect(Object.keys(files)).toEqual(['equity.parquet', 'fills.parquet', 'orders.parquet', 'report.html', 'summary.json']);
  }, 120_000);

  // a test that fails leaves no worker to take the next test's jobs
  afterEach(() => stopWorkers());
  afterAll(() => redis.stop());

  it('3 worker processes give the table of worker threads point for point, and the same files byte for byte (summary.json, report.html, fills/orders/equity Parquet)', async () => {
    await Promise.all([startWorker(), startWorker(), startWorker()]);
    const out = tmp.path('queued');
    const res = await clobotProcess(['backtest', configPath, '--data', dataPath, ...SWEEP, '--out', out, '--queue', redis.url]);
    expect(res.status, res.stderr).toBe(0);
    expect(table(res.stdout)).toEqual(local.table);
    expect(pointFiles(out)).toEqual(local.files);
    expect(res.stderr).toContain('12 points queued on ' + redis.url);
  });

  it('a worker killed (SIGKILL) mid-job: its point runs again on another, and the table holds all 12 points once each', async () => {
    const [victim, ...others] = await Promise.all([startWorker(), startWorker(), startWorker()]);
    const out = tmp.path('killed');
    const submit = clobotProcess(['backtest', configPath, '--data', dataPath, ...SWEEP, '--out', out, '--queue', redis.url]);
    const killed = await new Promise<string>((resolve) => {
      const look = (): void => {
        const m = /started (\S+) \(job/.exec(victim.log);
        if (m) {
          victim.child.kill('SIGKILL');
          resolve(m[1]!);
        } else victim.child.stderr!.once('data', () => setImmediate(look));
      };
      look();
    });
    const res = await submit;
    expect(res.status, res.stderr).toBe(0);
    expect(victim.log).not.toContain(`done ${killed} `);
    // the point the dead worker held ran again on another worker, and only there
    expect(others.map((w) => (w.log.match(new RegExp(`done ${killed.replace(/[.]/g, '\\.')} `, 'g')) ?? []).length).reduce((a, b) => a + b)).toBe(1);
    expect(table(res.stdout)).toEqual(local.table);
    const index = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { points: { label: string }[] };
    expect(index.points.map((p) => p.label).sort()).toEqual([...local.files.keys()].sort());
    expect(pointFiles(out)).toEqual(local.files);
  });

  it('a worker whose data file is not the one hashed fails those jobs with an error naming the file', async () => {
    const elsewhere = tmp.path('elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'rec.bin'), readFileSync(dataPath).subarray(0, 4_000));
    const worker = await startWorker(['--data-dir', elsewhere]);
    const res = await clobotProcess(['backtest', configPath, '--data', dataPath, '--sweep', 'size=10,20', '--out', tmp.path('mismatch'), '--queue', redis.url]);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/2 of 2 sweep points failed; first: bq\.size=\d+: DataHashMismatchError: .*elsewhere\/rec\.bin: the data file's SHA-256 is [0-9a-f]{64}, the job was made for [0-9a-f]{64}/);
    expect(worker.log).toContain('failed bq.size=10: DataHashMismatchError');
  });
});

describe('a sweep with --queue', () => {
  it('a queue nobody answers at is one line naming the URL', async () => {
    const res = await clobotProcess(['backtest', tmp.write('c2.yaml', SWEEP_CONFIG), '--data', await writeRecording(tmp.path('r2.bin')), '--sweep', 'size=10,20', '--out', tmp.path('nowhere'), '--queue', 'redis://127.0.0.1:1']);
    expect(res.status).toBe(1);
    expect(res.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^clobot: ClobotError: --queue: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\)$/)]);
  });
});
