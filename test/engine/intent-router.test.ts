import { describe, expect, it } from 'vitest';
import { MarketCache, type TrackedToken } from '../../src/data/market-cache.ts';
import { FillBook } from '../../src/engine/fill-book.ts';
import { IntentRouter } from '../../src/engine/intent-router.ts';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { OrderSubmitter } from '../../src/engine/order-submitter.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import { RiskSnapshot } from '../../src/engine/risk-snapshot.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { RiskEngine } from '../../src/risk/risk-engine.ts';
import type { CheckName } from '../../src/risk/types.ts';
import type { BasketEvent } from '../../src/core/basket-events.ts';
import { book, COND, deskOn, M, T0, YES } from './parts.ts';

const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token: TrackedToken = { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules };

function routerOn(checks?: readonly CheckName[], event?: { negRiskMarketId: string; maxNegRiskEventExposure: number }) {
  const world = deskOn();
  const cache = new MarketCache();
  cache.track(event === undefined ? token : { ...token, negRiskMarketId: event.negRiskMarketId });
  cache.apply(book(T0, [[450_000, 100 * M]], [[550_000, 100 * M]]));
  const portfolio = new Portfolio(10_000 * M);
  const risk = new RiskEngine({ checks, limits: { maxOrderNotional: 100 * M, maxNegRiskEventExposure: event?.maxNegRiskEventExposure } });
  const canceller = new OrderCanceller(world.desk);
  const reconciler = new Reconciler(world.desk, canceller, 'feedf00d');
  const submitter = new OrderSubmitter(world.desk, canceller, reconciler);
  const state = { halt: undefined as string | undefined };
  const baskets: { strategyId: string; event: BasketEvent }[] = [];
  const snapshot = new RiskSnapshot({
    cache,
    portfolio,
    tracker: world.desk.tracker,
    ratesChecked: false,
    heartbeat: () => 'idle',
    haltReason: () => state.halt,
    consecutiveRejects: () => 0,
    reconciling: reconciler.markets,
  });
  const router = new IntentRouter({
    desk: world.desk,
    cache,
    risk,
    snapshot,
    canceller,
    submitter,
    fills: new FillBook(world.desk, portfolio),
    runId: 'feedf00d',
    hosts: () => true,
    held: (tokenId) => portfolio.size(tokenId) ?? 0,
    cash: () => portfolio.balance(),
    running: () => true,
    basket: (strategyId, event) => baskets.push({ strategyId, event }),
  });
  canceller.start();
  submitter.start();
  return { ...world, router, risk, state, reconciler, baskets };
}

