import { describe, expect, it } from 'vitest';
import { Subject, throwError, take, map, merge, defer, of, type Observable } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import { OutcomeUnknownError, RateLimitError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import { TradingEngine, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import type { ExecutionClient, PreparedOrder, SubmitResult, VenueFill, VenueOrderState } from '../../src/execution/execution-client.ts';
import type { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { defineStrategy, type OrderEvent } from '../../src/strategy/api.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import Database from 'better-sqlite3';
import { tempDir } from '../store/helpers.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { edgeWith, silent, simulatedEdge } from './parts.ts';

const COND = '0x' + 'ab'.repeat(32);
const YES = '111';
const NO = '222';
const M = 1_000_000;


/**
 * A market of one token on the paper/backtest edge (src/sim/edge): the book the engine sees is
 * the book the simulated venue matches against. `lpOrder` adds displayed size at a price (shown
 * on the next `publish`).
 */
function world() {
  const clock = new SimulatedClock(1_700_000_000_000);
  const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
  const bids = new Map<number, number>([[450_000, 100 * M]]);
  const asks = new Map<number, number>([[550_000, 100 * M]]);
  const lpOrder = (side: 'BUY' | 'SELL', price: number, size: number) => {
    const levels = side === 'BUY' ? bids : asks;
    levels.set(price, (levels.get(price) ?? 0) + size);
  };
  const events = new Subject<MarketEvent>();
  let hash = 0;
  const edgeFor = (latencyMs: number) => {
    const edge = simulatedEdge(clock, latencyMs);
    edges.push(edge);
    return edge;
  };
  const edges: SimulatedExecutionClient[] = [];
  const publish = () => {
    const now = clock.now();
    const side = (levels: Map<number, number>, desc: boolean) =>
      [...levels].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).map(([price, size]) => ({ price, size }));
    const book = { tokenId: YES, conditionId: COND, tsEvent: now, tsInit: now, hash: `h${++hash}`, bids: side(bids, true), asks: side(asks, false), tickSize: undefined, minOrderSize: undefined, negRisk: false, lastTradePrice: undefined };
    const event: MarketEvent = { type: 'book', book, tsEvent: now, tsInit: now };
    // the venue sees the market first, as in a paper run
    for (const edge of edges) edge.onMarketEvent(event);
    events.next(event);
  };
  const tokens: TrackedToken[] = [
    { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: NO, question: 'q', negRiskMarketId: undefined, rules },
  ];
  /** Our orders resting at the simulated venue (asked through the edge, on the clock). */
  const venueOrders = (edge: SimulatedExecutionClient): VenueOrderState[] => {
    let out: readonly VenueOrderState[] | undefined;
    edge.openOrders().subscribe((orders) => (out = orders));
    clock.advanceBy(10);
    if (out === undefined) throw new Error('the edge did not answer openOrders');
    return [...out];
  };
  /** The edge an engine gets unless a test builds its own. */
  const edge = edgeFor(5);
  return { clock, events, publish, tokens, lpOrder, edgeFor, venueOrders, edge };
}

type World = ReturnType<typeof world>;

function engineFor(w: World, strategies: EngineStrategy[], exec?: ExecutionClient, extra: Partial<ConstructorParameters<typeof TradingEngine>[0]> = {}) {
  const execution = exec ?? w.edge;
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
function withSubmit(base: SimulatedExecutionClient, submit: ExecutionClient['submit']): ExecutionClient {
  return edgeWith(base, { submit });
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
    expect(w.venueOrders(w.edge)).toHaveLength(0);
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
    const first = w.venueOrders(w.edge);
    expect(first).toHaveLength(1);
    // the same target on the next book changes nothing at the venue
    w.lpOrder('BUY', 440_000, 5 * M);
    w.publish();
    w.clock.advanceBy(50);
    expect(w.venueOrders(w.edge).map((o) => o.orderId)).toEqual(first.map((o) => o.orderId));
    // a moved target cancels the old order and places a new one
    bid = 470_000;
    w.lpOrder('BUY', 430_000, 5 * M);
    w.publish();
    w.clock.advanceBy(50);
    const after = w.venueOrders(w.edge);
    expect(after).toHaveLength(1);
    expect(after[0]!.price).toBe(470_000);
    expect(after[0]!.orderId).not.toBe(first[0]!.orderId);
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
    expect(w.venueOrders(w.edge)).toHaveLength(0);
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
    expect(w.venueOrders(w.edge)).toHaveLength(1);
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
    expect(w.venueOrders(w.edge)).toHaveLength(1);
    const stopping = engine.stop();
    w.clock.advanceBy(50);
    await stopping;
    expect(w.venueOrders(w.edge)).toHaveLength(0);
  });

  it('reconciles an outcome-unknown post by hash, adopts the order and never re-sends it', () => {
    const w = world();
    const base = w.edge;
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
    const ours = w.venueOrders(w.edge);
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
    const base = w.edge;
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
    expect(w.venueOrders(w.edge)).toHaveLength(0); // still throttled
    w.clock.advanceBy(2_100);
    expect(w.venueOrders(w.edge)).toHaveLength(1);
    expect(posted).toHaveLength(3);
    expect(new Set(posted.flat()).size).toBe(1); // the very same signed order each time
    const summary = engine.summary();
    expect(summary).toMatchObject({ ordersSubmitted: 1, ordersResubmitted: 2, ordersAccepted: 1, ordersRejected: 0 });
  });

  it('with maxBatchWaitMs 0 posts what one strategy call produced at once, in posts of at most 15', () => {
    const w = world();
    const base = w.edgeFor(0);
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
    expect(w.venueOrders(base)).toHaveLength(17);
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
    const base = w.edge;
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
    const base = w.edge;
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

describe('TradingEngine gates: no config drops them', () => {
  /** An engine whose config leaves the kill switch out, with a heartbeat acknowledged once, then never. */
  function gated() {
    const w = world();
    let beats = 0;
    const edge: ExecutionClient = { ...withSubmit(w.edge, (orders) => w.edge.submit(orders)), heartbeat: () => (beats++ === 0 ? of('hb-1') : throwError(() => new Error('venue unreachable'))) };
    const events: OrderEvent[] = [];
    let want: OrderIntent | undefined;
    const engine = engineFor(
      w,
      [
        strategy('s', {
          name: 's',
          onBook() {
            const out = want;
            want = undefined;
            return out;
          },
          onOrderEvent({ event }) {
            events.push(event);
          },
        }),
      ],
      edge,
      { risk: { checks: ['tickGrid', 'minSize', 'maxNotional'], limits: { maxOrderNotional: 100 * M } }, heartbeat: { intervalMs: 1_000 } },
    );
    const placeOnNextBook = (price: number) => {
      want = { kind: 'place', tokenId: YES, side: 'BUY', price, size: 5 * M };
      w.lpOrder('BUY', 100_000, 5 * M); // a change, so the strategy is called
      w.publish();
      w.clock.advanceBy(30);
    };
    const denied = () => events.flatMap((e) => (e.type === 'OrderDenied' ? [e.code] : []));
    return { w, engine, events, placeOnNextBook, denied };
  }

  it('denies TRADING_HALTED while halted, and trades again after resume', () => {
    const g = gated();
    expect(g.engine.risk.checkOrder).not.toContain('killSwitch');
    g.engine.start();
    g.engine.halt('drill');
    g.placeOnNextBook(400_000);
    expect(g.denied()).toEqual(['TRADING_HALTED']);
    g.engine.resume();
    g.placeOnNextBook(400_000);
    expect(g.denied()).toHaveLength(1);
    expect(g.events.at(-1)?.type).toBe('OrderAccepted');
  });

  it('denies TRADING_HALTED while the heartbeat is late or lost', () => {
    const g = gated();
    g.engine.start();
    expect(g.engine.heartbeat?.health).toBe('healthy');
    g.w.clock.advanceBy(1_600);
    expect(g.engine.heartbeat?.health).toBe('late');
    g.placeOnNextBook(400_000);
    g.w.clock.advanceBy(10_000);
    expect(g.engine.heartbeat?.health).toBe('lost');
    g.placeOnNextBook(400_000);
    expect(g.denied()).toEqual(['TRADING_HALTED', 'TRADING_HALTED']);
    expect(g.engine.summary().ordersDenied).toEqual({ TRADING_HALTED: 2 });
  });

  it('denies RECONCILING in a market with an order of unknown outcome', () => {
    const w = world();
    let stall = true;
    const edge = withSubmit(w.edge, (orders) => {
      if (!stall) return w.edge.submit(orders);
      stall = false;
      return throwError(() => new OutcomeUnknownError('timed out', orders.map((o) => o.orderId)));
    });
    const events: OrderEvent[] = [];
    let n = 0;
    const engine = engineFor(
      w,
      [strategy('s', { name: 's', onBook: () => ({ kind: 'place', tokenId: YES, side: 'BUY', price: 400_000 - 10_000 * n++, size: 5 * M }), onOrderEvent: ({ event }) => void events.push(event) })],
      edge,
      { risk: { checks: ['tickGrid'], limits: {} } },
    );
    engine.start();
    w.publish();
    w.clock.advanceBy(30);
    w.lpOrder('BUY', 100_000, 5 * M);
    w.publish();
    w.clock.advanceBy(30);
    expect(events.map((e) => (e.type === 'OrderDenied' ? e.code : e.type))).toEqual(['OrderSubmitUnknown', 'RECONCILING']);
    expect(engine.summary().ordersDenied).toEqual({ RECONCILING: 1 });
  });
});
