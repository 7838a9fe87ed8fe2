import { describe, expect, it } from 'vitest';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import type { OrderRequest } from '../../src/core/intents.ts';

const request = (n: number): OrderRequest => ({
  kind: 'place',
  tokenId: '111',
  side: 'BUY',
  price: 500_000,
  size: 10_000_000,
  orderType: 'GTC',
  strategyId: 's',
  clientOrderId: `c${n}`,
  conditionId: '0xab',
  createdAt: 0,
});

describe('OrderTracker.forget', () => {
  it('drops orders closed before the cutoff from every lookup, never an open one', () => {
    const tracker = new OrderTracker();
    const records = Array.from({ length: 4 }, (_, i) => tracker.add(request(i), 0));
    records.forEach((r, i) => tracker.setOrderId(r, `0xorder${i}`, 1));
    tracker.transition(records[0]!, 'FILLED', 100);
    tracker.transition(records[1]!, 'CANCELED', 200);
    tracker.transition(records[2]!, 'LIVE', 150); // stays open
    tracker.transition(records[3]!, 'REJECTED', 300);

    expect(tracker.forget(250).map((r) => r.request.clientOrderId)).toEqual(['c0', 'c1']);
    expect(tracker.byClientId('c0')).toBeUndefined();
    expect(tracker.byOrderId('0xorder1')).toBeUndefined();
    expect(tracker.byClientId('c2')).toBe(records[2]);
    expect(tracker.byClientId('c3')).toBe(records[3]);
    expect(tracker.open().map((r) => r.request.clientOrderId)).toEqual(['c2']);
    expect([...tracker.all()].map((r) => r.request.clientOrderId)).toEqual(['c2', 'c3']);

    // the index stays right after forgetting: new orders are open and listed once
    const late = tracker.add(request(9), 400);
    expect(tracker.open()).toEqual([records[2], late]);
    expect(tracker.forget(10_000).map((r) => r.request.clientOrderId)).toEqual(['c3']);
    expect(tracker.open()).toEqual([records[2], late]);
  });

  it('keeps an order that changed after the cutoff, and one that was opened again', () => {
    const tracker = new OrderTracker();
    const a = tracker.add(request(1), 0);
    const b = tracker.add(request(2), 0);
    tracker.transition(a, 'CANCELED', 100);
    tracker.transition(a, 'FILLED', 500); // a late correction after the cutoff
    tracker.transition(b, 'CANCELED', 100);
    tracker.transition(b, 'LIVE', 120); // the venue still had it
    expect(tracker.forget(200)).toEqual([]);
    expect(tracker.byClientId('c1')).toBe(a);
    expect(tracker.byClientId('c2')).toBe(b);
    tracker.transition(b, 'CANCELED', 600);
    expect(tracker.forget(1_000).map((r) => r.request.clientOrderId)).toEqual(['c1', 'c2']);
  });
});
