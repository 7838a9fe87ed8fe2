import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../src/core/events.ts';
import { createLogger } from '../../src/core/log.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import type { TradingEngine } from '../../src/engine/trading-engine.ts';
import type { LiveExecutionClient } from '../../src/execution/live-execution-client.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { REPO_ROOT, waitFor, type AdminOrder } from '../engine/e2e/harness.ts';
import { backtestEngine, recordedLiveRun } from './run-helpers.ts';
import { heardLifecycle } from './strategies/take-then-quote.ts';

/**
 * Issue 26 point 5, end to end: a live run buys in a sports market (a marketable order the venue
 * holds for the market's 3 s delay) and rests a bid; the game starts (POST /admin/games/start):
 * the sandbox clears the book, cancelling every resting order, ours included. The run's status
 * poll reads the moved start, the engine takes our bid as cancelled by the venue (no cancel of
 * ours), tells the strategy (MarketCleared), and denies a new bid (MARKET_CLEARED) while the book
 * is empty. A recorder beside it writes the clear (`clear`), and a backtest of that recording, and
 * of the run's store, ends with the same fills and positions, its bid cleared the same way.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const M = 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'clobot-game-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function outcome(engine: TradingEngine, tokenIds: readonly string[]) {
  return {
    positions: tokenIds.map((id) => engine.portfolio.position(id)),
    fees: engine.portfolio.totals(() => undefined).fees,
    fills: engine.summary().fills,
    open: engine.tracker.open().length,
  };
}

describe('e2e: a sports market\'s game start', () => {
  it('clears our resting orders at the venue and in the engine, and the backtest of the recording (and of the store) ends the same', async () => {
    // no synthetic flow: the book stays empty after the clear, and the run and the backtests fill alike;
    // one game, its start far off until the admin route starts it
    const sandbox = await startSandbox({ port: 0, seed: 2, markets: 40, events: 12, flow: { enabled: false }, gameStarts: { markets: 1, withinMs: 3_600_000 } });
    const logger = createLogger({ level: 'silent' });
    try {
      const games = (await (await fetch(`${sandbox.url}/admin/games`)).json()) as { conditionId: string; gameStartTime: string; secondsDelay: number; started: boolean }[];
      expect(games).toHaveLength(1);
      expect(games[0]).toMatchObject({ secondsDelay: 3, started: false });
      const game = games[0]!;
      const data = { transport: 'poll', pollIntervalMs: 200, staleAfterMs: 5000, marketStatusMs: 250, gameStartGraceMs: 500, markets: { conditionIds: [game.conditionId] } };
      const spec = (tag: string) => [{ id: 'tq', module: STRATEGY, params: { tag, size: 10, depthTicks: 1 } }];
      const tag = 'live-game';
      const { config, session, recorder, recordingPath, storePath } = await recordedLiveRun(sandbox.url, dir, spec(tag), data, logger);
      const engine = session.engine;
      const orderEvents: OrderEvent[] = [];
      engine.bus.subscribe((e) => {
        if (e.type === 'order') orderEvents.push(e.event);
      });
      const market = session.markets[0]!;
      expect(market.gameStartTime).toBe(Date.parse(game.gameStartTime));
      const tokenIds = market.tokens.map((t) => t.tokenId);
      const yes = tokenIds[0]!;
      expect(engine.cache.get(yes)!.rules).toMatchObject({ gameStartTime: Date.parse(game.gameStartTime), secondsDelay: 3 });

      // bought 10 (after the 3 s delay) and a bid resting below the book
      await waitFor('the position and the resting bid', () => engine.portfolio.position(yes).size === 10 * M && engine.tracker.open().some((r) => r.status === 'LIVE'), 30_000);
      const bid = engine.tracker.open().find((r) => r.status === 'LIVE')!;

      const started = await fetch(`${sandbox.url}/admin/games/start`, { method: 'POST', body: JSON.stringify({ conditionId: game.conditionId }), headers: { 'content-type': 'application/json' } });
      expect(started.status).toBe(200);
      const step = (await started.json()) as { canceled: number; gameStartTime: number };
      expect(step.canceled).toBeGreaterThanOrEqual(2); // the seeded liquidity's orders and our bid
      // at the venue: nothing of anyone rests in the market
      const atVenue = (await (await fetch(`${sandbox.url}/admin/orders`)).json()) as AdminOrder[];
      expect(atVenue.filter((o) => o.conditionId === game.conditionId && o.status === 'LIVE')).toEqual([]);
      // a second start is refused
      expect((await fetch(`${sandbox.url}/admin/games/start`, { method: 'POST', body: JSON.stringify({ conditionId: game.conditionId }), headers: { 'content-type': 'application/json' } })).status).toBe(409);

      await waitFor('the engine to hear the clear', () => heardLifecycle(tag).some((e) => e.type === 'MarketCleared'), 20_000);
      const cleared = heardLifecycle(tag).find((e) => e.type === 'MarketCleared')!;
      expect(cleared).toMatchObject({ type: 'MarketCleared', conditionId: game.conditionId, reason: 'gameStart' });
      // the venue's cancel came on the user channel (on by default), before the run's own watch: taken as the clear
      expect((session.execution as LiveExecutionClient).counters.userChannel!.orderUpdates).toBeGreaterThan(0);
      // our bid: cancelled by the venue, not by us
      expect(engine.tracker.byClientId(bid.request.clientOrderId)!.status).toBe('CANCELED');
      expect(orderEvents.filter((e) => e.type === 'OrderCanceled')).toMatchObject([{ clientOrderId: bid.request.clientOrderId, reason: 'game start' }]);
      // the bid it tried again on hearing the clear was denied (the book is not back), and nothing
      // reached the venue after the clear
      await waitFor('the bid tried again to be denied', () => engine.summary().ordersDenied['MARKET_CLEARED'] === 1, 10_000);
      const after = (await (await fetch(`${sandbox.url}/admin/orders`)).json()) as AdminOrder[];
      expect(after.filter((o) => o.receivedAt >= step.gameStartTime)).toEqual([]);
      const live = outcome(engine, tokenIds);
      expect(live).toMatchObject({ open: 0, fills: expect.any(Number) as number });
      expect(live.positions[0]!.size).toBe(10 * M);

      // the recorder reads the clear on its own status poll: under load that can come after the run's
      await waitFor('the recorder to write the clear', () => recorder.stats().byType.marketCleared === 1, 20_000);
      await session.stop();
      const recorded = await recorder.stop();
      expect(recorded.byType.marketCleared).toBe(1);
      expect(readRecordingSync(recordingPath).events.filter((e) => e.type === 'marketCleared')).toMatchObject([{ conditionId: game.conditionId }]);

      for (const [btTag, file] of [['game-recording', recordingPath], ['game-store', storePath]] as const) {
        const bt = await backtestEngine(config, dir, spec(btTag), file);
        expect(outcome(bt, tokenIds), btTag).toEqual(live);
        expect(heardLifecycle(btTag).filter((e) => e.type === 'MarketCleared'), btTag).toMatchObject([{ conditionId: game.conditionId, reason: 'gameStart' }]);
      }
    } finally {
      logger.flush();
      await sandbox.close();
    }
  }, 120_000);
});
