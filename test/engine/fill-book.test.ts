import { describe, expect, it } from 'vitest';
import { throwError } from 'rxjs';
import { FillBook } from '../../src/engine/fill-book.ts';
import type { VenueFill } from '../../src/execution/execution-client.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import type { TradeStatus } from '../../src/venue/domain/statuses.ts';
import type { FillEvent, LifecycleEvent } from '../../src/core/events.ts';
import type { EnginePersistence } from '../../src/engine/ports.ts';
import { deskOn, edgeWith, M, request, T0, YES } from './parts.ts';

function bookOn(persistence?: EnginePersistence) {
  const world = deskOn({ persistence });
  const portfolio = new Portfolio(1_000 * M);
  const told: LifecycleEvent[] = [];
  const fills = new FillBook(world.desk, portfolio, (event) => told.push(event));
  const record = world.desk.tracker.add(request({ price: 400_000, size: 10 * M }), T0);
  world.desk.tracker.setOrderId(record, '0xorder', T0);
  world.desk.tracker.transition(record, 'LIVE', T0);
  const fill = (tradeId: string, size: number, status: TradeStatus, orderId = '0xorder', more: Partial<VenueFill> = {}): VenueFill => ({
    tradeId,
    orderId,
    tokenId: YES,
    side: 'BUY',
    price: 400_000,
    size,
    fee: 0,
    ...more,
    liquidity: 'MAKER',
    status,
    tsEvent: T0,
    tsInit: T0,
  });
  return { ...world, portfolio, book: fills, record, fill, told };
}

