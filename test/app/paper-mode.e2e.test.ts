import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';

/**
 * Paper mode: live books from the venue, fills simulated by the backtest's execution edge fed the
 * same live stream. Nothing is ever posted to the venue.
 */
let sandbox: RunningSandbox;
let configPath: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 5, markets: 10, events: 3, flow: { enabled: true, intensity: 6 } });
  const dir = mkdtempSync(join(tmpdir(), 'clobot-paper-'));
  configPath = join(dir, 'paper.yaml');
  writeFileSync(
    configPath,
    [
      'mode: paper',
      'venue:',
      `  baseUrl: ${sandbox.url}`,
      'data:',
      '  pollIntervalMs: 250',
      '  markets:',
      '    filter: { active: true, acceptingOrders: true, maxCount: 3 }',
      'strategies:',
      '  - id: mm',
      '    module: strategies/market-maker.ts',
      '    params: { size: 5, improveTicks: 1, minSpreadTicks: 1 }',
      'execution:',
      '  maxBatchWaitMs: 10',
      'paper:',
      '  balance: 500',
      'logging:',
      '  level: silent',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await sandbox?.close();
});

describe('paper mode', () => {
  it('quotes on live books with simulated fills and never posts an order to the venue', async () => {
    const config = loadConfig(configPath, {});
    const lines: string[] = [];
    const session = await startRunSession({ config, logger: createLogger({ level: 'silent', tap: (line: string) => lines.push(line) }) });
    // polled books carry no trade prints: the run says what that means for the simulated fills, once
    expect(lines.filter((l) => l.includes('paper run on polled books'))).toHaveLength(1);
    // the simulated edge names the mode it serves
    expect(session.execution.kind).toBe('paper');
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && session.engine.summary().ordersAccepted === 0) await new Promise((r) => setTimeout(r, 200));
    const summary = await session.stop();
    expect(summary.ordersAccepted).toBeGreaterThan(0);
    expect(summary.heartbeats.sent).toBe(0);
    // the simulated account starts from paper.balance: cash moves only with simulated fills
    if (summary.fills === 0) expect(summary.account).toMatchObject({ cash: '500', source: 'configured' });
    const venueOrders = (await (await fetch(`${sandbox.url}/admin/orders`)).json()) as unknown[];
    expect(venueOrders).toEqual([]);
    const stats = (await (await fetch(`${sandbox.url}/admin/stats`)).json()) as { routes: Record<string, number> };
    expect(stats.routes.getOrderBooks ?? 0).toBeGreaterThan(0);
    expect(stats.routes.postOrders ?? 0).toBe(0);
  }, 40_000);

  it('with execution.busyPoll, `clobot run --duration` trades and then exits on its own (the polling loop is stopped)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-paper-'));
    const path = join(dir, 'busy.yaml');
    writeFileSync(path, readFileSync(configPath, 'utf8').replace('  maxBatchWaitMs: 10\n', '  maxBatchWaitMs: 10\n  busyPoll: true\n'));
    expect(readFileSync(path, 'utf8')).toContain('busyPoll: true');
    const summaryPath = join(dir, 'summary.json');
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', path, '--duration', '4s', '--summary', summaryPath, '--no-status'], { stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { ordersAccepted: number };
    expect(summary.ordersAccepted).toBeGreaterThan(0);
  }, 40_000);

  it('on the WebSocket market channel, fills a resting order from the trade prints, with no warning about polled books', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-paper-'));
    const path = join(dir, 'ws.yaml');
    writeFileSync(path, readFileSync(configPath, 'utf8').replace('  pollIntervalMs: 250\n', '  transport: ws\n'));
    const lines: string[] = [];
    const session = await startRunSession({ config: loadConfig(path, {}), logger: createLogger({ level: 'silent', tap: (line: string) => lines.push(line) }) });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && session.engine.summary().fills === 0) await new Promise((r) => setTimeout(r, 200));
    const summary = await session.stop();
    expect(summary.fills).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes('paper run on polled books'))).toBe(false);
  }, 60_000);

  it('refuses a backtest config with one line naming the right command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-paper-'));
    const path = join(dir, 'bt.yaml');
    writeFileSync(path, ['mode: backtest', 'data:', '  markets:', '    filter: { maxCount: 1 }', 'strategies:', '  - id: mm', '    module: strategies/market-maker.ts', 'logging:', '  level: silent', ''].join('\n'));
    const config = loadConfig(path, {});
    await expect(startRunSession({ config, logger: createLogger({ level: 'silent' }) })).rejects.toThrow(/clobot backtest/);
  });
});
