import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FillEvent } from '../../src/core/events.ts';
import { createLogger } from '../../src/core/log.ts';
import { FeeRate } from '../../src/core/money.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import type { TradingEngine } from '../../src/engine/trading-engine.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { REPO_ROOT, waitFor } from '../engine/e2e/harness.ts';
import { backtestEngine, recordedLiveRun } from './run-helpers.ts';
import { heardLifecycle } from './strategies/take-then-quote.ts';

/**
 * Issue 26 point 4, end to end: a live run buys at the ask (a taker order), then the venue
 * changes the market's fee rate (POST /admin/fee-rate). The run's fee-rate poll reads the new
 * `GET /fee-rate`, the engine tells the strategy (FeeRateChanged), its next taker order pays the
 * new rate, and the portfolio's fees are the two fees. A recorder beside it writes the change
 * (`fee`), and a backtest of that recording, and of the run's store, charges the same fees.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/fee-taker.ts');
const M = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'clobot-fee-rate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fillsOf(engine: TradingEngine): FillEvent[] {
  const fills: FillEvent[] = [];
  engine.bus.subscribe((e) => {
    if (e.type === 'fill') fills.push(e.fill);
  });
  return fills;
}

describe('e2e: a fee-rate change mid-run', () => {
  it('shows in the next taker order\'s fee and in the portfolio, live and in the backtest of the recording and of the store', async () => {
    // no synthetic flow: the books stand still, so the live run and the backtests fill alike
    const sandbox = await startSandbox({ port: 0, seed: 3, markets: 20, events: 6, flow: { enabled: false }, deterministicKeys: true });
    const logger = createLogger({ level: 'silent' });
    try {
      const data = { transport: 'poll', pollIntervalMs: 200, staleAfterMs: 5000, marketStatusMs: 250, feeRateRefreshMs: 1000, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } };
      const spec = (tag: string) => [{ id: 'ft', module: STRATEGY, params: { tag, size: 10 } }];
      const { config, session, recorder, recordingPath, storePath } = await recordedLiveRun(sandbox.url, dir, spec('live'), data, logger);
      const engine = session.engine;
      const fills = fillsOf(engine);
      const market = session.markets[0]!;
      const yes = market.tokens[0]!.tokenId;
      const before = market.takerBaseFeeBps;
      const after = before === 200 ? 75 : 200;
      // the venue serves the listed rate
      expect(await (await fetch(`${sandbox.url}/fee-rate?token_id=${yes}`)).json()).toEqual({ base_fee: before });

      await waitFor('the first taker fill', () => fills.length >= 1 && engine.portfolio.position(yes).size === 10 * M, 30_000);
      const changed = await fetch(`${sandbox.url}/admin/fee-rate`, { method: 'POST', body: JSON.stringify({ tokenId: yes, takerBps: after }), headers: { 'content-type': 'application/json' } });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toEqual({ conditionId: market.conditionId, previousTakerBps: before, takerBps: after, makerBps: market.makerBaseFeeBps });
      expect(await (await fetch(`${sandbox.url}/fee-rate?token_id=${yes}`)).json()).toEqual({ base_fee: after });

      await waitFor('the taker fill after the change', () => engine.portfolio.position(yes).size === 20 * M, 30_000);
      // both tokens of the market changed (the base fee is the market's); the strategy trades YES
      const heard = heardLifecycle('live').filter((e) => e.type === 'FeeRateChanged' && e.tokenId === yes);
      expect(heard).toMatchObject([{ type: 'FeeRateChanged', tokenId: yes, previousTakerBps: before, takerBps: after, makerBps: market.makerBaseFeeBps }]);
      // the strategies' rules and risk read the new rate
      expect(engine.cache.get(yes)!.rules.takerBaseFeeBps).toBe(after);
      const taker = fills.filter((f) => f.tokenId === yes && f.liquidity === 'TAKER');
      const feeAt = (bps: number, f: FillEvent) => FeeRate.of(bps).fee(f.price, f.size);
      const first = taker.filter((f) => f.tsInit < heard[0]!.tsInit);
      const second = taker.filter((f) => f.tsInit >= heard[0]!.tsInit);
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
      for (const f of first) expect(f.fee).toBe(feeAt(before, f));
      for (const f of second) expect(f.fee).toBe(feeAt(after, f));
      // the second purchase, the same size at the same ask, paid another fee (the rate moved)
      const sum = (list: readonly FillEvent[]) => list.reduce((s, f) => s + f.fee, 0);
      expect(sum(second)).not.toBe(sum(first));
      expect(engine.portfolio.totals(() => undefined).fees).toBe(sum(taker));
      const liveFees = engine.portfolio.totals(() => undefined).fees;

      await session.stop();
      const recorded = await recorder.stop();
      expect(recorded.byType.feeRate).toBeGreaterThanOrEqual(1);
      expect(readRecordingSync(recordingPath).events.filter((e) => e.type === 'feeRate' && e.tokenId === yes)).toMatchObject([{ takerBps: after }]);

      // the same strategy over the recording and over the store: the same purchases, the same fees
      for (const [tag, file] of [['recording', recordingPath], ['store', storePath]] as const) {
        const bt = await backtestEngine(config, dir, spec(tag), file);
        expect(bt.portfolio.position(yes).size).toBe(20 * M);
        expect(bt.portfolio.totals(() => undefined).fees).toBe(liveFees);
        expect(heardLifecycle(tag).filter((e) => e.type === 'FeeRateChanged' && e.tokenId === yes)).toMatchObject([{ previousTakerBps: before, takerBps: after }]);
      }
    } finally {
      logger.flush();
      await sandbox.close();
    }
  }, 120_000);
});
