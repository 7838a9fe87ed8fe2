import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TempDir } from './helpers.ts';

/**
 * README "Three steps", step 3, as a newcomer runs it (shortened): record the sandbox that step 1
 * ran (over WS, the recorder's default), then backtest the config step 1 ran on it. The backtest
 * must trade: fills, and an equity that moves.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

function clobot(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 110_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the README walk', () => {
  it('records the sandbox over WS with its trades, and a backtest of config/default.yaml on it fills', () => {
    const recording = tmp.path('sandbox.jsonl.gz');
    // as the README's step, shortened: 20 s with the synthetic traders busier than by default
    const rec = clobot(['record', 'config/default.yaml', '--out', recording, '--duration', '20s', '--set', 'venue.embedded.flow.intensity=6']);
    expect(rec.code, rec.stderr).toBe(0);
    expect(rec.stderr).toMatch(/ over ws to /);
    const trades = Number(/, (\d+) trades,/.exec(rec.stderr)?.[1]);
    expect(trades).toBeGreaterThan(0);

    const out = tmp.path('out');
    const bt = clobot(['backtest', 'config/default.yaml', '--data', recording, '--out', out, '--no-progress']);
    expect(bt.code, bt.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { metrics: { fills: number; turnover: string }; strategies: { id: string; module: string }[] };
    expect(summary.strategies.map((s) => [s.id, s.module])).toEqual([['mm', 'strategies/market-maker.ts']]);
    expect(summary.metrics.fills).toBeGreaterThan(0);
    expect(bt.stdout).toMatch(/^fills \(maker\/taker\)\s+[1-9]\d* \(/m);
    expect(existsSync(join(out, 'fills.parquet'))).toBe(true);
    // the report draws the equity over the run: more than a start and an end, and not flat
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    const data = JSON.parse(/<script[^>]*id="report-data"[^>]*>([\s\S]*?)<\/script>/.exec(report)![1]!) as { equity: [number, number][] };
    expect(data.equity.length).toBeGreaterThan(10);
    expect(new Set(data.equity.map(([, v]) => v)).size).toBeGreaterThan(1);
  });
});
