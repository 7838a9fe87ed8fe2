import { describe, expect, it } from 'vitest';
import { Subject, throwError, take, map, merge, defer, of, type Observable } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import { OutcomeUnknownError, RateLimitError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import { TradingEngine, type EngineLogger, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import type { ExecutionClient, PreparedOrder, SubmitResult, VenueFill } from '../../src/execution/execution-client.ts';
import { SimExecutionClient } from '../../src/execution/sim-execution-client.ts';
import { MatchingEngine } from '../../src/sim/matching-engine.ts';
import { defineStrategy, type OrderEvent } from '../../src/strategy/api.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import Database from 'better-sqlite3';
import { tempDir } from '../store/helpers.ts';
import type { OrderIntent } from '../../src/core/intents.ts';

const COND = '0x' + 'ab'.repeat(32);
const YES = '111';
const NO = '222';
const LP = { owner: 'lp-key', address: '0x00000000000000000000000000000000000000aa' };
const US = { owner: 'our-key', address: '0x00000000000000000000000000000000000000bb' };
const M = 1_000_000;

const silent: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silent;
  },
};

function world() {
  const clock = new SimulatedClock(1_700_000_000_000);
  const sim = new MatchingEngine();
  const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
  sim.addMarket({ ...rules, tokenIds: [YES, NO] });
  sim.split(LP.address, COND, 1_000 * M);
  let n = 0;
  const lpOrder = (side: 'BUY' | 'SELL', price: number, size: number) =>
    sim.submit({ id: `lp-${++n}`, owner: LP.owner, address: LP.address, tokenId: YES, side, price, size, type: 'GTC', createdAt: clock.now() }, clock.now());
  lpOrder('SELL', 550_000, 100 * M);
  lpOrder('BUY', 450_000, 100 * M);
  const events = new Subject<MarketEvent>();
  const publish = () => {
    const book = { ...sim.book(YES, clock.now()), tsInit: clock.now() };
    events.next({ type: 'book', book, tsEvent: book.tsEvent, tsInit: clock.now() });
  };
  const tokens: TrackedToken[] = [
    { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: NO, question: 'q', negRiskMarketId: undefined, rules },
  ];
  return { clock, sim, events, publish, tokens, lpOrder };
}

function engineFor(w: ReturnType<typeof world>, strategies: EngineStrategy[], exec?: ExecutionClient, extra: Partial<ConstructorParameters<typeof TradingEngine>[0]> = {}) {
  const execution = exec ?? new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 5 });
  return new TradingEngine({
    clock: w.clock,
    execution,
    marketEvents$: w.events,
    tokens: w.tokens,
    strategies,
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000 } },
    settings: { maxBatchWaitMs: 10, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log: silent,
    ...extra,
  });
}

/** The simulated edge with its `submit` replaced (a venue that stalls, throttles, or is watched). */
function withSubmit(base: SimExecutionClient, submit: ExecutionClient['submit']): ExecutionClient {
  return {
    kind: base.kind,
    fills$: base.fills$,
    prepare: (r) => base.prepare(r),
    submit,
    cancel: (ids) => base.cancel(ids),
    cancelAll: (scope) => base.cancelAll(scope),
    openOrders: () => base.openOrders(),
    order: (id) => base.order(id),
    close: () => base.close(),
  };
}

function strategy(id: string, def: Parameters<typeof defineStrategy>[0]): EngineStrategy {
  return { id, definition: defineStrategy(def), params: {}, tokenIds: [YES] };
}

