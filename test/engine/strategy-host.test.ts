import { describe, expect, it } from 'vitest';
import { Subscription } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { StrategyError } from '../../src/core/errors.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { MarketCache, type TrackedToken } from '../../src/data/market-cache.ts';
import { StrategyHost } from '../../src/engine/strategy-host.ts';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { defineStrategy, type MarketSnapshot } from '../../src/strategy/api.ts';
import { book, COND, M, request, silent, T0, YES } from './parts.ts';

const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token: TrackedToken = { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules };

function hostOn() {
  const clock = new SimulatedClock(T0);
  const cache = new MarketCache();
  cache.track(token);
  const tracker = new OrderTracker();
  const portfolio = new Portfolio(100 * M);
  const intents: [string, readonly OrderIntent[]][] = [];
  const faults: [string, StrategyError][] = [];
  const host = new StrategyHost({ clock, log: silent, cache, tracker, portfolio, onIntents: (id, out) => intents.push([id, out]), onFault: (id, err) => faults.push([id, err]) });
  return { clock, cache, tracker, portfolio, host, intents, faults };
}

describe('StrategyHost (virtual time)', () => {
  it("hands a book change to the token's strategies as one frozen snapshot, and their intents out", () => {
    const h = hostOn();
    const seen: MarketSnapshot[] = [];
    const watcher = (id: string) =>
      defineStrategy({
        name: id,
        onBook({ market }) {
          seen.push(market);
          return { kind: 'cancelAll' };
        },
      });
    h.host.add({ id: 'a', definition: watcher('a'), params: {}, tokenIds: [YES] });
    h.host.add({ id: 'b', definition: watcher('b'), params: {}, tokenIds: [YES] });
    h.host.add({ id: 'elsewhere', definition: watcher('elsewhere'), params: {}, tokenIds: ['999'] });
    const subs = new Subscription();
    h.host.start(subs);
    h.clock.advanceBy(250);
    h.host.dispatch(h.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]])));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(seen[0]).toMatchObject({ tokenId: YES, bestBid: 450_000, bestAsk: 470_000, mid: 460_000, ageMs: 250 });
    expect(h.intents.map(([id]) => id)).toEqual(['a', 'b']);
    subs.unsubscribe();
  });

  it('runs strategy timers on the clock and stops them with the subscriptions', () => {
    const h = hostOn();
    const ticks: number[] = [];
    h.host.add({ id: 't', definition: defineStrategy({ name: 't', timerIntervalMs: 100, onTimer: ({ now }) => void ticks.push(now) }), params: {}, tokenIds: [YES] });
    const subs = new Subscription();
    h.host.start(subs);
    h.clock.advanceBy(350);
    expect(ticks).toEqual([T0 + 100, T0 + 200, T0 + 300]);
    subs.unsubscribe();
    h.clock.advanceBy(500);
    expect(ticks).toHaveLength(3);
  });

  it('faults a throwing strategy once, keeps the others, and reports states', () => {
    const h = hostOn();
    h.host.add({ id: 'bad', definition: defineStrategy({ name: 'bad', onBook: () => { throw new Error('boom'); } }), params: {}, tokenIds: [YES] });
    h.host.add({ id: 'good', definition: defineStrategy({ name: 'good', onBook: () => undefined }), params: {}, tokenIds: [YES] });
    h.host.start(new Subscription());
    h.host.dispatch(h.cache.apply(book(T0, [[450_000, 10 * M]], [])));
    h.host.dispatch(h.cache.apply(book(T0 + 1, [[440_000, 10 * M]], [])));
    expect(h.faults.map(([id, err]) => [id, err.message])).toEqual([['bad', expect.stringContaining('boom')]]);
    expect(h.host.states()).toEqual({ bad: 'FAULTED', good: 'RUNNING' });
    h.host.stop();
    expect(h.host.state('good')).toBe('STOPPED');
    expect(h.host.has('bad')).toBe(true);
    expect(h.host.has('nobody')).toBe(false);
  });

  it('delivers order events and fills to the owning strategy only; the context sees state and free balance', () => {
    const h = hostOn();
    const heard: string[] = [];
    let balance: number | undefined;
    const hearing = (id: string) =>
      defineStrategy({
        name: id,
        onOrderEvent: ({ event, ctx }) => {
          heard.push(`${id}:${event.type}`);
          balance = ctx.balance();
        },
        onFill: ({ fill }) => void heard.push(`${id}:fill:${fill.tradeId}`),
      });
    h.host.add({ id: 'a', definition: hearing('a'), params: {}, tokenIds: [YES] });
    h.host.add({ id: 'b', definition: hearing('b'), params: {}, tokenIds: [YES] });
    h.host.start(new Subscription());
    h.tracker.add(request({ strategyId: 'a', side: 'BUY', price: 400_000, size: 10 * M }), T0);
    h.host.orderEvent('a', { type: 'OrderAccepted', clientOrderId: 'c', orderId: 'o', tsInit: T0 });
    h.host.fill('b', { type: 'OrderFilled', clientOrderId: 'c', orderId: 'o', tradeId: 't1', tokenId: YES, side: 'BUY', price: 400_000, size: M, fee: 0, liquidity: 'MAKER', confirmed: true, tsEvent: T0, tsInit: T0 });
    expect(heard).toEqual(['a:OrderAccepted', 'b:fill:t1']);
    expect(balance).toBe(100 * M - 4 * M); // the open buy holds 10 x 0.40
  });

  it("keeps each run's state apart: init runs once per run, every hook gets that run's state", () => {
    const definition = defineStrategy({
      name: 'counter',
      init: () => ({ books: 0 }),
      onBook({ state }) {
        state.books += 1;
      },
      onStop({ ctx, state }) {
        stops.push(`${ctx.strategyId}:${state.books}`);
      },
    });
    const stops: string[] = [];
    const one = hostOn();
    const two = hostOn();
    one.host.add({ id: 'one', definition, params: {}, tokenIds: [YES] });
    two.host.add({ id: 'two', definition, params: {}, tokenIds: [YES] });
    const subs = new Subscription();
    one.host.start(subs);
    two.host.start(subs);
    one.host.dispatch(one.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]])));
    one.host.dispatch(one.cache.apply(book(T0 + 1, [[440_000, 10 * M]], [[470_000, 10 * M]])));
    two.host.dispatch(two.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]])));
    one.host.stop();
    two.host.stop();
    expect(stops).toEqual(['one:2', 'two:1']);
    subs.unsubscribe();
  });

  it('an init that throws faults the strategy before onStart', () => {
    const h = hostOn();
    let started = false;
    h.host.add({ id: 'bad', definition: defineStrategy({ name: 'bad', init: () => { throw new Error('no state'); }, onStart: () => void (started = true) }), params: {}, tokenIds: [YES] });
    h.host.start(new Subscription());
    expect(started).toBe(false);
    expect(h.host.state('bad')).toBe('FAULTED');
    expect(h.faults[0]?.[1].message).toBe("strategy 'bad' faulted in init: no state");
  });

  it('tells strategies of lifecycle events: a tick size change seen in the data, market events by token, settlement by owner', () => {
    const h = hostOn();
    const heard: string[] = [];
    const listener = (id: string) =>
      defineStrategy({ name: id, onLifecycle: ({ event }) => void heard.push(`${id}:${event.type}${event.type === 'TickSizeChanged' ? `:${event.previousTickSize}->${event.tickSize}` : ''}`) });
    h.host.add({ id: 'a', definition: listener('a'), params: {}, tokenIds: [YES] });
    h.host.add({ id: 'b', definition: listener('b'), params: {}, tokenIds: ['999'] });
    h.host.start(new Subscription());
    h.host.dispatch(h.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]])));
    h.host.dispatch(h.cache.apply({ type: 'tickSize', tokenId: YES, tickSize: 1_000, tsEvent: T0 + 1, tsInit: T0 + 1 }));
    expect(heard).toEqual(['a:TickSizeChanged:10000->1000']);
    h.host.lifecycle({ type: 'MarketClosed', conditionId: COND, tokenIds: [YES], tsInit: T0 + 2 });
    h.host.lifecycle({ type: 'MarketAdded', conditionId: '0xnew', tokenIds: ['555'], tsInit: T0 + 3 });
    h.tracker.add(request({ clientOrderId: 'cb', strategyId: 'b', tokenId: '999' }), T0);
    h.host.lifecycle({ type: 'SettlementChanged', clientOrderId: 'cb', tradeId: 't', tokenId: '999', status: 'FAILED', tsInit: T0 + 4 });
    expect(heard).toEqual(['a:TickSizeChanged:10000->1000', 'a:MarketClosed', 'a:MarketAdded', 'b:MarketAdded', 'b:SettlementChanged']);
  });
});
