import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { renderReport } from '../../src/backtest/report.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import type { OrderEvent } from '../../src/core/events.ts';
import type { TradingEngine } from '../../src/engine/trading-engine.ts';
import type { LiveExecutionClient } from '../../src/execution/live-execution-client.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { buildStatusReport } from '../../src/store/store-status.ts';
import { parseMicros } from '../../src/core/fixed.ts';
import { REPO_ROOT, TEST_PRIVATE_KEY, waitFor, type AdminOrder } from '../engine/e2e/harness.ts';
import { addressOf } from '../venue/trading/helpers.ts';
import { recordedLiveRun } from './run-helpers.ts';
import { heardLifecycle } from './strategies/take-then-quote.ts';

/**
 * Issue 13, point 4, end to end: a live run against the sandbox buys in a market that then
 * resolves mid-run. The run learns it from the venue's market status, cancels its resting bid,
 * quotes the market no more (a new bid is denied MARKET_CLOSED, none reaches the venue), settles
 * the position at 1 into cash and realized PnL, tells the strategy, and stores the settlement
 * (`clobot status` lists it, with the venue's cash: the payout counted once). A recorder running beside it writes the close and the resolution,
 * and a backtest of that recording ends with the same positions and PnL (cash: the configured
 * balance moved by the same purchase and payout), as does a backtest of the run's store.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const M = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'clobot-resolution-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a run ended with in the resolved market (cash apart: a live run's starts from the venue's). */
function outcome(engine: TradingEngine, tokenIds: readonly string[]) {
  const totals = engine.portfolio.totals(() => undefined);
  return {
    positions: tokenIds.map((id) => engine.portfolio.position(id)),
    realizedPnl: totals.realizedPnl,
    fees: totals.fees,
    settlements: engine.settlements().map((s) => ({ conditionId: s.conditionId, winnerTokenId: s.winnerTokenId, tokens: s.tokens, proceeds: s.proceeds, realizedPnl: s.realizedPnl })),
  };
}

