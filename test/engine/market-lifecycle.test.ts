import { describe, expect, it } from 'vitest';
import type { LifecycleEvent, OrderEvent } from '../../src/core/events.ts';
import { payoutOf } from '../../src/engine/market-lifecycle.ts';
import { TradingEngine, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { restoreFromStore, storePersistence } from '../../src/store/store-persistence.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { buildStatusReport } from '../../src/store/store-status.ts';
import { tempDir } from '../store/helpers.ts';
import { bookWorld, COND, M, SETTINGS, silent, YES } from './parts.ts';

/**
 * The engine's market lifecycle part (src/engine/market-lifecycle.ts) on the paper/backtest edge
 * in virtual time: a close cancels our resting orders and new intents are denied MARKET_CLOSED;
 * a resolution settles the position at 1 or 0 into cash and realized PnL; strategies hear both;
 * the store keeps the settlement, so a restart and `clobot status` see it closed, and a
 * resolution seen again settles nothing twice.
 */

const NO = '222';

const world = bookWorld;

/** Buys 10 YES at the ask once, rests a bid at 0.40, and tries a new bid on every book after the close. */
function buyer(heard: LifecycleEvent[], orderEvents: OrderEvent[]): EngineStrategy {
  let step = 0;
  return {
    id: 'buyer',
    params: {},
    tokenIds: [YES],
    definition: defineStrategy({
      name: 'buyer',
      onBook({ market }) {
        step++;
        if (step === 1 && market.bestAsk !== undefined) {
          return [
            { kind: 'place', tokenId: YES, side: 'BUY', price: market.bestAsk, size: 10 * M, orderType: 'FAK' },
            { kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 5 * M },
          ];
        }
        if (heard.some((e) => e.type === 'MarketClosed')) return { kind: 'place', tokenId: YES, side: 'BUY', price: 410_000, size: 5 * M };
        return undefined;
      },
      onOrderEvent({ event }) {
        orderEvents.push(event);
      },
      onLifecycle({ event }) {
        heard.push(event);
      },
    }),
  };
}

function engineOf(w: ReturnType<typeof world>, strategies: EngineStrategy[], extra: Partial<ConstructorParameters<typeof TradingEngine>[0]> = {}): TradingEngine {
  return new TradingEngine({
    clock: w.clock,
    execution: w.edge,
    marketEvents$: w.events,
    tokens: w.tokens,
    strategies,
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 60_000 } },
    settings: SETTINGS,
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log: silent,
    ...extra,
  });
}

