import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { parseSweepAxis } from '../../src/backtest/param-overrides.ts';
import { serializeSummary, type BacktestSummary } from '../../src/backtest/summary.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { DataHashMismatchError, DataVerifier, sha256File } from '../../src/jobs/data-hash.ts';
import type { JobOutcome } from '../../src/jobs/job.ts';
import { LocalPoolRunner } from '../../src/jobs/local-pool.ts';
import { runSweep, sortRows, sweepJobs, sweepPoints } from '../../src/jobs/sweep.ts';
import { TempDir } from '../backtest/helpers.ts';
import { SWEEP_CONFIG, writeSweepRecording } from './sweep-fixture.ts';

/** The sweep's seams: jobs named by content hash, run through the JobRunner port's local pool. */

const tmp = new TempDir();
afterAll(() => tmp.remove());


/** The rule the sweep sorted by before objectives: Number() of the summary's strings, grid order on ties. */
function numberSort<T extends { index: number; summary: BacktestSummary }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => Number(b.summary.metrics.pnl.total) - Number(a.summary.metrics.pnl.total) || a.index - b.index);
}

describe('jobs and the local pool', async () => {
  const configPath = tmp.write('jobs-check.yaml', SWEEP_CONFIG);
  const dataPath = await writeSweepRecording(tmp.path('rec.bin'));

  it('a sweep through the JobRunner port gives each point the in-process result and the same table', async () => {
    const out = tmp.path('sweep');
    const points = sweepPoints([parseSweepAxis('bq.halfSpreadTicks=1,2', ['bq']), parseSweepAxis('requoteTicks=1,3', ['bq'])], out);
    const jobs = await sweepJobs({ configPath, dataPaths: [dataPath], points });
    expect(jobs.map((j) => j.data.map((d) => d.sha256))).toEqual(Array(4).fill([await sha256File(dataPath)]));
    expect(JSON.parse(JSON.stringify(jobs))).toEqual(jobs); // a job is plain JSON: any runner can carry it
    const seen: number[] = [];
    const rows = await runSweep(new LocalPoolRunner({ workers: 2 }), points, jobs, (_row, done) => seen.push(done));
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => r.label)).toEqual(points.map((p) => p.label));
    for (const row of rows) {
      const local = await runBacktest({ config: loadConfig(configPath, process.env, { overrides: row.overrides }), data: await openBacktestData(dataPath) });
      expect(serializeSummary(row.summary)).toBe(serializeSummary(local.summary));
      expect(readFileSync(join(row.outDir, 'summary.json'), 'utf8')).toBe(serializeSummary(local.summary));
    }
    expect(sortRows(rows, 'pnl').map((r) => r.label)).toEqual(numberSort(rows).map((r) => r.label));
    expect(new Set(rows.map((r) => r.summary.metrics.pnl.total)).size).toBeGreaterThan(1);
  });

  it('a job whose data is not the file it was made for fails with an error naming the file; the others run', async () => {
    const copy = tmp.path('copy.bin');
    appendFileSync(copy, readFileSync(dataPath));
    const points = sweepPoints([parseSweepAxis('bq.size=10,20', ['bq'])], tmp.path('hash'));
    const [good, bad] = await sweepJobs({ configPath, dataPaths: [copy], points });
    const wrong = { ...bad!, data: [{ ...bad!.data[0]!, sha256: 'f'.repeat(64) }] };
    const outcomes: JobOutcome[] = await new LocalPoolRunner({ workers: 1 }).run([good!, wrong]);
    expect(outcomes[0]!.kind).toBe('done');
    expect(outcomes[1]).toEqual({
      kind: 'failed',
      id: wrong.id,
      name: 'DataHashMismatchError',
      message: `${copy}: the data file's SHA-256 is ${good!.data[0]!.sha256}, the job was made for ${'f'.repeat(64)} (the file changed, or another file has this path here)`,
    });
    // the same job after the file changed under it
    appendFileSync(copy, Buffer.from([0]));
    const [changed] = await new LocalPoolRunner({ workers: 1 }).run([good!]);
    expect(changed).toMatchObject({ kind: 'failed', name: 'DataHashMismatchError' });
    expect(changed!.kind === 'failed' && changed!.message.startsWith(`${copy}: `)).toBe(true);
    await expect(runSweep(new LocalPoolRunner({ workers: 1 }), points, [good!, wrong])).rejects.toThrow(
      /^2 of 2 sweep points failed; first: bq\.size=10: DataHashMismatchError: /,
    );
  });

  it('the verifier hashes a file once per state and refuses a missing file by name', async () => {
    const verifier = new DataVerifier();
    const sha256 = await sha256File(dataPath);
    await verifier.verify({ path: dataPath, sha256 });
    await verifier.verify({ path: dataPath, sha256: sha256.toUpperCase() });
    await expect(verifier.verify({ path: dataPath, sha256: '0'.repeat(64) })).rejects.toBeInstanceOf(DataHashMismatchError);
    await expect(verifier.verify({ path: tmp.path('gone.bin'), sha256 })).rejects.toThrow(`${tmp.path('gone.bin')}: cannot read data file (no such file: ENOENT)`);
  });

  it('refuses two points that would write to one folder', () => {
    expect(() => sweepPoints([parseSweepAxis('bq.note=a b,a-b', ['bq'])], tmp.path('x'))).toThrow(/points 1 and 2 both write to bq\.note=a-b/);
  });
});
