import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusView } from '../../src/cli/status-view.ts';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { clobotProcess } from '../cli/clobot-process.ts';
import { startE2E, waitFor } from '../engine/e2e/harness.ts';
import { writeThrowingStrategy } from './throwing-strategy.ts';

/**
 * A strategy that throws in onBook (a module in a temp folder, as a user keeps it), in live and
 * paper runs: one log line with the stack of the strategy's code, the fault in the run summary
 * (and after the summary line on stderr), in `clobot status` of the run's store and in the
 * terminal status view. The run itself goes on (exit 0): only that strategy is stopped.
 */

const dir = mkdtempSync(join(tmpdir(), 'clobot-fault-run-'));
let strategyPath: string;
/** The innermost frame every report must show: the strategy's file and the line that threw. */
let frame: string;
const MESSAGE = /^strategy 'boom' faulted in onBook: deliberate failure on \d+$/;

let sandbox: RunningSandbox;

beforeAll(async () => {
  // an ES module folder, as `clobot init` writes one
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  ({ path: strategyPath, frame } = writeThrowingStrategy(dir));
  sandbox = await startSandbox({ port: 0, seed: 4, markets: 4, events: 2, flow: { enabled: true, intensity: 2 } });
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a strategy that faults in a paper run (clobot run, then clobot status)', () => {
  it('one log line with the stack, the summary, stderr and the store status show it; the run exits 0', async () => {
    const config = join(dir, 'paper.yaml');
    const log = join(dir, 'paper.log');
    writeFileSync(
      config,
      ['mode: paper', 'data:', '  markets: { filter: { maxCount: 2 } }', 'strategies:', '  - id: boom', `    module: ${strategyPath}`, 'logging:', `  file: ${log}`, ''].join('\n'),
    );
    const summaryPath = join(dir, 'paper-summary.json');
    const store = join(dir, 'paper.db');
    const r = await clobotProcess(['run', config, '--venue', sandbox.url, '--no-status', '--duration', '5s', '--summary', summaryPath, '--store', store]);
    expect(r.status, r.stderr).toBe(0);

    const faultLines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"msg":"strategy faulted"'));
    expect(faultLines).toHaveLength(1);
    const logged = JSON.parse(faultLines[0]!) as { level: number; strategy: string; error: string; stack: string };
    expect(logged.level).toBe(50);
    expect(logged.strategy).toBe('boom');
    expect(logged.error).toMatch(MESSAGE);
    expect(logged.stack.split('\n')[1]?.trim()).toBe(frame);

    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
    expect(summary.faults).toBe(1);
    expect(summary.strategies).toEqual({ boom: 'FAULTED' });
    expect(summary.firstFault?.strategyId).toBe('boom');
    expect(summary.firstFault?.message).toMatch(MESSAGE);
    expect(summary.firstFault?.stack).toBe(logged.stack);
    expect(r.stderr).toContain(`1 strategy fault(s); the first, at ${summary.firstFault!.at}:\n${logged.stack}\n`);

    const status = await clobotProcess(['status', store]);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain(`\nSTRATEGY FAULTS 1\n`);
    expect(status.stdout).toMatch(new RegExp(`\\n\\S+Z  strategy 'boom' faulted in onBook: deliberate failure on \\d+\\n    ${escape(frame)}\\n`));
    const json = await clobotProcess(['status', store, '--json']);
    const report = JSON.parse(json.stdout) as { faults: { count: number; list: { strategyId: string; message: string; stack: string }[] } };
    expect(report.faults.count).toBe(1);
    expect(report.faults.list[0]?.strategyId).toBe('boom');
    expect(report.faults.list[0]?.stack).toBe(logged.stack);
  }, 90_000);
});

describe('a strategy that faults in a live run (the app entry)', () => {
  it('the status view shows the faulted strategy and the first fault with its file:line', async () => {
    const e2e = await startE2E({ strategies: [{ id: 'boom', module: strategyPath, markets: { filter: { maxCount: 1 } } }] });
    try {
      await waitFor('the strategy faulted', () => e2e.summary().faults > 0, 30_000);
      const text = new StatusView(e2e.session).render();
      const line = text.split('\n').find((l) => l.startsWith('FAULTED '));
      expect(line).toMatch(new RegExp(`^FAULTED boom  faults 1  first: strategy 'boom' faulted in onBook: deliberate failure on \\d+ ${escape(frame)}$`));
      const summary = await e2e.stop();
      expect(summary.strategies).toEqual({ boom: 'FAULTED' });
      expect(summary.firstFault?.stack.split('\n')[1]?.trim()).toBe(frame);
      const journaled = e2e.events.filter((ev) => ev.type === 'fault');
      expect(journaled).toHaveLength(1);
    } finally {
      await e2e.close();
    }
  }, 90_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
