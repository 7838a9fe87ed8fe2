import { describe, expect, it } from 'vitest';
import { throwError } from 'rxjs';
import { FillBook } from '../../src/engine/fill-book.ts';
import type { VenueFill } from '../../src/execution/execution-client.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import type { TradeStatus } from '../../src/venue/domain/statuses.ts';
import { deskOn, edgeWith, M, request, T0, YES } from './parts.ts';

function bookOn() {
  const world = deskOn();
  const portfolio = new Portfolio(1_000 * M);
  const fills = new FillBook(world.desk, portfolio);
  const record = world.desk.tracker.add(request({ price: 400_000, size: 10 * M }), T0);
  world.desk.tracker.setOrderId(record, '0xorder', T0);
  world.desk.tracker.transition(record, 'LIVE', T0);
  const fill = (tradeId: string, size: number, status: TradeStatus, orderId = '0xorder'): VenueFill => ({
    tradeId,
    orderId,
    tokenId: YES,
    side: 'BUY',
    price: 400_000,
    size,
    fee: 0,
    liquidity: 'MAKER',
    status,
    tsEvent: T0,
    tsInit: T0,
  });
  return { ...world, portfolio, book: fills, record, fill };
}

describe('FillBook', () => {
  it('books a trade once: on the order, in the portfolio, to the strategy; a later CONFIRMED only marks it', () => {
    const w = bookOn();
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MATCHED'));
    expect(w.record).toMatchObject({ filled: 4 * M, status: 'PARTIALLY_FILLED' });
    expect(w.portfolio.position(YES).size).toBe(4 * M);
    expect(w.fills).toEqual([expect.objectContaining({ type: 'OrderFilled', tradeId: 't1', size: 4 * M, confirmed: false })]);
    expect(Object.isFrozen(w.fills[0])).toBe(true);
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MINED'));
    w.book.onVenueFill(w.fill('t1', 4 * M, 'CONFIRMED'));
    expect(w.portfolio.position(YES).size).toBe(4 * M);
    expect(w.desk.counters.fills).toBe(1);
    w.book.onVenueFill(w.fill('t2', 6 * M, 'CONFIRMED'));
    expect(w.record).toMatchObject({ filled: 10 * M, status: 'FILLED' });
    expect(w.fills.map((f) => f.confirmed)).toEqual([false, true]);
  });

  it('never books a FAILED trade, nor a fill of an order it does not track', () => {
    const w = bookOn();
    w.book.onVenueFill(w.fill('t1', 4 * M, 'FAILED'));
    w.book.onVenueFill(w.fill('t2', 4 * M, 'CONFIRMED', '0xsomeone-else'));
    expect(w.fills).toEqual([]);
    expect(w.portfolio.position(YES).size).toBe(0);
  });

  it('a restored fill is not booked again; a forgotten order books afresh', () => {
    const w = bookOn();
    const first = w.fill('t1', 4 * M, 'CONFIRMED');
    w.book.restore([{ type: 'OrderFilled', clientOrderId: w.record.request.clientOrderId, orderId: first.orderId, tradeId: 't1', tokenId: YES, side: 'BUY', price: 400_000, size: 4 * M, fee: 0, liquidity: 'MAKER', confirmed: true, tsEvent: T0, tsInit: T0 }]);
    expect(w.portfolio.position(YES).size).toBe(4 * M);
    w.book.onVenueFill(first);
    expect(w.fills).toEqual([]);
    w.book.forget('0xorder');
    w.book.onVenueFill(first);
    expect(w.fills).toHaveLength(1);
  });

  it('asks the edge for a last look at its fills when it has one, and survives its failure', () => {
    const w = bookOn();
    let done = 0;
    w.book.flush$().subscribe({ complete: () => done++ });
    expect(done).toBe(1); // the simulated edge has none: nothing to wait for
    let asked = 0;
    const failing = deskOn({ wrap: (base) => edgeWith(base, { flushFills: () => (asked++, throwError(() => new Error('poll failed'))) }) });
    const results: unknown[] = [];
    new FillBook(failing.desk, new Portfolio(0)).flush$().subscribe({ next: (v) => results.push(v), error: () => results.push('error') });
    expect(asked).toBe(1);
    expect(results).toEqual([undefined]);
  });
});
