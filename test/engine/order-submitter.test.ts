import { describe, expect, it } from 'vitest';
import { NEVER, throwError } from 'rxjs';
import { OutcomeUnknownError, RateLimitError, VenueRejectError } from '../../src/core/errors.ts';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { MAX_SUBMIT_ATTEMPTS, OrderSubmitter } from '../../src/engine/order-submitter.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import type { EnginePersistence } from '../../src/engine/ports.ts';
import type { ExecutionClient, PreparedOrder } from '../../src/execution/execution-client.ts';
import type { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { deskOn, edgeWith, request } from './parts.ts';

/** A submitter over a desk whose edge is the simulated one, with `submit` watched or replaced. */
function submitterOn(options: Omit<Parameters<typeof deskOn>[0] & {}, 'wrap'> & { submit?: (base: SimulatedExecutionClient, orders: readonly PreparedOrder[]) => ReturnType<ExecutionClient['submit']> } = {}) {
  const posts: string[][] = [];
  const world = deskOn({
    ...options,
    wrap: (base) =>
      edgeWith(base, {
        submit: (orders) => {
          posts.push(orders.map((o) => o.orderId));
          return options.submit ? options.submit(base, orders) : base.submit(orders);
        },
      }),
  });
  const canceller = new OrderCanceller(world.desk);
  const reconciler = new Reconciler(world.desk, canceller, 'feedf00d');
  const submitter = new OrderSubmitter(world.desk, canceller, reconciler);
  canceller.start();
  submitter.start();
  const place = (n: number, price = 400_000) => Array.from({ length: n }, (_, i) => world.desk.tracker.add(request({ price: price - i * 10_000 }), world.clock.now()));
  return { ...world, submitter, reconciler, posts, place };
}

describe('OrderSubmitter (virtual time, simulated edge)', () => {
  it('batches the orders of maxBatchWaitMs into one post and applies the answers', () => {
    const w = submitterOn();
    w.submitter.submit(w.place(2));
    w.clock.advanceBy(5);
    w.submitter.submit(w.place(1, 300_000));
    expect(w.posts).toEqual([]);
    w.clock.advanceBy(5); // the first order's 10 ms are up
    expect(w.posts.map((p) => p.length)).toEqual([3]);
    w.clock.advanceBy(20);
    expect(w.events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderAccepted', 'OrderAccepted']);
    expect([...w.desk.tracker.all()].map((r) => r.status)).toEqual(['LIVE', 'LIVE', 'LIVE']);
    expect(w.venueOrders()).toHaveLength(3);
    expect(w.desk.counters).toMatchObject({ submitted: 3, accepted: 3, batches: 1 });
  });

  it('with maxBatchWaitMs 0 posts at once, in posts of at most 15', () => {
    const w = submitterOn({ settings: { maxBatchWaitMs: 0 } });
    w.submitter.submit(w.place(17));
    expect(w.posts.map((p) => p.length)).toEqual([15, 2]);
  });

  it('posts the same signed orders again after a 429 and a 503, and gives up after MAX_SUBMIT_ATTEMPTS', () => {
    let refusals = 0;
    const w = submitterOn({
      submit: (base, orders) => {
        if (refusals++ < 2) return throwError(() => (refusals === 1 ? new RateLimitError('throttled', 1_000, 'postOrders') : new VenueRejectError('503 paused', 503, 'postOrders', 'trading paused', undefined, 2_000)));
        return base.submit(orders);
      },
    });
    w.submitter.submit(w.place(1));
    w.clock.advanceBy(10);
    w.clock.advanceBy(1_000);
    expect(w.posts).toHaveLength(2);
    w.clock.advanceBy(2_000);
    expect(w.posts).toHaveLength(3);
    expect(new Set(w.posts.flat()).size).toBe(1);
    w.clock.advanceBy(20);
    expect(w.desk.counters).toMatchObject({ submitted: 1, resubmitted: 2, accepted: 1, rejected: 0 });

    const stuck = submitterOn({ submit: () => throwError(() => new RateLimitError('throttled', 100, 'postOrders')) });
    stuck.submitter.submit(stuck.place(1));
    stuck.clock.advanceBy(10_000);
    expect(stuck.posts).toHaveLength(MAX_SUBMIT_ATTEMPTS);
    expect(stuck.events.map((e) => e.type)).toEqual(['OrderRejected']);
    // a 429 is the venue's throttle, not a refusal of the orders: the reject streak is not fed
    expect(stuck.desk.consecutiveRejects).toBe(0);
  });

  it('hands an outcome-unknown post to the reconciler, which finds the order by its hash', () => {
    const w = submitterOn({
      submit: (base, orders) => {
        base.submit(orders).subscribe(); // the venue takes it; the answer is lost
        return throwError(() => new OutcomeUnknownError('timed out', orders.map((o) => o.orderId)));
      },
    });
    const [record] = w.place(1);
    w.submitter.submit([record!]);
    w.clock.advanceBy(10);
    expect(record!.status).toBe('SUBMIT_UNKNOWN');
    expect(w.reconciler.markets.has(record!.request.conditionId)).toBe(true);
    w.clock.advanceBy(600);
    expect(record!.status).toBe('LIVE');
    expect(w.reconciler.markets.size).toBe(0);
    expect(w.events.map((e) => e.type)).toEqual(['OrderSubmitUnknown', 'OrderAccepted']);
    expect(w.desk.counters).toMatchObject({ submitUnknown: 1, reconciledFound: 1 });
  });

  it('posts only once the order hashes are committed; a rollback sends nothing', () => {
    const pending: ((committed: boolean) => void)[] = [];
    const persistence: EnginePersistence = {
      nextClientSeq: () => 1,
      transaction: (fn) => fn(),
      afterCommit: (cb) => pending.push(cb),
      orderCreated() {},
      orderChanged() {},
      fill() {},
      heartbeatId() {},
      journal() {},
    };
    const w = submitterOn({ persistence });
    const [first] = w.place(1);
    w.submitter.submit([first!]);
    w.clock.advanceBy(10);
    expect(first!.orderId).toBeDefined(); // the hash is on the record (and so in the store) ...
    expect(w.posts).toEqual([]); // ... but nothing left before the commit
    pending.shift()!(true);
    expect(w.posts).toHaveLength(1);
    const [second] = w.place(1, 300_000);
    w.submitter.submit([second!]);
    w.clock.advanceBy(10);
    pending.shift()!(false);
    expect(w.posts).toHaveLength(1);
    expect(second!.status).toBe('REJECTED');
  });

  it('keeps at most maxInFlightBatches posts in flight, and drains when they are answered', () => {
    const answers: (() => void)[] = [];
    const w = submitterOn({
      settings: { maxBatchWaitMs: 0, maxInFlightBatches: 1 },
      submit: (base, orders) => (answers.push(() => base.submit(orders).subscribe()), NEVER),
    });
    w.submitter.submit(w.place(1));
    w.submitter.submit(w.place(1, 300_000));
    expect(w.posts).toHaveLength(1);
    expect(w.submitter.inFlight).toBe(1);
    let drained = false;
    w.submitter.drain$(1_000).subscribe(() => (drained = true));
    w.clock.advanceBy(999);
    expect(drained).toBe(false);
    w.clock.advanceBy(1);
    expect(drained).toBe(true); // gave up waiting after drainMs
  });

  it('drops an order cancelled while it waited in the batcher', () => {
    const w = submitterOn();
    const [record] = w.place(1);
    w.submitter.submit([record!]);
    record!.cancelWhenLive = true;
    w.clock.advanceBy(20);
    expect(w.posts).toEqual([]);
    expect(record!.status).toBe('CANCELED');
    expect(w.events[0]).toMatchObject({ type: 'OrderCanceled', reason: 'cancelled before submission' });
  });
});
