import { describe, expect, it } from 'vitest';
import { Observable } from 'rxjs';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import { restsAtVenue } from '../../src/engine/reward-model.ts';
import { VENUE_CANCEL_REASON, VenueOrderUpdates } from '../../src/engine/venue-order-updates.ts';
import type { CancelOutcome, ExecutionClient, VenueOrderUpdate } from '../../src/execution/execution-client.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import type { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { COND, deskOn, edgeWith, M, request, restingOn, YES } from './parts.ts';

/**
 * What the engine makes of the venue's pushed order messages (src/engine/venue-order-updates.ts),
 * in virtual time on the simulated edge: a CANCELLATION is labelled by the engine's own reason
 * when it has one (our cancel out, a reason found by looking at the market), else as the venue's;
 * PLACEMENT and UPDATE find an order whose post had no answer without its lookup.
 */

/** A market look the test answers by hand: `answer(work)` runs the engine's own handling, then resolves the look. */
function manualLook() {
  const asked: { conditionId: string; at: number; resolve: () => void }[] = [];
  const look = (conditionId: string, at: number): Promise<void> => new Promise<void>((resolve) => asked.push({ conditionId, at, resolve }));
  const answer = async (work: () => void = () => {}): Promise<void> => {
    const next = asked.shift();
    if (next === undefined) throw new Error('no look was asked');
    work();
    next.resolve();
    // the engine decides in the promise's continuation
    await Promise.resolve();
    await Promise.resolve();
  };
  return { look, asked, answer };
}

function updatesOn(options: { look?: (conditionId: string, at: number) => Promise<void>; wrap?: (edge: SimulatedExecutionClient) => ExecutionClient } = {}) {
  const world = deskOn({ wrap: options.wrap });
  const canceller = new OrderCanceller(world.desk);
  const reconciler = new Reconciler(world.desk, canceller, 'feedf00d');
  const updates = new VenueOrderUpdates(world.desk, reconciler, canceller, options.look);
  canceller.start();
  /** An order of ours resting at the simulated venue, tracked LIVE. */
  const resting = (): OrderRecord => restingOn(world);
  /** A record whose post went out (its order id known) and whose answer has not come. */
  const posting = (): OrderRecord => {
    const record = world.desk.tracker.add(request(), world.clock.now());
    world.desk.tracker.setOrderId(record, `0x${record.request.clientOrderId}`, world.clock.now());
    return record;
  };
  const update = (record: OrderRecord, event: VenueOrderUpdate['event'], sizeMatched = 0): VenueOrderUpdate => ({
    event,
    state: {
      orderId: record.orderId!,
      status: event === 'cancelled' ? 'CANCELED' : 'LIVE',
      tokenId: YES,
      conditionId: COND,
      side: 'BUY',
      price: record.request.price,
      originalSize: record.request.size,
      sizeMatched,
      clientOrderId: undefined,
    },
    at: world.clock.now(),
    tsInit: world.clock.now(),
  });
  const heard = (u: VenueOrderUpdate) => world.desk.transaction(() => updates.heard(u));
  const cancels = () => world.events.filter((e) => e.type === 'OrderCanceled').map((e) => (e as { reason: string }).reason);
  return { ...world, canceller, reconciler, updates, resting, posting, update, heard, cancels };
}