describe('market lifecycle in the engine', () => {
  it('pays 1 to the winner, 0 to the other, 0.5 each without a winner', () => {
    expect(payoutOf(YES, YES)).toBe(M);
    expect(payoutOf(NO, YES)).toBe(0);
    expect(payoutOf(YES, undefined)).toBe(M / 2);
  });

  it('settles a position exactly: realized PnL and cash take payout x size less cost', () => {
    const p = new Portfolio(100 * M);
    p.applyFill({ tokenId: YES, side: 'BUY', price: 333_333, size: 3 * M, fee: 0 });
    p.applyFill({ tokenId: YES, side: 'BUY', price: 500_000, size: 1 * M, fee: 0 });
    p.applyFill({ tokenId: NO, side: 'BUY', price: 600_000, size: 2 * M, fee: 0 });
    const won = p.settle(YES, M);
    expect(won).toEqual({ tokenId: YES, size: 4 * M, payout: M, proceeds: 4 * M, realizedPnl: 4 * M - 999_999 - 500_000 });
    const lost = p.settle(NO, 0);
    expect(lost).toEqual({ tokenId: NO, size: 2 * M, payout: 0, proceeds: 0, realizedPnl: -1_200_000 });
    expect(p.position(YES).size).toBe(0);
    expect(p.size(NO)).toBe(0);
    const totals = p.totals(() => undefined);
    expect(totals.realizedPnl).toBe(4 * M - 999_999 - 500_000 - 1_200_000);
    expect(totals.fills).toBe(3);
    // cash: 100 - 0.999999 - 0.5 - 1.2 + 4
    expect(p.balance()).toBe(100 * M - 999_999 - 500_000 - 1_200_000 + 4 * M);
    // settling again changes nothing
    expect(p.settle(YES, M).size).toBe(0);
  });

  it('cancels resting orders at the close, denies new ones MARKET_CLOSED, settles at the resolution and tells the strategy', () => {
    const w = world();
    const heard: LifecycleEvent[] = [];
    const orderEvents: OrderEvent[] = [];
    const engine = engineOf(w, [buyer(heard, orderEvents)]);
    engine.start();
    w.publish();
    w.clock.advanceBy(200);
    expect(engine.portfolio.position(YES).size).toBe(10 * M);
    expect(engine.tracker.open()).toHaveLength(1); // the resting bid

    const closedAt = w.clock.now();
    w.emit({ type: 'marketClosed', conditionId: COND, tokenIds: [YES, NO], tsEvent: closedAt, tsInit: closedAt });
    w.clock.advanceBy(200);
    expect(engine.tracker.open()).toEqual([]);
    expect(orderEvents.filter((e) => e.type === 'OrderCanceled')).toHaveLength(1);
    expect(heard).toEqual([{ type: 'MarketClosed', conditionId: COND, tokenIds: [YES, NO], tsInit: closedAt }]);
    // a close seen again is not news
    w.emit({ type: 'marketClosed', conditionId: COND, tokenIds: [YES, NO], tsEvent: closedAt, tsInit: w.clock.now() });
    expect(heard).toHaveLength(1);

    w.publish();
    w.clock.advanceBy(200);
    const denied = orderEvents.filter((e) => e.type === 'OrderDenied');
    expect(denied.map((e) => e.type === 'OrderDenied' && e.code)).toEqual(['MARKET_CLOSED']);
    expect(engine.summary().ordersSubmitted).toBe(2);

    const resolvedAt = w.clock.now();
    w.emit({ type: 'marketResolved', conditionId: COND, tokenIds: [YES, NO], winnerTokenId: YES, tsEvent: resolvedAt, tsInit: resolvedAt });
    expect(engine.portfolio.position(YES).size).toBe(0);
    const totals = engine.portfolio.totals(() => undefined);
    expect(totals.realizedPnl).toBe(4_500_000); // bought at 0.55, paid 1
    expect(engine.portfolio.balance()).toBe(10_000 * M - 5_500_000 + 10 * M);
    expect(heard.at(-1)).toEqual({ type: 'MarketResolved', conditionId: COND, tokenIds: [YES, NO], winnerTokenId: YES, tsInit: resolvedAt });
    expect(engine.settlements()).toEqual([
      {
        conditionId: COND,
        winnerTokenId: YES,
        tokens: [
          { tokenId: YES, size: 10 * M, payout: M, proceeds: 10 * M, realizedPnl: 4_500_000 },
          { tokenId: NO, size: 0, payout: 0, proceeds: 0, realizedPnl: 0 },
        ],
        proceeds: 10 * M,
        realizedPnl: 4_500_000,
        at: resolvedAt,
      },
    ]);
  });

  it('a resolution without a close first closes too; a loser settles at 0', () => {
    const w = world();
    const heard: LifecycleEvent[] = [];
    const engine = engineOf(w, [buyer(heard, [])]);
    engine.start();
    w.publish();
    w.clock.advanceBy(200);
    const at = w.clock.now();
    w.emit({ type: 'marketResolved', conditionId: COND, tokenIds: [YES, NO], winnerTokenId: NO, tsEvent: at, tsInit: at });
    expect(heard.map((e) => e.type)).toEqual(['MarketClosed', 'MarketResolved']);
    expect(engine.portfolio.totals(() => undefined).realizedPnl).toBe(-5_500_000);
    expect(engine.portfolio.balance()).toBe(10_000 * M - 5_500_000);
    w.clock.advanceBy(200);
    expect(engine.tracker.open()).toEqual([]);
  });

  it('stores the settlement: a restart keeps the position closed and settles nothing twice; the status lists it', () => {
    const tmp = tempDir();
    const file = tmp.path('resolve.sqlite');
    const store = RunStore.open(file, { create: true, runName: 'resolve' });
    const w = world();
    const engine = engineOf(w, [buyer([], [])], { runId: store.runId, persistence: storePersistence(store) });
    engine.start();
    w.publish();
    w.clock.advanceBy(200);
    const at = w.clock.now();
    w.emit({ type: 'marketResolved', conditionId: COND, tokenIds: [YES, NO], winnerTokenId: YES, tsEvent: at, tsInit: at });
    const balance = engine.portfolio.balance();
    store.close();

    const again = RunStore.open(file, { create: false });
    const restore = restoreFromStore(again);
    expect(restore.settlements).toHaveLength(1);
    const w2 = world();
    const heard: LifecycleEvent[] = [];
    const restarted = engineOf(w2, [buyer(heard, [])], { runId: again.runId, persistence: storePersistence(again), restore });
    expect(restarted.portfolio.position(YES).size).toBe(0);
    expect(restarted.portfolio.balance()).toBe(balance);
    restarted.start();
    // the status poll of the new life sees the resolved market at once
    const now = w2.clock.now();
    w2.emit({ type: 'marketResolved', conditionId: COND, tokenIds: [YES, NO], winnerTokenId: YES, tsEvent: now, tsInit: now });
    expect(restarted.portfolio.balance()).toBe(balance);
    expect(heard).toEqual([]);
    again.close();

    const reader = StoreReader.open(file);
    try {
      const report = buildStatusReport(reader.snapshot());
      expect(report.positions.find((p) => p.tokenId === YES)?.size ?? '0').toBe('0');
      expect(report.account.realized).toBe('4.5');
      expect(report.settled).toEqual([{ conditionId: COND, winner: YES, at: new Date(at).toISOString(), proceeds: '10', realizedPnl: '4.5', tokens: [{ tokenId: YES, size: '10', payout: '1' }] }]);
      expect(Object.keys(report.cursors).some((k) => k.startsWith('settlement:'))).toBe(false);
    } finally {
      reader.close();
    }
  });
});
