import { describe, expect, it } from 'vitest';
import { FillBook } from '../../src/engine/fill-book.ts';
import type { VenueFill } from '../../src/execution/execution-client.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { StrategyLedger } from '../../src/portfolio/strategy-ledger.ts';
import type { TradeStatus } from '../../src/venue/domain/statuses.ts';
import { deskOn, M, request, T0, YES } from './parts.ts';

/** A fill book over a desk with one live order of strategy `a` (ref `bid-a`) and one of `b`. */
function twoStrategies() {
  const world = deskOn();
  const portfolio = new Portfolio(1_000 * M);
  const ledger = new StrategyLedger();
  const book = new FillBook(world.desk, portfolio, () => {}, ledger);
  const live = (strategyId: string, orderId: string, price: number, ref?: string) => {
    const record = world.desk.tracker.add(request({ strategyId, price, size: 10 * M, ref, group: ref === undefined ? undefined : 'bids' }), T0);
    world.desk.tracker.setOrderId(record, orderId, T0);
    world.desk.tracker.transition(record, 'LIVE', T0);
    return record;
  };
  const a = live('a', '0xa', 400_000, 'bid-a');
  const b = live('b', '0xb', 600_000);
  const fill = (tradeId: string, orderId: string, price: number, size: number, status: TradeStatus): VenueFill => ({
    tradeId,
    orderId,
    tokenId: YES,
    side: 'BUY',
    price,
    size,
    fee: 0,
    liquidity: 'MAKER',
    status,
    tsEvent: T0,
    tsInit: T0,
  });
  return { ...world, portfolio, ledger, book, a, b, fill };
}

describe('FillBook and the strategy ledger', () => {
  it("books each fill for its order's strategy, with the order's ref and group on the event", () => {
    const w = twoStrategies();
    w.book.onVenueFill(w.fill('t1', '0xa', 400_000, 4 * M, 'CONFIRMED'));
    w.book.onVenueFill(w.fill('t2', '0xb', 600_000, 6 * M, 'CONFIRMED'));
    expect(w.ledger.position('a', YES)).toMatchObject({ size: 4 * M, avgPrice: 400_000 });
    expect(w.ledger.position('b', YES)).toMatchObject({ size: 6 * M, avgPrice: 600_000 });
    expect(w.portfolio.position(YES).size).toBe(10 * M);
    expect(w.fills.map((f) => [f.clientOrderId, f.ref, f.group])).toEqual([
      [w.a.request.clientOrderId, 'bid-a', 'bids'],
      [w.b.request.clientOrderId, undefined, undefined],
    ]);
  });

  it("a FAILED fill is taken back from its strategy only, the others' fills in the window kept", () => {
    const w = twoStrategies();
    w.book.onVenueFill(w.fill('t1', '0xa', 400_000, 4 * M, 'MATCHED'));
    w.book.onVenueFill(w.fill('t2', '0xb', 600_000, 6 * M, 'MATCHED'));
    w.book.onVenueFill(w.fill('t3', '0xa', 400_000, 2 * M, 'MATCHED'));
    w.book.onVenueFill(w.fill('t1', '0xa', 400_000, 4 * M, 'FAILED'));
    w.book.onVenueFill(w.fill('t2', '0xb', 600_000, 6 * M, 'CONFIRMED'));
    expect(w.ledger.position('a', YES)).toMatchObject({ size: 2 * M, avgPrice: 400_000 });
    expect(w.ledger.position('b', YES)).toMatchObject({ size: 6 * M, avgPrice: 600_000 });
    expect(w.portfolio.position(YES).size).toBe(8 * M);
    const figures = w.ledger.figures(w.portfolio, () => 500_000);
    expect(figures.map((f) => [f.strategyId, f.fills, f.turnover])).toEqual([
      ['a', 1, 800_000],
      ['b', 1, 3_600_000],
    ]);
  });

  it('a restored fill goes to the strategy of its restored order', () => {
    const w = twoStrategies();
    w.book.restore([
      { type: 'OrderFilled', clientOrderId: w.b.request.clientOrderId, orderId: '0xb', tradeId: 'old', tokenId: YES, side: 'BUY', price: 600_000, size: 3 * M, fee: 0, liquidity: 'MAKER', confirmed: true, tsEvent: T0, tsInit: T0 },
    ]);
    expect(w.ledger.position('b', YES).size).toBe(3 * M);
    expect(w.ledger.position('a', YES).size).toBe(0);
  });
});
