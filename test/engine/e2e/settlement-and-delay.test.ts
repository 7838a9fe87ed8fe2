import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRecorder } from '../../../src/app/recorder.ts';
import { runBacktest } from '../../../src/app/run-backtest.ts';
import { startRunSession } from '../../../src/app/run-session.ts';
import { openBacktestData } from '../../../src/backtest/data-file.ts';
import { loadConfig } from '../../../src/config/load-config.ts';
import type { FillEvent, LifecycleEvent } from '../../../src/core/events.ts';
import { notional } from '../../../src/core/money.ts';
import { createLogger } from '../../../src/core/log.ts';
import type { EngineEvent } from '../../../src/engine/ports.ts';
import type { TradingEngine } from '../../../src/engine/trading-engine.ts';
import type { FaultSettings } from '../../../src/sandbox/faults.ts';
import { startSandbox } from '../../../src/sandbox/server.ts';
import { StoreReader } from '../../../src/store/store-reader.ts';
import { buildStatusReport } from '../../../src/store/store-status.ts';
import { heardLifecycle } from '../../app/strategies/take-then-quote.ts';
import { baseConfig, REPO_ROOT, TEST_PRIVATE_KEY, waitFor, type AdminOrder } from './harness.ts';

/**
 * Issue 13, points 2 and 3, end to end against the sandbox: a live run takes the ask once (FAK)
 * and rests a deep bid (test/app/strategies/take-then-quote.ts).
 * - Its trade fails on chain (settlementFailRate 1): the fill is void in the engine (position,
 *   cash, fees, PnL as before it), in the store (moved to voided_fills) and in `clobot status`,
 *   the strategy hears RETRYING then FAILED, the summary counts one failed fill.
 * - The market has a matching delay: the FAK is answered DELAYED, tracked, matched when the delay
 *   is over, and the venue received it once.
 * A recorder beside each run writes the books, and a backtest of the recording with the same
 * settlement or delay settings ends with the same positions and PnL.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const M = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'clobot-settlement-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a run ended with in its market (cash apart: a live run's starts from the venue's). */
function outcome(engine: TradingEngine, tokenIds: readonly string[]) {
  const totals = engine.portfolio.totals(() => undefined);
  return { positions: tokenIds.map((id) => engine.portfolio.position(id)), realizedPnl: totals.realizedPnl, fees: totals.fees, fills: totals.fills };
}

function settlements(events: readonly LifecycleEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'SettlementChanged' ? [e.status] : []));
}

/** A live run of the strategy against a sandbox with `faults`, recorded; then its backtest with `backtest` settings. */
async function liveThenBacktest(name: string, faults: Partial<FaultSettings>, backtest: Record<string, unknown>, scenario: (live: { engine: TradingEngine; yes: string; fills: () => FillEvent[]; sandboxUrl: string; store: string }) => Promise<void>) {
  // no synthetic flow: the books stand still, so the live run and the backtest fill alike
  const sandbox = await startSandbox({ port: 0, seed: 1, markets: 20, events: 6, flow: { enabled: false }, faults });
  const logger = createLogger({ level: 'silent' });
  try {
    const config = baseConfig(sandbox.url, dir, [{ id: 'tq', module: STRATEGY, params: { tag: `${name}-live`, size: 10 } }]);
    config['data'] = { transport: 'poll', pollIntervalMs: 200, staleAfterMs: 5000, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } };
    const store = join(dir, `${name}.sqlite`);
    config['store'] = { path: store };
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, stringify(config));
    const runConfig = loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }, { cwd: dir });
    const recordingPath = join(dir, `${name}.jsonl`);
    const recorder = await startRecorder({ config: runConfig, out: recordingPath, logger, flushIntervalMs: 200 });
    await waitFor('the recorder to write a book', () => recorder.stats().byType.book > 0, 20_000);
    const events: EngineEvent[] = [];
    const session = await startRunSession({ config: runConfig, logger, onEvent: (e) => events.push(e) });
    const engine = session.engine;
    const tokenIds = session.markets[0]!.tokens.map((t) => t.tokenId);
    const fills = (): FillEvent[] => events.flatMap((e) => (e.type === 'fill' ? [e.fill] : []));
    await scenario({ engine, yes: tokenIds[0]!, fills, sandboxUrl: sandbox.url, store });
    const live = outcome(engine, tokenIds);
    await session.stop();
    await recorder.stop();

    const btPath = join(dir, `${name}-backtest.yaml`);
    const { venue: _venue, account: _account, store: _store, ...rest } = config;
    writeFileSync(btPath, stringify({ ...rest, mode: 'backtest', strategies: [{ id: 'tq', module: STRATEGY, params: { tag: `${name}-backtest`, size: 10 } }], backtest: { balance: 10_000, latencyMs: 50, ...backtest } }));
    let btEngine: TradingEngine | undefined;
    await runBacktest({ config: loadConfig(btPath, {}, { cwd: dir }), data: await openBacktestData(recordingPath), onStopped: (e) => (btEngine = e) });
    return { live, backtest: outcome(btEngine!, tokenIds), btEngine: btEngine!, events, fills: fills() };
  } finally {
    logger.flush();
    await sandbox.close();
  }
}

