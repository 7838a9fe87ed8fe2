import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/app/recorder.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { watchedCalls } from './strategies/price-watcher.ts';

/**
 * A live run and the recorder build their market data in one place: a strategy's `onPrice` is
 * called live against the sandbox (over loopback, signed orders path and all), and in a backtest
 * of a recording made of that run's markets at the same time. Both transports.
 */

const WATCHER = fileURLToPath(new URL('./strategies/price-watcher.ts', import.meta.url));
/** A throwaway key used nowhere else: 0x + 64 hex, inside the secp256k1 range. */
const TEST_PRIVATE_KEY = '0x' + '2c'.repeat(32);

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 7, markets: 6, events: 2, flow: { enabled: true, intensity: 6 } });
  dir = mkdtempSync(join(tmpdir(), 'clobot-market-data-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function writeConfig(transport: 'poll' | 'ws', tag: string): string {
  const path = join(dir, `${tag}.yaml`);
  writeFileSync(
    path,
    [
      'mode: live',
      'venue:',
      `  baseUrl: ${sandbox.url}`,
      'account: { signatureType: 0 }',
      'data:',
      `  transport: ${transport}`,
      '  pollIntervalMs: 200',
      '  markets:',
      '    filter: { active: true, acceptingOrders: true, maxCount: 2 }',
      'strategies:',
      '  - id: watch',
      `    module: ${WATCHER}`,
      `    params: { tag: ${tag}, take: true }`,
      'risk:',
      `  haltFile: ${join(dir, 'HALT')}`,
      // room for the one taking order (a whole ask level)
      '  maxOrderNotional: 2000',
      '  maxPositionPerToken: 5000',
      '  maxPositionPerMarket: 5000',
      '  maxGrossExposure: 5000',
      'logging:',
      '  level: silent',
      '',
    ].join('\n'),
  );
  return path;
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(['poll', 'ws'] as const)('market data over %s', (transport) => {
  it('a strategy gets onPrice live, and again in a backtest of a recording of that run', async () => {
    const tag = `live-${transport}`;
    const config = loadConfig(writeConfig(transport, tag), { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY });
    const logger = createLogger({ level: 'silent' });
    const out = join(dir, `${transport}.jsonl`);

    // the recorder first, so it is subscribed when the run moves a top
    const recorder = await startRecorder({ config, out, logger });
    const session = await startRunSession({ config, logger });
    const live = watchedCalls(tag);
    try {
      await until('prices live and in the recording', () => live.prices > 0 && live.books > 0 && recorder.stats().byType.prices > 0);
    } finally {
      await recorder.stop();
      await session.stop();
    }
    expect(session.venue.transport.counters.http429).toBe(0);
    const recorded = recorder.stats();
    expect(recorded.byType.book).toBeGreaterThan(0);
    expect(recorded.byType.prices).toBeGreaterThan(0);
    // the run traded the recorded markets
    expect(new Set(session.tokens.map((t) => t.tokenId))).toEqual(new Set(recorder.header.markets.flatMap((m) => m.tokens.slice(0, 2).map((t) => t.tokenId))));
    expect([...live.priceTokens].every((t) => session.tokens.some((x) => x.tokenId === t))).toBe(true);

    const replayTag = `replay-${transport}`;
    const data = await openBacktestData(out);
    await runBacktest({ config, data, overrides: [{ strategyId: 'watch', path: ['tag'], value: replayTag }] });
    const replayed = watchedCalls(replayTag);
    expect(replayed.books).toBeGreaterThan(0);
    expect(replayed.prices).toBeGreaterThan(0);
  });
});
