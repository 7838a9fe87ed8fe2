import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPoolRunner } from '../../src/jobs/local-pool.ts';
import { optimize, type OptimizeInput } from '../../src/optimize/optimizer.ts';
import type { OptimizeSummary } from '../../src/optimize/optimize-summary.ts';
import { parseSearchSpace } from '../../src/optimize/space.ts';
import { dataSpan, walkForwardFolds } from '../../src/optimize/walk-forward.ts';
import { TempDir } from '../backtest/helpers.ts';
import { LEAN_SPACE, leanFixture, REGIMES } from './lean-fixture.ts';

/** The optimiser end to end: trials as backtest jobs on worker threads, walk-forward, the CLI. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

function cli(args: string[], onStderr?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT, env: { ...process.env, CLOBOT_DEBUG: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr, child);
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('clobot optimize', async () => {
  const { config, space, data } = await leanFixture(tmp);

  it('gives the same trials and best point for the same seed, whatever the number of workers', async () => {
    const folds = walkForwardFolds(await dataSpan([data]), 2);
    const base = { configPath: config, dataPaths: [data], space: parseSearchSpace(LEAN_SPACE, 'space.yaml', ['lean']), sets: [], folds, objective: 'pnl', minFills: 1, sampler: 'tpe', trials: 8, batch: 4, startup: 4, seed: 11 } satisfies Partial<OptimizeInput>;
    const one = new LocalPoolRunner({ workers: 1 });
    const two = new LocalPoolRunner({ workers: 2 });
    try {
      const a = await optimize({ ...base, outDir: tmp.path('det-a'), runner: one });
      const b = await optimize({ ...base, outDir: tmp.path('det-b'), runner: two });
      const c = await optimize({ ...base, seed: 12, outDir: tmp.path('det-c'), runner: two });
      const view = (r: typeof a) => r.folds.map((f) => ({ trials: f.trials.map((t) => [t.point, t.score]), best: f.best?.point, oos: f.outOfSample?.score }));
      expect(view(b)).toEqual(view(a));
      expect(a.folds.every((f) => f.trials.length === 8 && f.best !== null && f.outOfSample !== null)).toBe(true);
      expect(a.partial).toBe(false);
      expect(view(c)).not.toEqual(view(a));
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('on data where the param fits only the first half, reports in-sample against out-of-sample and the out-of-sample score shows it', async () => {
    const out = tmp.path('regimes');
    const r = await cli(['optimize', config, '--data', data, '--space', space, '--folds', '1', '--trials', '12', '--objective', 'pnl', '--min-fills', '1', '--seed', '5', '--out', out, '--no-progress']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(out, 'optimize.json'), 'utf8')) as OptimizeSummary;
    expect(s.walkForward).toBe(true);
    expect(s.folds).toHaveLength(1);
    const fold = s.folds[0]!;
    // fitted on the rising half: buy YES, and make money there
    expect(fold.best!.params['lean.lean']).toBeGreaterThan(0.1);
    expect(Number(fold.best!.score)).toBeGreaterThan(0);
    // the same point on the falling half loses
    expect(fold.outOfSampleResult!.fills).toBeGreaterThan(0);
    expect(Number(fold.outOfSampleResult!.score)).toBeLessThan(0);
    expect(s.overall.meanOutOfSample!).toBeLessThan(s.overall.meanInSample!);
    expect(s.trials).toHaveLength(12);
    expect(s.best!.sets[0]).toMatch(/^lean\.lean=/);
    expect(s.importance.map((x) => x.name)).toEqual(['lean.lean', 'lean.size']);
    // the table and the report say the same
    expect(r.stdout).toMatch(/in-sample pnl\s+out-of-sample pnl/);
    expect(r.stdout).toContain(`best point (fold 1, the most recent window): --set lean.lean=${fold.best!.params['lean.lean']}`);
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    expect(report).toContain('In-sample against out-of-sample');
    expect(report).toContain('Parameter importance');
    // each trial is a backtest of its own, with its summary and log (ctx.log)
    const trial = s.trials.find((t) => t.fills > 0)!;
    expect(existsSync(join(out, trial.dir!, 'summary.json'))).toBe(true);
    expect(readFileSync(join(out, trial.dir!, 'backtest.log'), 'utf8')).toContain('lean buys');
  });

  it('a space the config cannot take is one error naming the key and --space, exit 2', async () => {
    const bad = tmp.write('bad-space.yaml', 'params:\n  lean: { min: -1, max: 3 }\n');
    const r = await cli(['optimize', config, '--data', data, '--space', bad, '--out', tmp.path('bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^strategies\[0\]\.params\.lean \(--space lean\): /m);
  });

  it('Ctrl-C stops it, says so in one line and keeps the finished trials, marked partial (exit 130)', async () => {
    const dir = new TempDir();
    try {
      const f = await leanFixture(dir, { ...REGIMES, events: 60_000 }, true);
      const out = dir.path('out');
      let starts = 0;
      let sent = false;
      // batch 2 on 2 workers: the third run started means the first two trials finished
      const r = await cli(['optimize', f.config, '--data', f.data, '--space', f.space, '--folds', '1', '--trials', '40', '--batch', '2', '--workers', '2', '--objective', 'pnl', '--min-fills', '0', '--out', out, '--no-progress'], (text, child) => {
        starts = text.split('cue: run started').length - 1;
        if (!sent && starts >= 3) sent = child.kill('SIGINT');
      });
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('\ninterrupted: stopping the optimiser (running trials are dropped, finished ones kept); writing the partial results\n');
      const s = JSON.parse(readFileSync(join(out, 'optimize.json'), 'utf8')) as OptimizeSummary;
      expect(s.partial).toBe(true);
      const finished = s.trials.filter((t) => !t.partial);
      expect(finished.length).toBeGreaterThanOrEqual(2);
      expect(s.trials.length).toBeLessThan(40);
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('(partial: stopped by Ctrl-C');
      expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/interrupted: partial results \(\d+ of 40 trials finished\) in /);
    } finally {
      dir.remove();
    }
  });
});
