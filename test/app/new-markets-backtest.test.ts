import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/app/recorder.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { openRecording } from '../../src/data/recording/reader.ts';
import type { TradingEngine } from '../../src/engine/trading-engine.ts';
import { sandboxRig, until, type SandboxRig } from './run-helpers.ts';
import { followerLog } from './strategies/market-follower.ts';

/**
 * New markets at runtime in recordings and backtests (issue 13 point 6, "the same scenarios in a
 * backtest of a recording"): a recorder runs beside a filter-selected live run against the
 * sandbox; a market created mid-run is picked up by both. The live strategy buys on the new
 * market (one token: the other buy is denied as a self-cross); the recorder writes a `market`
 * event for it, then its books. A backtest of that
 * recording (text, and converted to the binary form) adds the market when the event replays:
 * the strategy hears MarketAdded with the new tokens already its own, buys on the new market,
 * and ends with the same positions and PnL on it as the live run. The books stand still (no
 * synthetic flow), so the live run and the backtest see the same asks.
 */

const FOLLOWER = fileURLToPath(new URL('./strategies/market-follower.ts', import.meta.url));
/** A throwaway key used nowhere else: 0x + 64 hex, inside the secp256k1 range. */
const TEST_PRIVATE_KEY = '0x' + '5e'.repeat(32);

let rig: SandboxRig;

beforeAll(async () => {
  rig = await sandboxRig({ seed: 43, markets: 4, events: 4, flow: { enabled: false } }, 'clobot-new-markets-bt-');
});

afterAll(async () => {
  await rig?.close();
});

function writeConfig(mode: 'live' | 'backtest', tag: string): string {
  const path = join(rig.dir, `${tag}.yaml`);
  writeFileSync(
    path,
    [
      `mode: ${mode}`,
      ...(mode === 'live' ? ['venue:', `  baseUrl: ${rig.sandbox.url}`, 'account: { signatureType: 0 }'] : ['backtest: { balance: 10000 }']),
      'data:',
      '  transport: poll',
      '  pollIntervalMs: 200',
      '  marketRefreshMs: 1000',
      '  markets:',
      '    filter: { active: true, acceptingOrders: true, maxCount: 50 }',
      'strategies:',
      '  - id: follow',
      `    module: ${FOLLOWER}`,
      `    params: { tag: ${tag}, takeNew: true }`,
      'risk:',
      `  haltFile: ${join(rig.dir, 'HALT')}`,
      'logging:',
      '  level: silent',
      '',
    ].join('\n'),
  );
  return path;
}

/** The positions and PnL of a run on some tokens (cash apart: a live run's is the venue's). */
function outcome(engine: TradingEngine, tokenIds: readonly string[]) {
  const totals = engine.portfolio.totals(() => undefined);
  return { positions: tokenIds.map((id) => engine.portfolio.position(id)), realizedPnl: totals.realizedPnl, fees: totals.fees };
}

describe('a market created mid-run, recorded and replayed', () => {
  it('reaches the recording as a market event, and a backtest of it hears MarketAdded, trades the market and ends as the live run did', async () => {
    const logger = createLogger({ level: 'silent' });
    const liveTag = 'new-markets-bt-live';
    const config = loadConfig(writeConfig('live', liveTag), { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY });
    const recordingPath = join(rig.dir, 'run.jsonl');
    const recorder = await startRecorder({ config, out: recordingPath, logger, flushIntervalMs: 200 });
    let conditionId = '';
    let newTokens: string[] = [];
    let live: ReturnType<typeof outcome> | undefined;
    let liveFills: number[] = [];
    try {
      await until('the recorder to write a book', () => recorder.stats().byType.book > 0);
      const session = await startRunSession({ config, logger });
      const log = followerLog(liveTag);
      const startTokens = session.tokens.map((t) => t.tokenId);
      try {
        await until('books of the first markets', () => startTokens.every((t) => (log.books.get(t)?.length ?? 0) > 0));
        const created = await rig.admin('/admin/markets/create', { question: 'Will the recording know this market?' });
        conditionId = created['conditionId'] as string;
        newTokens = (created['tokens'] as { tokenId: string }[]).map((t) => t.tokenId);
        await until('a live fill on the new market', () => newTokens.some((t) => (log.fills.get(t) ?? 0) > 0), 20_000);
        await until('the recorder to add the market and write its books', () => recorder.stats().byType.marketAdded === 1 && recorder.stats().tokens === startTokens.length + 2, 10_000);
        // a few more polls of the new market's books into the recording
        await new Promise((r) => setTimeout(r, 1_000));
      } finally {
        await session.stop();
      }
      live = outcome(session.engine, newTokens);
      liveFills = newTokens.map((t) => followerLog(liveTag).fills.get(t) ?? 0);
    } finally {
      await recorder.stop();
    }
    expect(live.positions.some((p) => p.size > 0)).toBe(true);

    // the recording: the header holds the first markets only; the market event comes before
    // any event of the new tokens, and carries the market as a header entry would
    const rec = await openRecording(recordingPath);
    expect(rec.header.markets.some((m) => m.conditionId === conditionId)).toBe(false);
    const events = [];
    for await (const e of rec.events()) events.push(e);
    const at = events.findIndex((e) => e.type === 'marketAdded');
    const added = events[at];
    if (added?.type !== 'marketAdded') throw new Error('no market event in the recording');
    expect(added.market).toMatchObject({ conditionId, tokens: newTokens.map((tokenId) => ({ tokenId })) });
    const firstBook = events.findIndex((e) => e.type === 'book' && newTokens.includes(e.book.tokenId));
    expect(firstBook).toBeGreaterThan(at);

    // the backtest of the recording, from the text form and from the binary form
    const binaryPath = join(rig.dir, 'run.clbr');
    await convertRecording(recordingPath, binaryPath, 'binary');
    for (const [form, path] of [
      ['text', recordingPath],
      ['binary', binaryPath],
    ] as const) {
      const tag = `new-markets-bt-${form}`;
      const btConfig = loadConfig(writeConfig('backtest', tag), {});
      let engine: TradingEngine | undefined;
      const result = await runBacktest({ config: btConfig, data: await openBacktestData(path), onStopped: (e) => (engine = e) });
      const log = followerLog(tag);
      const heard = log.lifecycle.filter((l) => l.event.type === 'MarketAdded');
      expect(heard).toHaveLength(1);
      expect(heard[0]!.event).toMatchObject({ type: 'MarketAdded', conditionId, tokenIds: newTokens, tsInit: added.tsInit });
      // the strategy already trades the new tokens when it hears of them
      expect(heard[0]!.tokenIds).toEqual([...rec.header.markets.flatMap((m) => m.tokens.map((t) => t.tokenId)), ...newTokens]);
      expect(newTokens.map((t) => log.fills.get(t) ?? 0)).toEqual(liveFills);
      expect(result.fills.filter((f) => newTokens.includes(f.tokenId))).toHaveLength(liveFills.reduce((a, b) => a + b, 0));
      expect(result.summary.data).toMatchObject({ markets: rec.header.markets.length + 1, tokens: 2 * (rec.header.markets.length + 1) });
      expect(outcome(engine!, newTokens)).toEqual(live);
    }
  }, 90_000);
});