describe('TradingEngine (virtual time, simulated execution)', () => {
  it('sends a crossing order, hears it accepted and filled, and books the fill', () => {
    const w = world();
    const events: OrderEvent[] = [];
    let sent = false;
    const engine = engineFor(w, [
      strategy('taker', {
        name: 'taker',
        onBook({ market }) {
          if (sent || market.bestAsk === undefined) return;
          sent = true;
          return { kind: 'place', tokenId: YES, side: 'BUY', price: market.bestAsk, size: 10 * M, orderType: 'FAK' };
        },
        onOrderEvent({ event }) {
          events.push(event);
        },
      }),
    ]);
    engine.start();
    w.publish();
    w.clock.advanceBy(100);
    const summary = engine.summary();
    expect(summary.ordersSubmitted).toBe(1);
    expect(summary.ordersAccepted).toBe(1);
    expect(summary.fills).toBe(1);
    expect(engine.portfolio.position(YES)).toMatchObject({ size: 10 * M, avgPrice: 550_000 });
    expect(engine.portfolio.balance()).toBe(10_000 * M - 5_500_000);
    expect(events.map((e) => e.type)).toEqual(['OrderAccepted']);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(0);
  });

  it('keeps resting quotes whose target is unchanged and replaces the ones that moved', () => {
    const w = world();
    let bid = 460_000;
    const engine = engineFor(w, [
      strategy('mm', {
        name: 'mm',
        onBook(): OrderIntent {
          return { kind: 'quote', tokenId: YES, bids: [{ price: bid, size: 10 * M }], asks: [] };
        },
      }),
    ]);
    engine.start();
    w.publish();
    w.clock.advanceBy(50);
    const first = w.sim.openOrders({ owner: US.owner });
    expect(first).toHaveLength(1);
    // the same target on the next book changes nothing at the venue
    w.lpOrder('BUY', 440_000, 5 * M);
    w.publish();
    w.clock.advanceBy(50);
    expect(w.sim.openOrders({ owner: US.owner }).map((o) => o.id)).toEqual(first.map((o) => o.id));
    // a moved target cancels the old order and places a new one
    bid = 470_000;
    w.lpOrder('BUY', 430_000, 5 * M);
    w.publish();
    w.clock.advanceBy(50);
    const after = w.sim.openOrders({ owner: US.owner });
    expect(after).toHaveLength(1);
    expect(after[0]!.price).toBe(470_000);
    expect(after[0]!.id).not.toBe(first[0]!.id);
    expect(engine.summary().ordersCanceled).toBe(1);
  });

  it('delivers a risk denial to the strategy as OrderDenied with its code, and sends nothing', () => {
    const w = world();
    const denied: OrderEvent[] = [];
    const engine = engineFor(w, [
      strategy('bad', {
        name: 'bad',
        onStart: () => ({ kind: 'place', tokenId: YES, side: 'BUY', price: 455_000, size: 10 * M }),
        onOrderEvent({ event }) {
          denied.push(event);
        },
      }),
    ]);
    engine.start();
    w.clock.advanceBy(50);
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ type: 'OrderDenied', code: expect.stringMatching(/PRICE_OFF_TICK|STALE_BOOK/) });
    expect(engine.summary().ordersSubmitted).toBe(0);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(0);
  });

  it('faults a throwing strategy and keeps the others trading', () => {
    const w = world();
    const engine = engineFor(w, [
      strategy('thrower', {
        name: 'thrower',
        onBook() {
          throw new Error('boom');
        },
      }),
      strategy('steady', {
        name: 'steady',
        onBook: () => ({ kind: 'quote', tokenId: YES, bids: [{ price: 460_000, size: 5 * M }], asks: [] }),
      }),
    ]);
    engine.start();
    w.publish();
    w.clock.advanceBy(50);
    expect(engine.strategyState('thrower')).toBe('FAULTED');
    expect(engine.strategyState('steady')).toBe('RUNNING');
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(1);
    expect(engine.summary().faults).toBe(1);
  });

  it('cancels open orders on stop unless asked to keep them', async () => {
    const w = world();
    const engine = engineFor(w, [
      strategy('mm', { name: 'mm', onBook: () => ({ kind: 'quote', tokenId: YES, bids: [{ price: 460_000, size: 5 * M }], asks: [] }) }),
    ]);
    engine.start();
    w.publish();
    w.clock.advanceBy(50);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(1);
    const stopping = engine.stop();
    w.clock.advanceBy(50);
    await stopping;
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(0);
  });

  it('reconciles an outcome-unknown post by hash, adopts the order and never re-sends it', () => {
    const w = world();
    const base = new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 5 });
    let stallNext = true;
    // the venue takes the batch but the answer never arrives: outcome unknown
    const stalling: ExecutionClient = withSubmit(base, function submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]> {
      if (!stallNext) return base.submit(orders);
      stallNext = false;
      base.submit(orders).subscribe();
      return throwError(() => new OutcomeUnknownError('timed out', orders.map((o) => o.orderId)));
    });
    const events: OrderEvent[] = [];
    let extra: { price: number; size: number }[] = [];
    const engine = engineFor(w, [
      strategy('mm', {
        name: 'mm',
        onBook: () => ({ kind: 'quote', tokenId: YES, bids: [{ price: 460_000, size: 5 * M }, ...extra], asks: [] }),
        onOrderEvent({ event }) {
          events.push(event);
        },
      }),
    ], stalling);
    engine.start();
    w.publish();
    w.clock.advanceBy(20);
    expect(events.map((e) => e.type)).toEqual(['OrderSubmitUnknown']);
    // the unknown order still counts as resting (the diff keeps it); a new level is held back
    extra = [{ price: 450_000, size: 5 * M }];
    w.lpOrder('BUY', 440_000, 5 * M);
    w.publish();
    w.clock.advanceBy(20);
    expect(events.at(-1)).toMatchObject({ type: 'OrderDenied', code: 'RECONCILING' });
    w.clock.advanceBy(1_000);
    expect(events.some((e) => e.type === 'OrderAccepted')).toBe(true);
    const summary = engine.summary();
    expect(summary.ordersSubmitUnknown).toBe(1);
    expect(summary.reconciled.found).toBe(1);
    // after reconciliation the first level is resting and kept; only the new level goes out
    w.lpOrder('BUY', 430_000, 5 * M);
    w.publish();
    w.clock.advanceBy(50);
    const ours = w.sim.openOrders({ owner: US.owner });
    expect(ours.map((o) => o.price).sort()).toEqual([450_000, 460_000]);
    expect(engine.summary().ordersSubmitted).toBe(2);
  });

  it('runs the RxJS form: intents from an Observable over the input streams, faulted on a stream error', () => {
    const w = world();
    const engine = engineFor(w, [
      strategy('streamer', {
        name: 'streamer',
        stream: ({ books$ }) =>
          books$.pipe(
            take(1),
            map(({ market }): OrderIntent => ({ kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk!, size: 5 * M, orderType: 'FAK' })),
          ),
      }),
      strategy('broken-stream', {
        name: 'broken-stream',
        stream: ({ books$ }) => books$.pipe(map(() => { throw new Error('stream boom'); })),
      }),
    ]);
    engine.start();
    w.publish();
    w.clock.advanceBy(50);
    expect(engine.strategyState('streamer')).toBe('RUNNING');
    expect(engine.strategyState('broken-stream')).toBe('FAULTED');
    expect(engine.portfolio.position(YES).size).toBe(5 * M);
  });

  it('posts a throttled (429) batch again after Retry-After with the same orders, losing no intent', () => {
    const w = world();
    const base = new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 5 });
    let throttled = 0;
    const posted: string[][] = [];
    const throttling: ExecutionClient = withSubmit(base, function submit(orders) {
      posted.push(orders.map((o) => o.orderId));
      if (throttled < 2) {
        throttled++;
        return throwError(() => new RateLimitError('throttled', 2_000, 'postOrders'));
      }
      return base.submit(orders);
    });
    const engine = engineFor(w, [strategy('mm', { name: 'mm', onBook: () => ({ kind: 'quote', tokenId: YES, bids: [{ price: 460_000, size: 5 * M }], asks: [] }) })], throttling);
    engine.start();
    w.publish();
    w.clock.advanceBy(2_100);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(0); // still throttled
    w.clock.advanceBy(2_100);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(1);
    expect(posted).toHaveLength(3);
    expect(new Set(posted.flat()).size).toBe(1); // the very same signed order each time
    const summary = engine.summary();
    expect(summary).toMatchObject({ ordersSubmitted: 1, ordersResubmitted: 2, ordersAccepted: 1, ordersRejected: 0 });
  });

  it('with maxBatchWaitMs 0 posts what one strategy call produced at once, in posts of at most 15', () => {
    const w = world();
    const base = new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 0 });
    const posts: number[] = [];
    const counting: ExecutionClient = withSubmit(base, function submit(orders) {
      posts.push(orders.length);
      return base.submit(orders);
    });
    const prices = Array.from({ length: 17 }, (_, i) => 300_000 + i * 10_000);
    const engine = engineFor(w, [strategy('ladder', { name: 'ladder', onStart: () => prices.map((price): OrderIntent => ({ kind: 'place', tokenId: YES, side: 'BUY', price, size: 5 * M, postOnly: true })) })], counting, {
      settings: { maxBatchWaitMs: 0, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
      risk: { limits: {}, checks: ['tickGrid', 'priceBounds', 'minSize'] },
    });
    engine.start();
    expect(posts).toEqual([15, 2]); // no clock advance needed: nothing waited on a timer
    w.clock.advanceBy(1);
    expect(w.sim.openOrders({ owner: US.owner })).toHaveLength(17);
  });
});

