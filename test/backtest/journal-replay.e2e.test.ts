import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { formatMicros } from '../../src/core/fixed.ts';
import { createLogger } from '../../src/core/log.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { JOURNAL_MARKET } from '../../src/store/store-types.ts';

/**
 * Journal replay: a paper run against the sandbox (with order flow) journals its markets and
 * every market event its engine applied; `clobot backtest --data <store>` replays exactly those
 * events through the same engine and the same fill model (SimulatedExecutionClient), in virtual
 * time. Parity with the paper run is close but not exact, by design:
 * - paper timers (batch wait, entry and response latency, reconcile) run in real time, so orders
 *   reach the simulated book at slightly different instants relative to the market events than in
 *   virtual time, where they land exactly `latency` ms after the event that caused them;
 * - the paper fill model also saw the unchanged books the engine drops (not journaled);
 * - the paper run is stopped at a wall-clock instant; the backtest ends at the last event plus a
 *   settling time.
 * So what is asserted is what is stable: every journaled event is replayed, orders are placed on
 * the same markets, and the backtest trades when paper traded. The rest is printed.
 */
let sandbox: RunningSandbox;
let dir: string;

const COMMON = [
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
  'backtest:',
  '  balance: 500',
  'logging:',
  '  level: silent',
  '',
];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 5, markets: 10, events: 3, flow: { enabled: true, intensity: 6 } });
  dir = mkdtempSync(join(tmpdir(), 'clobot-journal-replay-'));
  writeFileSync(join(dir, 'paper.yaml'), ['mode: paper', 'venue:', `  baseUrl: ${sandbox.url}`, 'paper:', '  balance: 500', ...COMMON].join('\n'));
  writeFileSync(join(dir, 'replay.yaml'), ['mode: backtest', ...COMMON].join('\n'));
});

afterAll(async () => {
  await sandbox?.close();
});

describe('journal replay', () => {
  it('replays a paper run from its store through the same engine, with fills close to paper', async () => {
    const storePath = join(dir, 'paper.sqlite');
    const session = await startRunSession({ config: loadConfig(join(dir, 'paper.yaml'), {}), storePath, logger: createLogger({ level: 'silent' }) });
    // run ~12 s of wall time, and on until paper has filled (bounded): a run with fills is the comparison we want
    const start = Date.now();
    while (Date.now() - start < 25_000 && (Date.now() - start < 12_000 || session.engine.summary().fills === 0)) await new Promise((r) => setTimeout(r, 200));
    const paper = await session.stop();
    expect(paper.ordersAccepted).toBeGreaterThan(0);

    const reader = StoreReader.open(storePath);
    const stored = reader.snapshot(0);
    const marketRows = reader.countJournal(JOURNAL_MARKET);
    reader.close();
    expect(marketRows).toBeGreaterThan(0);
    const paperFills = stored.fills;
    const paperOrders = (() => {
      const store = RunStore.open(storePath);
      try {
        return store.load({ orders: 'all' }).orders;
      } finally {
        store.close();
      }
    })();

    const data = await openBacktestData(storePath);
    expect(data.kind).toBe('store');
    expect(data.header.markets.map((m) => m.conditionId).sort()).toEqual(session.markets.map((m) => m.conditionId).sort());
    const result = await runBacktest({ config: loadConfig(join(dir, 'replay.yaml'), {}), data });

    // every journaled market event, and only those, went through the engine
    expect(result.summary.data.events).toBe(marketRows);
    expect(result.summary.data.outOfOrder).toBe(0);
    expect(result.engine.ordersAccepted).toBeGreaterThan(0);

    // orders on the same tokens: the strategy saw the same books
    const paperTokens = new Set(paperOrders.map((o) => o.request.tokenId));
    const backtestTokens = new Set(result.fills.map((f) => f.tokenId));
    for (const t of backtestTokens) expect(paperTokens.has(t)).toBe(true);
    // same strategy on the same books: order counts of the same order of magnitude
    const ratio = result.engine.ordersSubmitted / Math.max(1, paperOrders.length);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
    // the backtest trades when paper traded
    if (paperFills.length > 0) expect(result.fills.length).toBeGreaterThan(0);

    const side = (fills: readonly { side: string; size: number }[], s: string) => formatMicros(fills.filter((f) => f.side === s).reduce((a, f) => a + f.size, 0));
    const lines = [
      `journal replay parity (${marketRows} market events over ${((stored.run.updatedAt - stored.run.createdAt) / 1000).toFixed(1)} s)`,
      `  orders:  paper ${paperOrders.length}, backtest ${result.engine.ordersSubmitted}`,
      `  fills:   paper ${paperFills.length}, backtest ${result.fills.length}`,
      `  bought:  paper ${side(paperFills, 'BUY')}, backtest ${side(result.fills, 'BUY')}`,
      `  sold:    paper ${side(paperFills, 'SELL')}, backtest ${side(result.fills, 'SELL')}`,
      `  tokens filled: paper ${new Set(paperFills.map((f) => f.tokenId)).size}, backtest ${backtestTokens.size}`,
      `  cash: paper ${paper.account.cash}, backtest pnl ${result.summary.metrics.pnl.total}`,
    ];
    const fillLine = (f: { tokenId: string; side: string; price: number; size: number; liquidity: string }) => `    ${f.tokenId.slice(0, 12)}… ${f.side} ${formatMicros(f.size)} @ ${formatMicros(f.price)} ${f.liquidity}`;
    lines.push('  paper fills:', ...paperFills.map(fillLine), '  backtest fills:', ...result.fills.map(fillLine));
    process.stdout.write(lines.join('\n') + '\n');

    // the command line takes the store as --data too
    const out = join(dir, 'out');
    const cli = spawnSync(process.execPath, ['bin/clobot.mjs', 'backtest', join(dir, 'replay.yaml'), '--data', storePath, '--out', out, '--no-progress'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.status, cli.stderr).toBe(0);
    const written = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { data: { events: number; source: string }; metrics: { fills: number } };
    expect(written.data.events).toBe(marketRows);
    expect(written.data.source).toBe(`journal:${storePath}`);
    expect(written.metrics.fills).toBe(result.fills.length);
  }, 90_000);

  it('refuses a store that holds no market data, naming the file', async () => {
    const path = join(dir, 'empty.sqlite');
    RunStore.open(path, { create: true }).close();
    await expect(openBacktestData(path)).rejects.toThrow(`${path}: this run store holds no market list to replay`);
  });
});
