import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import type { BacktestSummary } from '../../src/backtest/summary.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { writeThrowingStrategy } from '../app/throwing-strategy.ts';
import { TempDir } from './helpers.ts';

/**
 * `clobot backtest` with a strategy that throws in onBook (a module in a temp folder, as a user
 * keeps it): the backtest stops with the strategy's stack (its file:line) and exit 1; with
 * `--keep-going` or `backtest.keepGoing: true` it goes on, and the summary counts the faults and
 * shows the first.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = new TempDir();
afterAll(() => tmp.remove());

function config(name: string, keepGoing?: boolean): string {
  const lines = [
    'mode: backtest',
    'name: thrower',
    'data:',
    '  markets: { filter: { maxCount: 2 } }',
    'strategies:',
    '  - id: boom',
    `    module: ${join(tmp.dir, 'thrower.ts')}`,
    'backtest:',
    '  equityIntervalMs: 10000',
    ...(keepGoing === undefined ? [] : [`  keepGoing: ${keepGoing}`]),
    '',
  ];
  return tmp.write(name, lines.join('\n'));
}

function clobot(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a strategy that throws in a backtest', async () => {
  // an ES module folder, as `clobot init` writes one: the stack names the .ts file and line
  tmp.write('package.json', '{ "type": "module" }\n');
  // the project's own dependency, as in a user's folder
  mkdirSync(tmp.path('node_modules'));
  symlinkSync(join(ROOT, 'node_modules/zod'), tmp.path('node_modules/zod'));
  const { path: strategyPath, frame, callLine } = writeThrowingStrategy(tmp.dir, { withParams: true });
  const data = tmp.path('rec.jsonl');
  const options = { seed: 5, markets: 2, depth: 4, events: 400, meanGapMs: 300 };
  const writer = createRecordingWriter(data, syntheticHeader(options), { form: 'text' });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();

  it('stops the backtest with the strategy stack (its file:line) and exit 1; nothing is written', () => {
    const out = tmp.path('stopped');
    const r = clobot(['backtest', config('stop.yaml'), '--data', data, '--out', out, '--no-progress']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^clobot: StrategyError: backtest stopped: strategy 'boom' faulted in onBook: deliberate failure on \d+ \(at \d{4}-\d\d-\d\dT[\d:.]+Z, virtual time, after \d+ events\)$/,
    );
    // the strategy's own frames, innermost first, and none of the framework's
    expect(lines[1]).toBe(`    ${frame}`);
    expect(lines[2]).toMatch(new RegExp(`^    at .*onBook \\(${escape(strategyPath)}:${callLine}:\\d+\\)$`));
    expect(lines.slice(1, -1).every((l) => l.includes(strategyPath))).toBe(true);
    expect(lines[lines.length - 1]).toBe('to skip the event and go on, counting faults: --keep-going, or backtest.keepGoing: true');
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
  });

  it('--keep-going skips each faulting event, counts the faults and shows the first in the table, summary.json and stderr', () => {
    const out = tmp.path('kept');
    const r = clobot(['backtest', config('stop.yaml'), '--data', data, '--out', out, '--no-progress', '--keep-going']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as BacktestSummary;
    expect(summary.faults.count).toBeGreaterThan(10);
    expect(summary.orders.faults).toBe(summary.faults.count);
    expect(summary.faults.first).toEqual({
      strategyId: 'boom',
      message: expect.stringMatching(/^strategy 'boom' faulted in onBook: deliberate failure on \d+$/) as string,
      at: expect.stringMatching(/Z$/) as string,
    });
    expect(r.stdout).toMatch(new RegExp(`^strategy faults\\s+${summary.faults.count} \\(first at ${escape(summary.faults.first!.at)}: strategy 'boom' faulted in onBook`, 'm'));
    expect(r.stderr).toContain(`warning: ${summary.faults.count} strategy fault(s), each event skipped; the first:\n${summary.faults.first!.message}\n    ${frame}\n`);

    // the config key does the same: the same summary, byte for byte
    const out2 = tmp.path('kept-by-config');
    const byConfig = clobot(['backtest', config('keep.yaml', true), '--data', data, '--out', out2, '--no-progress']);
    expect(byConfig.code, byConfig.stderr).toBe(0);
    expect(readFileSync(join(out2, 'summary.json'), 'utf8')).toBe(readFileSync(join(out, 'summary.json'), 'utf8'));
  });

  it('a sweep stops at the fault too, and --keep-going reaches its workers', () => {
    const stopped = clobot(['backtest', config('stop.yaml'), '--data', data, '--out', tmp.path('sweep-stopped'), '--no-progress', '--sweep', 'boom.x=1,2', '--workers', '1']);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain("faulted in onBook: deliberate failure on");
    const kept = clobot(['backtest', config('stop.yaml'), '--data', data, '--out', tmp.path('sweep-kept'), '--no-progress', '--sweep', 'boom.x=1,2', '--workers', '1', '--keep-going']);
    expect(kept.code, kept.stderr).toBe(0);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
