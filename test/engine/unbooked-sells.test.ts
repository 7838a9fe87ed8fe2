import { Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { UnbookedSells } from '../../src/engine/unbooked-sells.ts';
import type { VenueOrderState } from '../../src/execution/execution-client.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import { COND, deskOn, edgeWith, M, request, YES } from './parts.ts';

/**
 * The doubt of closed SELLs (unbooked-sells.ts): shares the venue may have sold for us whose
 * fill is not booked yet, known from a lookup, the venue's own word, or a complete read of our
 * trades, and settled by the fills.
 */
function world(options: { failLookups?: boolean; lookupDelayMs?: number } = {}) {
  const lookups: { orderId: string; answer: Subject<VenueOrderState | undefined> }[] = [];
  const w = deskOn({
    wrap: (base) =>
      edgeWith(base, {
        order: (orderId) => {
          if (options.failLookups === true) return throwError(() => new Error('venue down'));
          const answer = new Subject<VenueOrderState | undefined>();
          lookups.push({ orderId, answer });
          return answer;
        },
      }),
  });
  const booked = new Map<string, number>();
  const changed: string[] = [];
  const unbooked = new UnbookedSells(w.desk, (orderId) => booked.get(orderId) ?? 0, (conditionId) => changed.push(conditionId), { lookupDelayMs: options.lookupDelayMs });
  const tracker = w.desk.tracker;
  let n = 0;
  /** A SELL of 10 sent and then closed in our books with `status`. */
  const closed = (status: 'CANCELED' | 'FILLED' | 'EXPIRED', side: 'SELL' | 'BUY' = 'SELL'): OrderRecord => {
    const record = tracker.add(request({ side, price: 600_000 }), w.clock.now());
    tracker.setOrderId(record, `0xorder${++n}`, w.clock.now());
    tracker.transition(record, 'LIVE', w.clock.now());
    tracker.transition(record, status, w.clock.now());
    return record;
  };
  /** A fill of `size` booked on the order (as the fill book does). */
  const fill = (record: OrderRecord, size: number): void => {
    booked.set(record.orderId!, (booked.get(record.orderId!) ?? 0) + size);
    tracker.setFilled(record, Math.max(record.filled, booked.get(record.orderId!)!), w.clock.now());
  };
  const state = (record: OrderRecord, status: VenueOrderState['status'], sizeMatched: number): VenueOrderState => ({
    orderId: record.orderId!,
    status,
    tokenId: YES,
    conditionId: COND,
    side: 'SELL',
    price: record.request.price,
    originalSize: record.request.size,
    sizeMatched,
    clientOrderId: record.request.clientOrderId,
  });
  return { ...w, unbooked, lookups, changed, closed, fill, state, booked };
}

describe('UnbookedSells', () => {
  it('a cancelled SELL: all of it in doubt until a lookup says what matched, then until that is booked', () => {
    const w = world();
    const sell = w.closed('CANCELED');
    expect(w.unbooked.has(YES)).toBe(true);
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 10 * M, unknown: [sell] });
    w.unbooked.lookUp([sell]);
    w.unbooked.lookUp([sell]); // one lookup at a time
    expect(w.lookups.map((l) => l.orderId)).toEqual([sell.orderId]);
    expect(w.unbooked.lookups).toBe(1);
    w.lookups[0]!.answer.next(w.state(sell, 'CANCELED', 4 * M));
    expect(sell.filled, 'the venue\'s matched size').toBe(4 * M);
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 4 * M, unknown: [] });
    expect(w.changed).toContain(COND);
    w.changed.length = 0;
    w.fill(sell, 3 * M);
    expect(w.unbooked.doubt(YES).shares).toBe(1 * M);
    expect(w.changed).toEqual([COND]);
    w.fill(sell, 1 * M);
    expect(w.unbooked.has(YES), 'settled: every matched share booked').toBe(false);
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 0, unknown: [] });
  });

  it('the user channel\'s cancellation tells the matched size without a lookup; a venue that does not know the order never traded it', () => {
    const w = world();
    const a = w.closed('CANCELED');
    const b = w.closed('CANCELED');
    w.unbooked.venueState(w.state(a, 'CANCELED', 0));
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 10 * M, unknown: [b] });
    w.unbooked.lookUp([b]);
    w.lookups[0]!.answer.next(undefined);
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 0, unknown: [] });
    expect(w.lookups).toHaveLength(1);
  });

  it('with the user channel: its cancellation before our cancel\'s answer is kept for the close; a lookup waits for it and is made only if it does not come', () => {
    const w = world({ lookupDelayMs: 500 });
    const tracker = w.desk.tracker;
    // the channel's word comes while our cancel is pending: the close takes it as known
    const early = tracker.add(request({ side: 'SELL', price: 600_000 }), w.clock.now());
    tracker.setOrderId(early, '0xearly', w.clock.now());
    tracker.transition(early, 'CANCEL_PENDING', w.clock.now());
    w.unbooked.venueState(w.state(early, 'CANCELED', 2 * M));
    tracker.transition(early, 'CANCELED', w.clock.now());
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 2 * M, unknown: [] });
    expect(early.filled, 'the venue\'s matched size').toBe(2 * M);
    // a lookup asked for waits; the channel's word within the wait makes it needless
    const late = w.closed('CANCELED');
    w.unbooked.lookUp([late]);
    w.clock.advanceBy(100);
    w.unbooked.venueState(w.state(late, 'CANCELED', 0));
    w.clock.advanceBy(500);
    expect(w.lookups).toEqual([]);
    // no word within the wait: looked up
    const silent = w.closed('CANCELED');
    w.unbooked.lookUp([silent]);
    w.clock.advanceBy(499);
    expect(w.lookups).toEqual([]);
    w.clock.advanceBy(1);
    expect(w.lookups.map((l) => l.orderId)).toEqual([silent.orderId]);
  });

  it('a complete read of our trades that began after the SELL closed settles it; an incomplete or earlier one does not', () => {
    const w = world();
    const began = w.clock.now();
    w.clock.advanceBy(10);
    const sell = w.closed('EXPIRED');
    w.unbooked.snapshot({ complete: true, at: w.clock.now() + 50, from: began });
    w.unbooked.snapshot({ complete: true, at: w.clock.now() + 50 });
    w.clock.advanceBy(10);
    w.unbooked.snapshot({ complete: false, at: w.clock.now(), reason: 'a page failed' });
    expect(w.unbooked.doubt(YES).unknown).toEqual([sell]);
    w.unbooked.snapshot({ complete: true, at: w.clock.now() + 50, from: w.clock.now() });
    expect(w.unbooked.has(YES)).toBe(false);
    expect(w.changed).toEqual([COND]);
  });

  it('a SELL the venue says matched in full is in doubt for its size until booked; BUYs and SELLs filled by their fills never are', () => {
    const w = world();
    const matched = w.closed('FILLED');
    expect(w.unbooked.doubt(YES)).toEqual({ shares: 10 * M, unknown: [] });
    w.fill(matched, 10 * M);
    expect(w.unbooked.has(YES)).toBe(false);
    w.closed('CANCELED', 'BUY');
    expect(w.unbooked.has(YES)).toBe(false);
    const tracker = w.desk.tracker;
    const sold = tracker.add(request({ side: 'SELL' }), w.clock.now());
    tracker.setOrderId(sold, '0xsold', w.clock.now());
    tracker.transition(sold, 'LIVE', w.clock.now());
    w.fill(sold, 10 * M);
    tracker.transition(sold, 'FILLED', w.clock.now());
    expect(w.unbooked.has(YES)).toBe(false);
  });

  it('a failed lookup keeps the doubt and is made again only after a pause', () => {
    const w = world({ failLookups: true });
    const sell = w.closed('CANCELED');
    w.unbooked.lookUp([sell]);
    w.unbooked.lookUp([sell]);
    expect(w.unbooked.lookups).toBe(1);
    expect(w.unbooked.doubt(YES).shares).toBe(10 * M);
    w.clock.advanceBy(1_000);
    w.unbooked.lookUp([sell]);
    expect(w.unbooked.lookups).toBe(2);
  });
});