describe('VenueOrderUpdates: a venue cancel', () => {
  it('holds the order open while the market is looked at, then takes it as the venue\'s own cancel when no reason of ours turned up', async () => {
    const looks = manualLook();
    const w = updatesOn({ look: looks.look });
    const record = w.resting();
    w.heard(w.update(record, 'cancelled'));
    // still open: the strategy does not quote again before the engine knows why
    expect(record.status).toBe('LIVE');
    expect(record.venueCancelledAt).toBe(w.clock.now());
    expect(looks.asked).toMatchObject([{ conditionId: COND }]);
    await looks.answer();
    expect(record.status).toBe('CANCELED');
    expect(w.cancels()).toEqual([VENUE_CANCEL_REASON]);
    expect(w.updates.counts).toMatchObject({ cancelsUnexplained: 1, cancelsExplained: 0 });
  });

  it('takes it under the engine\'s own reason when the look finds one (a market close cancelling our orders), with no cancel call', async () => {
    const looks = manualLook();
    let cancelCalls = 0;
    const w = updatesOn({ look: looks.look, wrap: (base) => edgeWith(base, { cancel: (ids) => (cancelCalls++, base.cancel(ids)) }) });
    const a = w.resting();
    const b = w.resting();
    w.heard(w.update(a, 'cancelled'));
    w.heard(w.update(b, 'cancelled'));
    // one look for the market, both orders waiting on it
    expect(looks.asked).toHaveLength(1);
    // the look found the market closed: MarketLifecycle asks for our orders' cancels
    await looks.answer(() => w.desk.transaction(() => [a, b].forEach((r) => w.canceller.request(r, 'market closed'))));
    expect([a.status, b.status]).toEqual(['CANCELED', 'CANCELED']);
    expect(w.cancels()).toEqual(['market closed', 'market closed']);
    w.clock.advanceBy(1_000);
    expect(cancelCalls).toBe(0);
    expect(w.updates.counts).toMatchObject({ cancelsUnexplained: 0, cancelsExplained: 2 });
  });

  it('without a look, waits reconcileDelayMs for the engine\'s own reason before taking the venue\'s', () => {
    const w = updatesOn();
    const record = w.resting();
    w.heard(w.update(record, 'cancelled'));
    w.clock.advanceBy(499);
    expect(record.status).toBe('LIVE');
    w.clock.advanceBy(1);
    expect(record.status).toBe('CANCELED');
    expect(w.cancels()).toEqual([VENUE_CANCEL_REASON]);
  });

  it('a cancel of ours out: the venue\'s word is ours, even when the cancel\'s answer does not list the order', () => {
    let answer: ((outcome: CancelOutcome) => void) | undefined;
    const w = updatesOn({ wrap: (base) => edgeWith(base, { cancel: () => new Observable<CancelOutcome>((s) => void (answer = (o) => (s.next(o), s.complete()))) }) });
    const record = w.resting();
    w.canceller.request(record);
    w.clock.advanceBy(20);
    expect(record.status).toBe('CANCEL_PENDING');
    w.heard(w.update(record, 'cancelled'));
    expect(record.status).toBe('CANCEL_PENDING');
    answer!({ canceled: [], notCanceled: { [record.orderId!]: 'order not found' } });
    expect(record.status).toBe('CANCELED');
    expect(w.cancels()).toEqual(['cancelled']);
    expect(w.updates.counts).toMatchObject({ cancelsExplained: 1, cancelsUnexplained: 0 });
  });

  it('while the run stops, leaves it to the stop (its cancel-all labels it)', () => {
    const w = updatesOn();
    const record = w.resting();
    w.desk.stopped = true;
    w.heard(w.update(record, 'cancelled'));
    w.clock.advanceBy(1_000);
    expect(record.status).toBe('LIVE');
    expect(w.cancels()).toEqual([]);
  });

  it('of an order already closed by the engine changes nothing', () => {
    const w = updatesOn();
    const record = w.resting();
    w.desk.tracker.transition(record, 'CANCELED', w.clock.now(), 'game start');
    w.heard(w.update(record, 'cancelled'));
    w.clock.advanceBy(1_000);
    expect(record.history.at(-1)).toMatchObject({ status: 'CANCELED', reason: 'game start' });
  });
});

describe('VenueOrderUpdates: PLACEMENT and UPDATE', () => {
  it('PLACEMENT finds an outcome-unknown order at once: accepted, its market open, no lookup', () => {
    let lookups = 0;
    const w = updatesOn({ wrap: (base) => edgeWith(base, { order: (id) => (lookups++, base.order(id)) }) });
    const record = w.posting();
    w.reconciler.markUnknown([record], 'timed out');
    expect(w.reconciler.markets.get(COND)).toBe(1);
    w.heard(w.update(record, 'placed'));
    expect(record.status).toBe('LIVE');
    expect(w.reconciler.markets.size).toBe(0);
    expect(w.events.map((e) => e.type)).toEqual(['OrderSubmitUnknown', 'OrderAccepted']);
    w.clock.advanceBy(5_000);
    expect(lookups).toBe(0);
    expect(record.status).toBe('LIVE');
    expect(w.updates.counts.found).toBe(1);
  });

  it('PLACEMENT heard while the post\'s answer is out: a lost answer finds the order at once', () => {
    let lookups = 0;
    const w = updatesOn({ wrap: (base) => edgeWith(base, { order: (id) => (lookups++, base.order(id)) }) });
    const record = w.posting();
    w.heard(w.update(record, 'placed'));
    expect(record.status).toBe('PENDING_SUBMIT');
    w.reconciler.markUnknown([record], 'timed out');
    expect(record.status).toBe('LIVE');
    expect(w.reconciler.markets.size).toBe(0);
    w.clock.advanceBy(5_000);
    expect(lookups).toBe(0);
  });

  it('UPDATE finds an outcome-unknown order partly matched, and leaves its filled size to the trades', () => {
    const w = updatesOn();
    const record = w.posting();
    w.reconciler.markUnknown([record], 'timed out');
    w.heard(w.update(record, 'matched', 4 * M));
    expect(record.status).toBe('PARTIALLY_FILLED');
    expect(record.filled).toBe(0);
  });

  it('PLACEMENT and UPDATE of an order the engine already holds live change nothing', () => {
    const w = updatesOn();
    const record = w.resting();
    w.heard(w.update(record, 'placed'));
    w.heard(w.update(record, 'matched', 4 * M));
    expect(record.status).toBe('LIVE');
    expect(record.filled).toBe(0);
    expect(w.events).toEqual([]);
  });
});

describe('the reward estimate takes the venue\'s word on what rests', () => {
  it('a post unanswered rests once the venue placed it; a cancel unanswered stops resting once the venue cancelled it', () => {
    const w = updatesOn();
    const posted = w.posting();
    expect(restsAtVenue(posted)).toBe(false);
    w.heard(w.update(posted, 'placed'));
    expect(restsAtVenue(posted)).toBe(true);
    const live = w.resting();
    w.canceller.request(live);
    w.clock.advanceBy(1);
    expect(live.status).toBe('CANCEL_PENDING');
    expect(restsAtVenue(live)).toBe(true);
    w.heard(w.update(live, 'cancelled'));
    expect(restsAtVenue(live)).toBe(false);
  });
});