describe('e2e: a market resolving mid-run', () => {
  it('settles the position at 1, stops quoting the market, and a backtest of the recording (or of the store) ends the same', async () => {
    // no synthetic flow: the books stand still, so the live run and the backtest fill alike
    const sandbox = await startSandbox({ port: 0, seed: 1, markets: 20, events: 6, flow: { enabled: false } });
    const logger = createLogger({ level: 'silent' });
    try {
      const tag = 'live';
      const data = { transport: 'poll', pollIntervalMs: 200, staleAfterMs: 5000, marketStatusMs: 250, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } };
      const { config, session, recorder, recordingPath } = await recordedLiveRun(sandbox.url, dir, [{ id: 'tq', module: STRATEGY, params: { tag, size: 10 } }], data, logger);
      const engine = session.engine;
      const orderEvents: OrderEvent[] = [];
      engine.bus.subscribe((e) => {
        if (e.type === 'order') orderEvents.push(e.event);
      });
      const market = session.markets[0]!;
      const tokenIds = market.tokens.map((t) => t.tokenId);
      const yes = tokenIds[0]!;

      // bought 10 and a bid resting below the book
      await waitFor('the position and the resting bid', () => engine.portfolio.position(yes).size === 10 * M && engine.tracker.open().some((r) => r.status === 'LIVE'), 30_000);
      const cashBefore = engine.portfolio.balance();
      // the backtests below fill the buy after their own latency from the book it took: with the user
      // channel the run hears its fill within milliseconds, and a resolution sent at once could reach
      // the store's journal before the backtest's fill of it lands (settling nothing). A second of
      // market first, as any real market trades between a buy and its resolution.
      await new Promise((r) => setTimeout(r, 1_000));

      const resolved = await fetch(`${sandbox.url}/admin/markets/resolve`, { method: 'POST', body: JSON.stringify({ conditionId: market.conditionId, winner: yes }), headers: { 'content-type': 'application/json' } });
      expect(resolved.status).toBe(200);
      await waitFor('the settlement', () => engine.settlements().length === 1, 20_000);
      // the strategy heard the close, then the resolution
      const heard = heardLifecycle(tag);
      expect(heard.map((e) => e.type)).toEqual(['MarketClosed', 'MarketResolved']);
      expect(heard[1]).toMatchObject({ conditionId: market.conditionId, winnerTokenId: yes });
      // settled at 1: flat, and the cash took the payout of the 10 shares
      expect(engine.portfolio.position(yes).size).toBe(0);
      expect(engine.portfolio.balance()).toBe(cashBefore + 10 * M);
      const live = outcome(engine, tokenIds);
      expect(live.settlements[0]).toMatchObject({ conditionId: market.conditionId, winnerTokenId: yes, proceeds: 10 * M });
      // quoting stops: the bid it tried once the market closed was denied MARKET_CLOSED, nothing
      // reached the venue once the engine knew, nothing of ours rests
      expect(engine.summary().ordersDenied['MARKET_CLOSED']).toBe(1);
      await waitFor('our bid cancelled', () => engine.tracker.open().length === 0, 10_000);
      // the venue cancelled our bid at the resolution and said so on the user channel (on by default),
      // mostly before the status poll told the run: the run looked at the market at once and took it
      // as the close's cancel (or, when the poll came first, as the cancel it sent), never as an
      // unexplained venue cancel
      expect((session.execution as LiveExecutionClient).counters.userChannel!.orderUpdates).toBeGreaterThan(0);
      const reasons = orderEvents.filter((e) => e.type === 'OrderCanceled').map((e) => (e as { reason: string }).reason);
      expect(reasons).toHaveLength(1);
      expect(['market closed', 'cancelled']).toContain(reasons[0]);
      const closedSeenAt = heard[0]!.tsInit;
      const venueOrders = (await (await fetch(`${sandbox.url}/admin/orders`)).json()) as AdminOrder[];
      expect(venueOrders.filter((o) => o.receivedAt > closedSeenAt)).toEqual([]);
      expect(venueOrders.filter((o) => o.status === 'LIVE')).toEqual([]);

      await session.stop();
      // the recorder beside the run reads the market's status by its own poll, which may come after the run heard of it
      await waitFor('the recorder to write the resolution', () => recorder.stats().byType.marketResolved === 1, 10_000);
      const recorded = await recorder.stop();
      expect(recorded.byType).toMatchObject({ marketClosed: 1, marketResolved: 1 });
      const events = readRecordingSync(recordingPath).events;
      expect(events.filter((e) => e.type === 'marketResolved')).toMatchObject([{ conditionId: market.conditionId, winnerTokenId: yes }]);

      // clobot status of the run's store: the position closed, the market listed as settled, the
      // venue's cash (the payout counted once: issue 28)
      const atVenue = (await (await fetch(`${sandbox.url}/admin/balances?address=${addressOf(TEST_PRIVATE_KEY)}`)).json()) as { collateral: string };
      const reader = StoreReader.open(join(dir, 'run.sqlite'));
      try {
        const status = buildStatusReport(reader.snapshot());
        expect(status.settled).toMatchObject([{ conditionId: market.conditionId, winner: yes, proceeds: '10', tokens: [{ tokenId: yes, size: '10', payout: '1' }] }]);
        expect(status.positions.filter((p) => p.size !== '0')).toEqual([]);
        expect(parseMicros(status.account.cash), 'clobot status cash against the venue\'s').toBe(parseMicros(atVenue.collateral));
        expect(parseMicros(status.account.cash)).toBe(engine.portfolio.balance());
      } finally {
        reader.close();
      }

      // the same strategy over the recording: the same position bought, settled the same way
      const btPath = join(dir, 'backtest.yaml');
      const { venue: _venue, account: _account, ...rest } = config;
      writeFileSync(btPath, stringify({ ...rest, mode: 'backtest', strategies: [{ id: 'tq', module: STRATEGY, params: { tag: 'backtest', size: 10 } }], backtest: { balance: 10_000, latencyMs: 50 } }));
      const btConfig = loadConfig(btPath, {}, { cwd: dir });
      let btEngine: TradingEngine | undefined;
      const result = await runBacktest({ config: btConfig, data: await openBacktestData(recordingPath), onStopped: (e) => (btEngine = e) });
      // summary.json and the report list the settled market
      expect(result.summary.settled).toMatchObject([{ conditionId: market.conditionId, winner: yes, proceeds: '10' }]);
      expect(renderReport(result)).toContain('<h2>Settled markets</h2>');
      const backtest = outcome(btEngine!, tokenIds);
      expect(heardLifecycle('backtest').map((e) => e.type)).toEqual(['MarketClosed', 'MarketResolved']);
      expect(backtest).toEqual(live);
      // the backtest's cash: the configured balance, less the purchase and its fee, plus the payout
      // and over the run's own store (its journalled market events): the same again
      let storeEngine: TradingEngine | undefined;
      await runBacktest({ config: btConfig, data: await openBacktestData(join(dir, 'run.sqlite')), onStopped: (e) => (storeEngine = e) });
      expect(outcome(storeEngine!, tokenIds)).toEqual(live);
      const costBasis = 10 * M - live.settlements[0]!.tokens[0]!.realizedPnl;
      expect(btEngine!.portfolio.balance()).toBe(10_000 * M - costBasis - backtest.fees + 10 * M);
    } finally {
      logger.flush();
      await sandbox.close();
    }
  }, 120_000);
});