describe('TradingEngine memory over a long run', () => {
  it('forgets finished orders after the retention, keeps open ones and every counter', () => {
    const w = world();
    const placed: string[] = [];
    const events: OrderEvent[] = [];
    const engine = engineFor(
      w,
      [
        strategy('taker', {
          name: 'taker',
          onBook() {
            // one marketable FAK (fills and closes) and, the first time, one resting bid
            const out: OrderIntent[] = [{ kind: 'place', tokenId: YES, side: 'BUY', price: 550_000, size: 5 * M, orderType: 'FAK' }];
            if (placed.length === 0) out.push({ kind: 'place', tokenId: YES, side: 'BUY', price: 300_000, size: 5 * M });
            return out;
          },
          onOrderEvent({ event }) {
            events.push(event);
            if (event.type === 'OrderAccepted') placed.push(event.clientOrderId);
          },
        }),
      ],
      undefined,
      { settings: { maxBatchWaitMs: 10, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4, closedOrderRetentionMs: 1_000 } },
    );
    engine.start();
    w.publish();
    w.clock.advanceBy(100);
    const [firstTaker, resting] = placed;
    expect(engine.tracker.byClientId(firstTaker!)?.status).toBe('FILLED');
    for (let i = 0; i < 5; i++) {
      w.clock.advanceBy(400);
      w.publish();
      w.clock.advanceBy(100);
    }
    expect(engine.tracker.byClientId(firstTaker!)).toBeUndefined(); // closed more than 1 s ago
    expect(engine.tracker.byClientId(resting!)?.status).toBe('LIVE'); // open: kept
    expect(engine.tracker.byClientId(placed.at(-1)!)).toBeDefined(); // recent: kept
    const summary = engine.summary();
    expect(summary.ordersSubmitted).toBe(7);
    expect(summary.fills).toBe(6);
    expect(engine.portfolio.position(YES).size).toBe(30 * M);
  });
});