describe('IntentRouter (virtual time, simulated edge)', () => {
  it('turns places into requests with fresh client ids, checks them, tracks and posts what passes', () => {
    const r = routerOn();
    r.router.handle('s1', [
      { kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M },
      { kind: 'place', tokenId: YES, side: 'BUY', price: 405_000, size: 10 * M }, // off the tick
      { kind: 'place', tokenId: YES, side: 'BUY', price: 390_000, size: 500 * M }, // notional 195 > 100
    ]);
    const records = [...r.desk.tracker.all()];
    expect(records.map((x) => x.request.price)).toEqual([400_000]);
    expect(records[0]!.request).toMatchObject({ strategyId: 's1', conditionId: COND, orderType: 'GTC', clientOrderId: 'feedf00d' + '1'.padStart(24, '0'), createdAt: T0 });
    expect(r.events.map((e) => (e.type === 'OrderDenied' ? e.code : e.type))).toEqual(['PRICE_OFF_TICK', 'NOTIONAL_EXCEEDS_MAX']);
    r.clock.advanceBy(30);
    expect(r.venueOrders()).toHaveLength(1);
    expect(r.desk.counters.denied).toBe(2);
  });

  it('diffs a quote against resting orders: keeps the unchanged level, replaces the moved one', () => {
    const r = routerOn();
    r.router.handle('mm', [{ kind: 'quote', tokenId: YES, bids: [{ price: 440_000, size: 10 * M }, { price: 430_000, size: 10 * M }], asks: [] }]);
    r.clock.advanceBy(30);
    const before = r.venueOrders().map((o) => o.price).sort();
    expect(before).toEqual([430_000, 440_000]);
    r.router.handle('mm', [{ kind: 'quote', tokenId: YES, bids: [{ price: 440_000, size: 10 * M }, { price: 420_000, size: 10 * M }], asks: [] }]);
    r.clock.advanceBy(30);
    expect(r.venueOrders().map((o) => o.price).sort()).toEqual([420_000, 440_000]);
    expect(r.desk.counters).toMatchObject({ submitted: 3, canceled: 1 });
    const placed = [...r.desk.tracker.all()].map((x) => x.request);
    expect(placed.every((q) => q.postOnly === true && q.tag === 'quote')).toBe(true);
  });

  it("cancels only the strategy's own orders, one by id or all of a market", () => {
    const r = routerOn();
    r.router.handle('a', [{ kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M }, { kind: 'place', tokenId: YES, side: 'BUY', price: 390_000, size: 10 * M }]);
    r.router.handle('b', [{ kind: 'place', tokenId: YES, side: 'BUY', price: 380_000, size: 10 * M }]);
    r.clock.advanceBy(30);
    const [a1, , b1] = [...r.desk.tracker.all()];
    r.router.handle('b', [{ kind: 'cancel', clientOrderId: a1!.request.clientOrderId }]); // not b's: ignored
    r.router.handle('a', [{ kind: 'cancel', clientOrderId: a1!.request.clientOrderId }]);
    r.clock.advanceBy(30);
    expect(r.venueOrders()).toHaveLength(2);
    r.router.handle('a', [{ kind: 'cancelAll', conditionId: COND }]);
    r.clock.advanceBy(30);
    expect(r.venueOrders().map((o) => o.orderId)).toEqual([b1!.orderId]);
  });

  it('with risk.checks not listing killSwitch, a halt is still denied TRADING_HALTED and a reconciling market RECONCILING', () => {
    const r = routerOn(['tickGrid']);
    const place = () => r.router.handle('s1', [{ kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M }]);
    const denied = () => r.events.flatMap((e) => (e.type === 'OrderDenied' ? [e.code] : []));
    r.state.halt = 'drill';
    place();
    expect(denied()).toEqual(['TRADING_HALTED']);
    r.state.halt = undefined;
    // an order of the market whose post had an unknown outcome: the market is under reconciliation
    const unknown = r.desk.tracker.add({ kind: 'place', tokenId: YES, side: 'BUY', price: 300_000, size: 10 * M, orderType: 'GTC', strategyId: 's1', clientOrderId: 'x', conditionId: COND, createdAt: T0 }, T0);
    r.desk.tracker.setOrderId(unknown, '0xunknown', T0);
    r.reconciler.markUnknown([unknown], 'timed out');
    place();
    expect(denied()).toEqual(['TRADING_HALTED', 'RECONCILING']);
    expect(r.risk.counts()).toMatchObject({ TRADING_HALTED: 1, RECONCILING: 1 });
    r.clock.advanceBy(600); // the lookup finds nothing: rejected, the market reopens
    place();
    expect(denied()).toHaveLength(2);
    r.clock.advanceBy(30);
    expect(r.venueOrders()).toHaveLength(1);
  });

  it('denies a basket over the event cap with ONE coded denial for the whole basket, and sends no leg', () => {
    const r = routerOn(undefined, { negRiskMarketId: '0xevent', maxNegRiskEventExposure: 60 * M });
    const leg = { tokenId: YES, side: 'BUY' as const, price: 400_000, size: 100 * M }; // 40 each: under the cap alone
    r.router.handle('arb', [{ kind: 'basket', legs: [leg, leg], orderType: 'FOK', onPartial: 'unwind', maxUnwindLoss: M, ref: 'set-7' }]);
    expect(r.events).toHaveLength(1);
    const denial = r.events[0]!;
    expect(denial).toMatchObject({ type: 'OrderDenied', code: 'BASKET_EVENT_CAP', ref: 'set-7' });
    expect(denial.type === 'OrderDenied' && denial.reason).toMatch(/neg-risk event 0xevent exposure 80 with every leg filled exceeds max 60/);
    expect([...r.desk.tracker.all()]).toEqual([]);
    r.clock.advanceBy(100);
    expect(r.venueOrders()).toEqual([]);
    expect(r.desk.counters.denied).toBe(1);
    expect(r.risk.counts()).toMatchObject({ BASKET_EVENT_CAP: 1 });
    expect(r.baskets).toEqual([]);
    // within the cap: both legs go out, tracked, as FOK orders of the basket
    r.router.handle('arb', [{ kind: 'basket', legs: [{ ...leg, size: 50 * M }, { ...leg, size: 50 * M }], orderType: 'FOK', onPartial: 'hold', maxUnwindLoss: 0 }]);
    const legs = [...r.desk.tracker.all()].map((x) => x.request);
    expect(legs.map((q) => [q.orderType, q.tag])).toEqual([
      ['FOK', 'basket'],
      ['FOK', 'basket'],
    ]);
  });
});