describe('FillBook', () => {
  it('a fill of an order whose post had no answer accepts it first: counted once, OrderAccepted before OrderFilled', () => {
    const w = bookOn();
    w.desk.tracker.transition(w.record, 'SUBMIT_UNKNOWN', T0, 'post timed out');
    const accepted = w.desk.counters.accepted;
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MATCHED'));
    expect(w.desk.counters.accepted).toBe(accepted + 1);
    expect(w.record.status).toBe('PARTIALLY_FILLED');
    expect(w.events.map((e) => e.type)).toEqual(['OrderAccepted']);
    expect(w.fills.map((f) => f.tradeId)).toEqual(['t1']);
    // a second fill of the same order is not another acceptance
    w.book.onVenueFill(w.fill('t2', 6 * M, 'MATCHED'));
    expect(w.desk.counters.accepted).toBe(accepted + 1);
    expect(w.record.status).toBe('FILLED');
  });

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
    expect(w.book.settlement).toEqual({ confirmed: 0, provisional: 0, failed: 1 });
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

  it('tells the strategy each later settlement status, and counts fills by their final state', () => {
    const w = bookOn();
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MATCHED'));
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MINED'));
    w.book.onVenueFill(w.fill('t1', 4 * M, 'MINED'));
    w.book.onVenueFill(w.fill('t1', 4 * M, 'CONFIRMED'));
    w.book.onVenueFill(w.fill('t1', 4 * M, 'FAILED')); // final already: ignored
    expect(w.told.map((e) => (e.type === 'SettlementChanged' ? `${e.tradeId} ${e.status}` : e.type))).toEqual(['t1 MINED', 't1 CONFIRMED']);
    w.book.onVenueFill(w.fill('t2', 2 * M, 'MATCHED'));
    expect(w.book.settlement).toEqual({ confirmed: 1, provisional: 1, failed: 0 });
  });

  it('keeps provisional and confirmed inventory apart; risk sees the larger position', () => {
    const w = bookOn();
    w.book.onVenueFill(w.fill('t1', 4 * M, 'CONFIRMED'));
    w.book.onVenueFill(w.fill('t2', 3 * M, 'MATCHED'));
    expect(w.portfolio.size(YES)).toBe(7 * M);
    expect(w.book.confirmedSize(YES)).toBe(4 * M);
    expect(w.book.riskSize(YES)).toBe(7 * M);
    w.book.onVenueFill(w.fill('t3', 5 * M, 'MATCHED', '0xorder', { side: 'SELL' }));
    expect(w.book.confirmedSize(YES)).toBe(4 * M);
    expect(w.portfolio.size(YES)).toBe(2 * M);
    expect(w.book.riskSize(YES)).toBe(4 * M);
    w.book.onVenueFill(w.fill('t2', 3 * M, 'CONFIRMED'));
    w.book.onVenueFill(w.fill('t3', 5 * M, 'CONFIRMED', '0xorder', { side: 'SELL' }));
    expect(w.book.confirmedSize(YES)).toBe(2 * M);
  });

  it('voids a FAILED fill: position, cash, fees and PnL as if it never filled, the store and the strategy told', () => {
    const voided: FillEvent[] = [];
    // the store's side of the port (a real store is in the end-to-end test)
    const store = { voidFill: (f: FillEvent) => voided.push(f), fill: () => undefined, journal: () => undefined, orderCreated: () => undefined, orderChanged: () => undefined } as unknown as EnginePersistence;
    const w = bookOn(store);
    const bookWithStore = w.book;
    // a reference portfolio that only ever saw the fills that stand
    const reference = new Portfolio(1_000 * M);
    const buy1 = w.fill('t1', 4 * M, 'CONFIRMED', '0xorder', { price: 300_000, fee: 1_000 });
    const buy2 = w.fill('t2', 6 * M, 'MATCHED', '0xorder', { price: 500_000, fee: 2_000 });
    const sell = w.fill('t3', 5 * M, 'CONFIRMED', '0xorder', { side: 'SELL', price: 600_000, fee: 500 });
    for (const f of [buy1, buy2, sell]) bookWithStore.onVenueFill(f);
    for (const f of [buy1, sell]) reference.applyFill(f);
    bookWithStore.onVenueFill({ ...buy2, status: 'RETRYING' });
    bookWithStore.onVenueFill({ ...buy2, status: 'FAILED' });
    const mark = () => 550_000;
    expect(w.portfolio.position(YES)).toEqual(reference.position(YES));
    expect(w.portfolio.totals(mark)).toEqual(reference.totals(mark));
    expect(voided.map((f) => f.tradeId)).toEqual(['t2']);
    expect(w.told.map((e) => (e.type === 'SettlementChanged' ? e.status : ''))).toEqual(['RETRYING', 'FAILED']);
    expect(bookWithStore.settlement).toEqual({ confirmed: 2, provisional: 0, failed: 1 });
    expect(bookWithStore.confirmedSize(YES)).toBe(reference.size(YES));
    // the order keeps what the venue matched
    expect(w.record.filled).toBe(10 * M);
  });

  it('voids a restored provisional fill when its trade is polled FAILED after a restart', () => {
    const w = bookOn();
    const stored: FillEvent = { type: 'OrderFilled', clientOrderId: w.record.request.clientOrderId, orderId: '0xorder', tradeId: 't1', tokenId: YES, side: 'BUY', price: 400_000, size: 4 * M, fee: 0, liquidity: 'MAKER', confirmed: false, tsEvent: T0, tsInit: T0 };
    w.book.restore([stored]);
    expect(w.portfolio.position(YES).size).toBe(4 * M);
    w.book.onVenueFill(w.fill('t1', 4 * M, 'FAILED'));
    expect(w.portfolio.position(YES).size).toBe(0);
    expect(w.portfolio.totals(() => undefined).cash).toBe(1_000 * M);
  });

  it('a sale out of a buy that fails leaves the position below zero by exactly what was sold, as at the venue', () => {
    const w = bookOn();
    w.book.onVenueFill(w.fill('b1', 5 * M, 'MATCHED'));
    w.book.onVenueFill(w.fill('s1', 530_000, 'CONFIRMED', '0xorder', { side: 'SELL', price: 303_000 }));
    w.book.onVenueFill(w.fill('s2', 4_470_000, 'CONFIRMED', '0xorder', { side: 'SELL', price: 303_000 }));
    w.book.onVenueFill(w.fill('b1', 5 * M, 'FAILED'));
    expect(w.portfolio.position(YES).size).toBe(-5 * M);
    // and the store's replay of the fills that stand gives the same
    const replay = new Portfolio(0);
    replay.applyFill({ tokenId: YES, side: 'SELL', price: 303_000, size: 530_000, fee: 0 });
    replay.applyFill({ tokenId: YES, side: 'SELL', price: 303_000, size: 4_470_000, fee: 0 });
    expect(replay.position(YES)).toEqual(w.portfolio.position(YES));
  });
});
