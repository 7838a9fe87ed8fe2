import { describe, expect, it } from 'vitest';
import { throwError } from 'rxjs';
import type { StopReport } from '../../src/engine/engine-summary.ts';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import { deskOn, edgeWith, request } from './parts.ts';

function cancellerOn(options: Parameters<typeof deskOn>[0] = {}) {
  const calls: string[][] = [];
  const world = deskOn({
    ...options,
    wrap: (base) => {
      const inner = options.wrap ? options.wrap(base) : base;
      return edgeWith(base, { cancel: (ids) => (calls.push([...ids]), inner.cancel(ids)), cancelAll: (scope) => inner.cancelAll(scope), openOrders: () => inner.openOrders() });
    },
  });
  const canceller = new OrderCanceller(world.desk);
  canceller.start();
  const resting = (price: number): OrderRecord => {
    const record = world.desk.tracker.add(request({ price }), world.clock.now());
    const [prepared] = world.answer(world.edge.prepare([record.request]));
    world.desk.tracker.setOrderId(record, prepared!.orderId, world.clock.now());
    world.answer(world.edge.submit([prepared!]));
    world.desk.tracker.transition(record, 'LIVE', world.clock.now());
    return record;
  };
  return { ...world, canceller, calls, resting };
}

describe('OrderCanceller (virtual time, simulated edge)', () => {
  it('batches the cancels of maxBatchWaitMs into one call and reports each order cancelled', () => {
    const c = cancellerOn();
    const a = c.resting(400_000);
    const b = c.resting(390_000);
    c.canceller.request(a);
    c.canceller.request(b);
    c.canceller.request(a); // already pending: not asked twice
    expect(a.status).toBe('CANCEL_PENDING');
    expect(c.calls).toEqual([]);
    c.clock.advanceBy(30);
    expect(c.calls).toEqual([[a.orderId, b.orderId]]);
    expect([a.status, b.status]).toEqual(['CANCELED', 'CANCELED']);
    expect(c.events.map((e) => e.type)).toEqual(['OrderCanceled', 'OrderCanceled']);
    expect(c.venueOrders()).toEqual([]);
  });

  it('marks an order not yet at the venue to be cancelled once it is live', () => {
    const c = cancellerOn();
    const pending = c.desk.tracker.add(request(), c.clock.now());
    c.canceller.request(pending);
    c.clock.advanceBy(30);
    expect(pending).toMatchObject({ status: 'PENDING_SUBMIT', cancelWhenLive: true });
    expect(c.calls).toEqual([]);
  });

  it('puts an order back when the venue refuses the cancel or the call fails', () => {
    const c = cancellerOn();
    const a = c.resting(400_000);
    c.answer(c.edge.cancel([a.orderId!])); // gone at the venue meanwhile
    c.canceller.request(a);
    c.clock.advanceBy(30);
    expect(a.status).toBe('LIVE'); // the sync settles its true state
    const failing = cancellerOn({ wrap: (base) => edgeWith(base, { cancel: () => throwError(() => new Error('venue down')) }) });
    const b = failing.resting(400_000);
    failing.canceller.request(b);
    failing.clock.advanceBy(30);
    expect(b.status).toBe('LIVE');
  });

  it('cancels everything on stop, books what the venue cancelled and verifies none is live', () => {
    const c = cancellerOn();
    const a = c.resting(400_000);
    const pending = c.desk.tracker.add(request({ price: 300_000 }), c.clock.now());
    let report: StopReport | undefined;
    c.canceller.cancelAndVerify$(5_000).subscribe((r) => (report = r));
    c.clock.advanceBy(30);
    expect(report).toEqual({ verified: true, rounds: 1, live: [] });
    expect(a.status).toBe('CANCELED');
    expect(pending.cancelWhenLive).toBe(true);
    expect(c.desk.counters.canceled).toBe(1);
  });

  it('retries a failing cancel-all with backoff until the venue lists none live', () => {
    let failures = 2;
    const c = cancellerOn({
      wrap: (base) => edgeWith(base, { cancelAll: (scope) => (failures-- > 0 ? throwError(() => new Error('500 from the venue')) : base.cancelAll(scope)) }),
    });
    const a = c.resting(400_000);
    let report: StopReport | undefined;
    c.canceller.cancelAndVerify$(5_000).subscribe((r) => (report = r));
    c.clock.advanceBy(10);
    expect(report).toBeUndefined();
    expect(c.venueOrders().length).toBe(1);
    c.clock.advanceBy(2_000);
    expect(report?.verified).toBe(true);
    expect(c.venueOrders()).toEqual([]);
    expect(a.status).toBe('CANCELED');
  });

  it('gives up at the stop deadline and lists what is still live when every cancel fails', () => {
    const fail = () => throwError(() => new Error('500 from the venue'));
    const c = cancellerOn({ wrap: (base) => edgeWith(base, { cancelAll: fail, cancel: fail }) });
    const a = c.resting(400_000);
    let report: StopReport | undefined;
    c.canceller.cancelAndVerify$(3_000).subscribe((r) => (report = r));
    c.clock.advanceBy(2_999);
    expect(report?.verified).toBe(false);
    expect(report?.rounds).toBeGreaterThan(2);
    expect(report?.live).toEqual([{ orderId: a.orderId, clientOrderId: a.request.clientOrderId, tokenId: a.request.tokenId, side: a.request.side, price: '0.4', size: expect.any(String) as string }]);
  });

  it('says the stop is unlisted when the venue\'s open-order list never answers: live is then our own book\'s', () => {
    const fail = () => throwError(() => new Error('500 from the venue'));
    const c = cancellerOn({ wrap: (base) => edgeWith(base, { openOrders: fail }) });
    const a = c.resting(400_000);
    let report: StopReport | undefined;
    c.canceller.cancelAndVerify$(3_000).subscribe((r) => (report = r));
    c.clock.advanceBy(2_999);
    expect(report).toMatchObject({ verified: false, unlisted: true });
    // the venue cancelled it (cancel-all answered), so our book has none open: 0 live, unverified
    expect(a.status).toBe('CANCELED');
    expect(report?.live).toEqual([]);
    // a listing that answers (even with orders live) is never unlisted
    const f2 = () => throwError(() => new Error('500 from the venue'));
    const d = cancellerOn({ wrap: (base) => edgeWith(base, { cancelAll: f2, cancel: f2 }) });
    d.resting(400_000);
    let listed: StopReport | undefined;
    d.canceller.cancelAndVerify$(3_000).subscribe((r) => (listed = r));
    d.clock.advanceBy(2_999);
    expect(listed?.verified).toBe(false);
    expect(listed && 'unlisted' in listed).toBe(false);
  });
});

