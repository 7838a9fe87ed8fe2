import { describe, expect, it } from 'vitest';
import { MarketCache, type TrackedToken } from '../../src/data/market-cache.ts';
import type { HeartbeatHealth } from '../../src/execution/heartbeat.ts';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { RiskSnapshot } from '../../src/engine/risk-snapshot.ts';
import { RiskEngine } from '../../src/risk/risk-engine.ts';
import { book, COND, M, request, T0, YES } from './parts.ts';

const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token = (tokenId: string): TrackedToken => ({ tokenId, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules });

function snapshotOn(ratesChecked = true) {
  const cache = new MarketCache();
  for (const id of [YES, '2', '3']) cache.track(token(id));
  const portfolio = new Portfolio(1_000 * M);
  const tracker = new OrderTracker();
  const state = { heartbeat: 'healthy' as HeartbeatHealth, halt: undefined as string | undefined, rejects: 0 };
  const reconciling = new Map<string, number>();
  const snapshot = new RiskSnapshot({
    cache,
    portfolio,
    tracker,
    ratesChecked,
    heartbeat: () => state.heartbeat,
    haltReason: () => state.halt,
    consecutiveRejects: () => state.rejects,
    reconciling,
  });
  return { cache, portfolio, tracker, state, reconciling, snapshot };
}

describe('RiskSnapshot', () => {
  it('builds market views lazily from the cache, with the book top and its age', () => {
    const s = snapshotOn();
    s.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]]));
    const risk = s.snapshot.take(T0 + 100);
    expect(risk.markets.get(YES)).toMatchObject({ tokenId: YES, bestBid: 450_000, bestAsk: 470_000, mid: 460_000, tickSize: 10_000, bookTsInit: T0 });
    expect(risk.markets.get('2')).toMatchObject({ bestBid: undefined, bookTsInit: undefined });
    expect(risk.markets.get('nope')).toBeUndefined();
    expect([...risk.markets.keys()].sort()).toEqual(['111', '2', '3']);
  });

  it('lists open orders (a cancel pending rests nothing) and positions', () => {
    const s = snapshotOn();
    const a = s.tracker.add(request({ size: 10 * M }), T0);
    const b = s.tracker.add(request({ size: 7 * M }), T0);
    s.tracker.setOrderId(b, '0xb', T0);
    s.tracker.transition(b, 'CANCEL_PENDING', T0);
    s.portfolio.applyFill({ tokenId: YES, side: 'BUY', price: 400_000, size: 5 * M, fee: 0 });
    const risk = s.snapshot.take(T0);
    expect(risk.openOrders.map((o) => [o.clientOrderId, o.remaining])).toEqual([
      [a.request.clientOrderId, 10 * M],
      [b.request.clientOrderId, 0],
    ]);
    expect(risk.positions.get(YES)).toBe(5 * M);
  });

  it('keeps the order times of the last second, only when the order-rate check reads them', () => {
    const s = snapshotOn();
    s.snapshot.noteOrder(T0);
    s.snapshot.noteOrder(T0 + 500);
    expect(s.snapshot.take(T0 + 900).recentOrderTimes).toEqual([T0, T0 + 500]);
    expect(s.snapshot.take(T0 + 1_000).recentOrderTimes).toEqual([T0 + 500]);
    const unchecked = snapshotOn(false);
    unchecked.snapshot.noteOrder(T0);
    expect(unchecked.snapshot.take(T0).recentOrderTimes).toEqual([]);
  });

  it('carries the gate inputs: heartbeat, halt and its reason, rejects, markets reconciling', () => {
    const s = snapshotOn();
    expect(s.snapshot.take(T0)).toMatchObject({ heartbeat: 'healthy', manualHalt: false, haltReason: undefined, consecutiveRejects: 0 });
    s.state.heartbeat = 'lost';
    s.state.halt = 'drill';
    s.state.rejects = 3;
    s.reconciling.set(COND, 1);
    const risk = s.snapshot.take(T0);
    expect(risk).toMatchObject({ heartbeat: 'lost', manualHalt: true, haltReason: 'drill', consecutiveRejects: 3 });
    expect(risk.reconciling.has(COND)).toBe(true);
  });

  it("computes the day's PnL only when read, from the first look of each UTC day", () => {
    const s = snapshotOn();
    s.cache.apply(book(T0, [[400_000, 10 * M]], [[400_000, 10 * M]]));
    s.portfolio.applyFill({ tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M, fee: 0 });
    expect(s.snapshot.take(T0).dailyPnl).toBe(0); // the day starts here
    s.cache.apply(book(T0 + 1, [[500_000, 10 * M]], [[500_000, 10 * M]]));
    expect(s.snapshot.take(T0 + 1).dailyPnl).toBe(1 * M);
    expect(s.snapshot.mark(YES)).toBe(500_000);
    const nextDay = (Math.floor(T0 / 86_400_000) + 1) * 86_400_000;
    expect(s.snapshot.take(nextDay).dailyPnl).toBe(0);
  });

  it('copies the open orders only for a batch whose checks read them, and counts the batch\'s own accepted orders then', () => {
    const s = snapshotOn(false);
    s.cache.apply(book(T0, [[450_000, 10 * M]], [[470_000, 10 * M]]));
    s.tracker.add(request({ size: 10 * M }), T0);
    let listed = 0;
    const open = s.tracker.open.bind(s.tracker);
    s.tracker.open = (...args) => {
      listed++;
      return open(...args);
    };
    // the default checks of a taker batch read no open orders: none copied
    const taker = new RiskEngine({ checks: ['tickGrid', 'priceBounds', 'minSize'], limits: {} });
    const batch = [request(), request(), request()];
    expect(taker.checkBatch(batch, s.snapshot.take(T0))).toEqual([undefined, undefined, undefined]);
    expect(listed).toBe(0);
    // a check that reads them: the open order, then each accepted one of the batch
    const capped = new RiskEngine({ checks: ['tickGrid', 'maxOpenOrders'], limits: { maxOpenOrders: 3 } });
    expect(capped.checkBatch(batch, s.snapshot.take(T0)).map((d) => d?.code)).toEqual([undefined, undefined, 'MAX_OPEN_ORDERS']);
    expect(listed).toBe(1);
  });
});
