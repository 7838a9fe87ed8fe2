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
import { book, COND, deskOn, M, T0, YES } from './parts.ts';

const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token: TrackedToken = { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules };

function routerOn(checks?: readonly CheckName[]) {
  const world = deskOn();
  const cache = new MarketCache();
  cache.track(token);
  cache.apply(book(T0, [[450_000, 100 * M]], [[550_000, 100 * M]]));
  const portfolio = new Portfolio(10_000 * M);
  const risk = new RiskEngine({ checks, limits: { maxOrderNotional: 100 * M } });
  const canceller = new OrderCanceller(world.desk);
  const reconciler = new Reconciler(world.desk, canceller, 'feedf00d');
  const submitter = new OrderSubmitter(world.desk, canceller, reconciler);
  const state = { halt: undefined as string | undefined };
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
  });
  canceller.start();
  submitter.start();
  return { ...world, router, risk, state, reconciler };
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
});