describe('TradingEngine stop', () => {
  it('asks the edge for its fills once more after the cancel-all, and books what it finds', async () => {
    const w = world();
    const base = new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 5 });
    const late$ = new Subject<VenueFill>();
    let accepted: string | undefined;
    let flushed = 0;
    const edge: ExecutionClient = {
      ...withSubmit(base, (orders) => base.submit(orders)),
      fills$: merge(base.fills$, late$),
      flushFills: () =>
        defer(() => {
          flushed++;
          // a fill the periodic poll had not seen yet
          late$.next({ tradeId: 't-late', orderId: accepted!, tokenId: YES, side: 'BUY', price: 450_000, size: 5 * M, fee: 0, liquidity: 'MAKER', status: 'MATCHED', tsEvent: w.clock.now(), tsInit: w.clock.now() });
          return of(1);
        }),
    };
    let placed = false;
    const engine = engineFor(
      w,
      [
        strategy('bid', {
          name: 'bid',
          onBook() {
            if (placed) return;
            placed = true;
            return { kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 10 * M };
          },
          onOrderEvent({ event }) {
            if (event.type === 'OrderAccepted') accepted = event.orderId;
          },
        }),
      ],
      edge,
    );
    engine.start();
    w.publish();
    w.clock.advanceBy(100);
    expect(accepted).toBeDefined();
    expect(engine.summary().fills).toBe(0);
    const stopping = engine.stop({ keepOrders: false });
    w.clock.advanceBy(1_000);
    await stopping;
    expect(flushed).toBe(1);
    expect(engine.summary().fills).toBe(1);
    expect(engine.portfolio.position(YES).size).toBe(5 * M);
  });
});

describe('TradingEngine with a store', () => {
  it('commits the order hashes before the post leaves, even when the post starts inside the tick', () => {
    const tmp = tempDir();
    const file = tmp.path('hashes.sqlite');
    const store = RunStore.open(file, { create: true, runName: 'hashes' });
    const reader = new Database(file, { readonly: true });
    const stored = reader.prepare('SELECT COUNT(*) FROM orders WHERE order_id = ?').pluck();
    const w = world();
    const base = new SimExecutionClient({ clock: w.clock, engine: w.sim, owner: US.owner, address: US.address, latencyMs: 5 });
    const durableAtPost: boolean[] = [];
    const watched = withSubmit(base, (orders) => {
      for (const o of orders) durableAtPost.push(stored.get(o.orderId) === 1);
      return base.submit(orders);
    });
    let sent = 0;
    const engine = engineFor(
      w,
      [
        strategy('burst', {
          name: 'burst',
          onBook() {
            if (sent++ > 0) return;
            return Array.from({ length: 3 }, (_, i) => ({ kind: 'place' as const, tokenId: YES, side: 'BUY' as const, price: 400_000 - i * 10_000, size: 10 * M }));
          },
        }),
      ],
      watched,
      {
        // no batch wait: the post is started inside the market event's own transaction
        settings: { maxBatchWaitMs: 0, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
        runId: store.runId,
        persistence: storePersistence(store),
      },
    );
    engine.start();
    w.publish();
    w.clock.advanceBy(100);
    expect(durableAtPost).toEqual([true, true, true]);
    expect(engine.summary().ordersAccepted).toBe(3);
    reader.close();
    store.close();
  });
});
