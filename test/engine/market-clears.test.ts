import { describe, expect, it } from 'vitest';
import type { FillEvent, LifecycleEvent, OrderEvent } from '../../src/core/events.ts';
import { FeeRate } from '../../src/core/money.ts';
import { TradingEngine, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { bookWorld, COND, M, SETTINGS, silent, YES } from './parts.ts';

/**
 * The engine's parts for the venue's market changes (docs/fees-and-sports.md) on the paper and
 * backtest edge in virtual time: a game start's clear takes our resting orders as cancelled by the
 * venue (no cancel sent), tells MarketCleared, denies MARKET_CLEARED until a book with orders
 * comes back; a fee-rate change replaces the rules' rate, tells FeeRateChanged, and the next taker
 * fill pays the new rate.
 */

const NO = '222';

const world = bookWorld;

/** On the first book: buys 10 at the ask and rests a bid at 0.40; `bid()` and `take()` place more on demand. */
function trader(heard: LifecycleEvent[], orderEvents: OrderEvent[], fills: FillEvent[]) {
  let step = 0;
  let want: 'bid' | 'take' | undefined;
  const strategy: EngineStrategy = {
    id: 't',
    params: {},
    tokenIds: [YES],
    definition: defineStrategy({
      name: 't',
      timerIntervalMs: 100,
      onBook({ market }) {
        step++;
        if (step === 1 && market.bestAsk !== undefined) {
          return [
            { kind: 'place', tokenId: YES, side: 'BUY', price: market.bestAsk, size: 10 * M, orderType: 'FAK' },
            { kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 5 * M },
          ];
        }
        return undefined;
      },
      onTimer() {
        const w = want;
        want = undefined;
        if (w === 'bid') return { kind: 'place', tokenId: YES, side: 'BUY', price: 410_000, size: 5 * M };
        if (w === 'take') return { kind: 'place', tokenId: YES, side: 'BUY', price: 550_000, size: 10 * M, orderType: 'FAK' };
        return undefined;
      },
      onOrderEvent({ event }) {
        orderEvents.push(event);
      },
      onFill({ fill }) {
        fills.push(fill);
      },
      onLifecycle({ event }) {
        heard.push(event);
      },
    }),
  };
  return { strategy, ask: (what: 'bid' | 'take') => (want = what) };
}

function engineOf(w: ReturnType<typeof world>, strategies: EngineStrategy[]): TradingEngine {
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
  });
}

describe('a game start clearing the book, in the engine', () => {
  it('takes our resting orders as cancelled by the venue, tells MarketCleared, denies MARKET_CLEARED until the book has orders again', () => {
    const w = world();
    const heard: LifecycleEvent[] = [];
    const orderEvents: OrderEvent[] = [];
    const t = trader(heard, orderEvents, []);
    const engine = engineOf(w, [t.strategy]);
    engine.start();
    w.publish();
    w.clock.advanceBy(200);
    expect(engine.portfolio.position(YES).size).toBe(10 * M);
    const [bid] = engine.tracker.open();
    expect(bid?.status).toBe('LIVE');

    const at = w.clock.now();
    w.emit({ type: 'marketCleared', conditionId: COND, tokenIds: [YES, NO], tsEvent: at - 500, tsInit: at });
    expect(engine.tracker.open()).toEqual([]);
    expect(bid!.status).toBe('CANCELED');
    expect(orderEvents.filter((e) => e.type === 'OrderCanceled')).toMatchObject([{ clientOrderId: bid!.request.clientOrderId, reason: 'game start' }]);
    expect(heard).toEqual([{ type: 'MarketCleared', conditionId: COND, tokenIds: [YES, NO], reason: 'gameStart', tsInit: at }]);
    // the simulated venue dropped it too: nothing of ours rests there
    expect(w.edge.book(YES)).toBeDefined();
    // the venue's empty book: still held
    w.publish(false);
    t.ask('bid');
    w.clock.advanceBy(200);
    expect(orderEvents.filter((e) => e.type === 'OrderDenied')).toMatchObject([{ code: 'MARKET_CLEARED' }]);
    // a clear seen again is not news
    w.emit({ type: 'marketCleared', conditionId: COND, tokenIds: [YES, NO], tsEvent: at - 500, tsInit: w.clock.now() });
    expect(heard).toHaveLength(1);
    // the book is back: orders go out again
    w.publish();
    t.ask('bid');
    w.clock.advanceBy(200);
    expect(orderEvents.filter((e) => e.type === 'OrderDenied')).toHaveLength(1);
    expect(engine.tracker.open()).toHaveLength(1);
  });
});

describe('a fee-rate change, in the engine', () => {
  it('replaces the rules\' rate, tells FeeRateChanged once, and the next taker fill pays the new rate', () => {
    const w = world(100);
    const heard: LifecycleEvent[] = [];
    const fills: FillEvent[] = [];
    const t = trader(heard, [], fills);
    const engine = engineOf(w, [t.strategy]);
    engine.start();
    w.publish();
    w.clock.advanceBy(200);
    expect(fills).toHaveLength(1);
    expect(fills[0]!.fee).toBe(FeeRate.of(100).fee(550_000, 10 * M));

    const at = w.clock.now();
    w.emit({ type: 'feeRate', tokenId: YES, takerBps: 250, makerBps: 0, tsEvent: at, tsInit: at });
    w.emit({ type: 'feeRate', tokenId: YES, takerBps: 250, makerBps: 0, tsEvent: at, tsInit: at }); // the same rate again: nothing
    expect(heard).toEqual([{ type: 'FeeRateChanged', tokenId: YES, previousTakerBps: 100, takerBps: 250, makerBps: 0, tsInit: at }]);
    expect(engine.cache.get(YES)!.rules.takerBaseFeeBps).toBe(250);
    t.ask('take');
    w.clock.advanceBy(200);
    expect(fills).toHaveLength(2);
    expect(fills[1]!.fee).toBe(FeeRate.of(250).fee(550_000, 10 * M));
    expect(engine.portfolio.totals(() => undefined).fees).toBe(fills[0]!.fee + fills[1]!.fee);
  });
});