describe('e2e: settlement states and delayed matching', () => {
  it('a trade that fails on chain leaves position, cash and PnL as if it never filled: engine, store, clobot status, backtest', async () => {
    const result = await liveThenBacktest(
      'fail',
      { settlementFailRate: 1, settlementMinedMs: 1_500, settlementConfirmedMs: 1_500 },
      { settlement: { failRate: 1, minedMs: 1_500, confirmedMs: 1_500 } },
      async ({ engine, yes, store, fills }) => {
        const bought = await waitFor('the provisional fill', () => (engine.portfolio.position(yes).size === 10 * M ? engine.portfolio.balance() : undefined), 30_000);
        expect(engine.summary().fillsBySettlement).toEqual({ confirmed: 0, provisional: 1, failed: 0 });
        await waitFor('the fill to fail on chain', () => engine.summary().fillsBySettlement.failed === 1, 30_000);
        expect(engine.portfolio.position(yes)).toEqual({ tokenId: yes, size: 0, avgPrice: 0, realizedPnl: 0 });
        const totals = engine.portfolio.totals(() => undefined);
        expect(totals).toMatchObject({ realizedPnl: 0, fees: 0, fills: 0, turnover: 0 });
        expect(settlements(heardLifecycle('fail-live'))).toEqual(['RETRYING', 'FAILED']);
        // the cash is back to what it was before the fill: it had paid the notional and the fee
        const [fill] = fills();
        expect(engine.portfolio.balance()).toBe(bought + notional(fill!.price, fill!.size) + fill!.fee);
        const reader = StoreReader.open(store);
        try {
          const status = buildStatusReport(reader.snapshot());
          expect(status.positions.filter((p) => p.size !== '0')).toEqual([]);
          expect(status.voidedFills).toHaveLength(1);
          expect(status.voidedFills[0]).toMatchObject({ tokenId: yes, side: 'BUY', size: '10' });
          expect(status.counts.fills).toBe(0);
        } finally {
          reader.close();
        }
      },
    );
    expect(result.fills).toHaveLength(1);
    expect(result.live.positions.every((p) => p.size === 0 && p.realizedPnl === 0)).toBe(true);
    // the backtest of the recording with the same settlement: the same positions and PnL
    expect(result.backtest).toEqual(result.live);
    expect(settlements(heardLifecycle('fail-backtest'))).toEqual(['RETRYING', 'FAILED']);
    expect(result.btEngine.portfolio.balance()).toBe(10_000 * M);
    expect(result.btEngine.summary().fillsBySettlement).toEqual({ confirmed: 0, provisional: 0, failed: 1 });
  }, 150_000);

  it('a delayed order is tracked through the delay, matched, and sent once; the backtest with the delay ends the same', async () => {
    const result = await liveThenBacktest('delay', { matchingDelayMs: 1_500 }, { matchingDelayMs: 1_500 }, async ({ engine, yes, sandboxUrl }) => {
      await waitFor('the delayed order to fill', () => engine.portfolio.position(yes).size === 10 * M, 30_000);
      const fak = [...engine.tracker.all()].find((r) => r.request.orderType === 'FAK')!;
      expect(fak.status).toBe('FILLED');
      expect(fak.history.some((h) => h.reason === 'delayed by the venue (matching delay)')).toBe(true);
      const venueOrders = (await (await fetch(`${sandboxUrl}/admin/orders`)).json()) as AdminOrder[];
      expect(venueOrders.filter((o) => o.hash === fak.orderId)).toHaveLength(1);
      expect(venueOrders.filter((o) => o.hash === fak.orderId)[0]).toMatchObject({ accepted: true, status: 'MATCHED', sizeMatched: '10' });
      await waitFor('the fill to confirm', () => engine.summary().fillsBySettlement.confirmed === 1, 30_000);
    });
    expect(result.live.positions[0]!.size).toBe(10 * M);
    expect(result.backtest).toEqual(result.live);
  }, 150_000);
});
