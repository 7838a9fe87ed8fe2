import { describe, expect, it } from 'vitest';
import { throwError } from 'rxjs';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import type { VenueOrderState } from '../../src/execution/execution-client.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import type { VenueOrderStatus } from '../../src/venue/domain/statuses.ts';
import { COND, deskOn, edgeWith, M, request, restingOn, YES } from './parts.ts';

function reconcilerOn(options: Parameters<typeof deskOn>[0] = {}) {
  const world = deskOn(options);
  const canceller = new OrderCanceller(world.desk);
  const reconciler = new Reconciler(world.desk, canceller, 'feedf00d');
  canceller.start();
  /** An order of ours resting at the simulated venue, tracked LIVE. */
  const resting = (price = 400_000): OrderRecord => restingOn(world, price);
  return { ...world, reconciler, resting };
}

const venueState = (status: VenueOrderStatus, sizeMatched = 0): VenueOrderState => ({
  orderId: '0x1',
  status,
  tokenId: YES,
  conditionId: COND,
  side: 'BUY',
  price: 400_000,
  originalSize: 10 * M,
  sizeMatched,
  clientOrderId: undefined,
});

describe('Reconciler (virtual time, simulated edge)', () => {
  it.each<[VenueOrderStatus, number, string]>([
    ['LIVE', 0, 'LIVE'],
    ['LIVE', 2 * M, 'PARTIALLY_FILLED'],
    ['DELAYED', 0, 'LIVE'],
    ['MATCHED', 10 * M, 'FILLED'],
    ['CANCELED', 0, 'CANCELED'],
    ['UNMATCHED', 0, 'CANCELED'],
  ])('takes the venue status %s (matched %d) as %s', (status, matched, expected) => {
    const w = reconcilerOn();
    const record = w.desk.tracker.add(request(), w.clock.now());
    w.desk.tracker.transition(record, 'SUBMIT_UNKNOWN', w.clock.now());
    w.reconciler.applyVenueState(record, venueState(status, matched));
    expect(record.status).toBe(expected);
  });

  it('an outcome-unknown order the venue never received is rejected, and its market reopens', () => {
    const w = reconcilerOn();
    const record = w.desk.tracker.add(request(), w.clock.now());
    w.desk.tracker.setOrderId(record, 'never-posted', w.clock.now());
    w.reconciler.markUnknown([record], 'timed out');
    expect(w.reconciler.markets.get(COND)).toBe(1);
    w.clock.advanceBy(499);
    expect(record.status).toBe('SUBMIT_UNKNOWN');
    w.clock.advanceBy(20);
    expect(record.status).toBe('REJECTED');
    expect(w.reconciler.markets.size).toBe(0);
    expect(w.events.map((e) => e.type)).toEqual(['OrderSubmitUnknown', 'OrderRejected']);
    expect(w.desk.counters.reconciledMissing).toBe(1);
  });

  it('retries a failing lookup on the clock and leaves the order SUBMIT_UNKNOWN after five', () => {
    let lookups = 0;
    const w = reconcilerOn({ wrap: (base) => edgeWith(base, { order: () => (lookups++, throwError(() => new Error('venue down'))) }) });
    const record = w.desk.tracker.add(request(), w.clock.now());
    w.desk.tracker.setOrderId(record, '0xabc', w.clock.now());
    w.reconciler.markUnknown([record], 'timed out');
    w.clock.advanceBy(500 * 5 + 100);
    expect(lookups).toBe(5);
    expect(record.status).toBe('SUBMIT_UNKNOWN');
    expect(w.reconciler.markets.size).toBe(0);
  });

  it('takes our live orders as cancelled when the heartbeat is lost', () => {
    const w = reconcilerOn();
    const live = w.resting();
    const pending = w.desk.tracker.add(request({ price: 300_000 }), w.clock.now());
    w.reconciler.heartbeatLost();
    expect(live.status).toBe('CANCELED');
    expect(pending.status).toBe('PENDING_SUBMIT'); // never reached the venue: not cancelled by it
    expect(w.events).toEqual([expect.objectContaining({ type: 'OrderCanceled', reason: 'heartbeat lost' })]);
    expect(w.desk.counters.heartbeatLost).toBe(1);
  });

  it('sync cancels orphans of this run and settles orders the venue no longer lists', () => {
    const w = reconcilerOn();
    const kept = w.resting(400_000);
    const gone = w.resting(380_000);
    // an order of this run the engine does not track (a previous life's): an orphan
    const [orphan] = w.answer(w.edge.prepare([request({ price: 390_000 })]));
    w.answer(w.edge.submit([orphan!]));
    // a cancelled one the engine still thinks rests
    w.answer(w.edge.cancel([gone.orderId!]));
    w.reconciler.sync('test');
    w.clock.advanceBy(50);
    expect(w.desk.counters.orphansCancelled).toBe(1);
    expect(w.venueOrders().map((o) => o.orderId)).toEqual([kept.orderId]);
    expect(gone.status).toBe('CANCELED');
    expect(kept.status).toBe('LIVE');
  });

  it('never takes our own orders for orphans: closed in our books but listed live, they are cancelled as ours', () => {
    const w = reconcilerOn();
    const closed = w.resting(400_000);
    // the engine took it as cancelled (say a lost heartbeat) but the venue still rests it
    w.desk.tracker.transition(closed, 'CANCELED', w.clock.now(), 'heartbeat lost');
    w.reconciler.sync('test');
    w.clock.advanceBy(100);
    expect(w.desk.counters.orphansCancelled).toBe(0);
    expect(w.venueOrders()).toEqual([]);
    expect(closed.status).toBe('CANCELED');
    expect(w.desk.counters.canceled).toBe(1);
  });

  it('a sync racing the stop counts no orphan: the listing that comes back after the stop began is dropped', () => {
    const w = reconcilerOn();
    const records = [w.resting(400_000), w.resting(390_000), w.resting(380_000)];
    w.reconciler.sync('periodic');
    // the stop begins while the listing is in flight: every order is marked to be cancelled
    w.desk.stopped = true;
    for (const r of records) r.cancelWhenLive = true;
    w.clock.advanceBy(100);
    expect(w.desk.counters.orphansCancelled).toBe(0);
    expect(w.venueOrders()).toHaveLength(3);
  });

  it('at stop, settles every open order with the venue: none left CANCEL_PENDING or SUBMIT_UNKNOWN that the venue does not hold', () => {
    const w = reconcilerOn();
    // cancelled by the venue (heartbeat deadline) while we waited for our cancel's answer
    const pending = w.resting(400_000);
    w.answer(w.edge.cancel([pending.orderId!]));
    w.desk.tracker.transition(pending, 'CANCEL_PENDING', w.clock.now());
    // a post that timed out but reached the venue, and one that never did
    const [taken] = w.answer(w.edge.prepare([request({ price: 390_000 })]));
    const found = w.desk.tracker.add(taken!.request, w.clock.now());
    w.desk.tracker.setOrderId(found, taken!.orderId, w.clock.now());
    w.answer(w.edge.submit([taken!]));
    w.desk.tracker.transition(found, 'SUBMIT_UNKNOWN', w.clock.now());
    const lost = w.desk.tracker.add(request({ price: 380_000 }), w.clock.now());
    w.desk.tracker.setOrderId(lost, '0xnever', w.clock.now());
    w.desk.tracker.transition(lost, 'SUBMIT_UNKNOWN', w.clock.now());
    let done = false;
    w.reconciler.settle$().subscribe({ complete: () => (done = true) });
    w.clock.advanceBy(100);
    expect(done).toBe(true);
    expect(pending.status).toBe('CANCELED');
    expect(found.status).toBe('LIVE'); // rests at the venue: the stop's cancel takes it
    expect(lost.status).toBe('REJECTED');
    expect(w.desk.counters.accepted).toBe(1);
    expect(w.desk.counters.reconciledFound).toBe(1);
    expect(w.events.map((e) => e.type)).toEqual(['OrderCanceled', 'OrderAccepted', 'OrderRejected']);
  });

  it('after a restart: adopts or cancels what still rests, rejects what the venue never had', () => {
    for (const policy of ['adopt', 'cancel'] as const) {
      const w = reconcilerOn();
      const resting = w.resting();
      const unsent = w.desk.tracker.add(request({ price: 300_000 }), w.clock.now());
      const lost = w.desk.tracker.add(request({ price: 290_000 }), w.clock.now());
      w.desk.tracker.setOrderId(lost, 'not-at-venue', w.clock.now());
      w.desk.tracker.transition(lost, 'LIVE', w.clock.now());
      w.reconciler.reconcileRestored(policy);
      expect(unsent.status).toBe('CANCELED');
      expect(w.reconciler.markets.get(COND)).toBe(2);
      w.clock.advanceBy(50);
      expect(lost.status).toBe('REJECTED');
      expect(w.reconciler.markets.size).toBe(0);
      expect(resting.status).toBe(policy === 'adopt' ? 'LIVE' : 'CANCELED');
      expect(w.venueOrders()).toHaveLength(policy === 'adopt' ? 1 : 0);
    }
  });
});
