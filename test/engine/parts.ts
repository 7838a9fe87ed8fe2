import { Subject, type Observable } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { FillEvent, MarketEvent, OrderEvent } from '../../src/core/events.ts';
import type { OrderRequest } from '../../src/core/intents.ts';
import { FeeRate } from '../../src/core/money.ts';
import { EngineDesk } from '../../src/engine/engine-desk.ts';
import type { EngineExecutionSettings, EngineLogger, EnginePersistence } from '../../src/engine/ports.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import type { ExecutionClient, VenueOrderState } from '../../src/execution/execution-client.ts';
import type { OrderRecord } from '../../src/execution/order-tracker.ts';
import { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { constantLatency } from '../../src/sim/edge/latency-model.ts';
import { queueModel } from '../../src/sim/edge/queue-model.ts';

/** Shared by the tests of the engine's parts: one market on the paper/backtest edge, in virtual time. */
export const COND = '0x' + 'ab'.repeat(32);
export const YES = '111';
export const M = 1_000_000;
export const T0 = 1_700_000_000_000;
/** YES as the engine tracks it: a 0.01 tick, a 5-share minimum, no fees. */
export const YES_TOKEN: TrackedToken = {
  tokenId: YES,
  conditionId: COND,
  outcome: 'Yes',
  outcomeIndex: 0,
  complementTokenId: undefined,
  question: 'q',
  negRiskMarketId: undefined,
  rules: { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true },
};
/** One-way latency of the simulated edge, ms. */
export const LATENCY_MS = 5;

export const silent: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silent;
  },
};

export const SETTINGS: EngineExecutionSettings = {
  maxBatchWaitMs: 10,
  maxBatchSize: 15,
  quoteTolerance: { priceTicks: 0, sizeShare: 0.1 },
  reconcileDelayMs: 500,
  syncIntervalMs: 0,
  maxInFlightBatches: 4,
};

/** A book event of YES: bids and asks as [price, size] in Micros. */
export function book(at: number, bids: readonly [number, number][], asks: readonly [number, number][]): MarketEvent {
  const lv = (list: readonly [number, number][]) => list.map(([price, size]) => ({ price, size }));
  const b = { tokenId: YES, conditionId: COND, tsEvent: at, tsInit: at, hash: `h${at}`, bids: lv(bids), asks: lv(asks), tickSize: undefined, minOrderSize: undefined, negRisk: false, lastTradePrice: undefined };
  return { type: 'book', book: b, tsEvent: at, tsInit: at };
}

/** The simulated edge (paper kind) on a clock, with YES at a 0.01 tick and a 5-share minimum (taker fee `takerBps`). */
export function simulatedEdge(clock: SimulatedClock, latencyMs = LATENCY_MS, takerBps = 0): SimulatedExecutionClient {
  return new SimulatedExecutionClient({
    kind: 'paper',
    clock,
    tokens: [{ tokenId: YES, conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, fees: { maker: new FeeRate(0), taker: new FeeRate(takerBps) } }],
    latency: constantLatency(latencyMs, 0),
    queue: queueModel('conservative'),
    balance: 10_000 * M,
  });
}

/** An edge whose calls are the simulated edge's unless replaced. */
export function edgeWith(base: SimulatedExecutionClient, replace: Partial<ExecutionClient>): ExecutionClient {
  return {
    kind: base.kind,
    fills$: base.fills$,
    prepare: (r) => base.prepare(r),
    submit: (o) => base.submit(o),
    cancel: (ids) => base.cancel(ids),
    cancelAll: (scope) => base.cancelAll(scope),
    openOrders: () => base.openOrders(),
    order: (id) => base.order(id),
    close: () => base.close(),
    ...replace,
  };
}

let seq = 0;

/** A place request of YES with a fresh client order id. */
export function request(over: Partial<OrderRequest> = {}): OrderRequest {
  return {
    kind: 'place',
    tokenId: YES,
    side: 'BUY',
    price: 400_000,
    size: 10 * M,
    orderType: 'GTC',
    strategyId: 's1',
    clientOrderId: `feedf00d${(++seq).toString(16).padStart(24, '0')}`,
    conditionId: COND,
    createdAt: T0,
    ...over,
  };
}

/** A desk on a simulated clock and edge that records every order event and fill it delivers. */
export function deskOn(options: { wrap?: (edge: SimulatedExecutionClient) => ExecutionClient; settings?: Partial<EngineExecutionSettings>; persistence?: EnginePersistence; latencyMs?: number } = {}) {
  const clock = new SimulatedClock(T0);
  const edge = simulatedEdge(clock, options.latencyMs);
  edge.onMarketEvent(book(T0, [[450_000, 100 * M]], [[550_000, 100 * M]]));
  const desk = new EngineDesk({ clock, execution: options.wrap ? options.wrap(edge) : edge, log: silent, settings: { ...SETTINGS, ...options.settings }, persistence: options.persistence });
  const events: OrderEvent[] = [];
  const fills: FillEvent[] = [];
  desk.listen({ orderEvent: (_id, e) => events.push(e), fill: (_id, f) => fills.push(f) });
  /** What an edge call emits once the clock has run its latency. */
  const answer = <T>(call: Observable<T>): T => {
    let out: T | undefined;
    let done = false;
    call.subscribe((v) => {
      out = v;
      done = true;
    });
    clock.advanceBy(2 * LATENCY_MS);
    if (!done) throw new Error('the edge did not answer');
    return out as T;
  };
  const venueOrders = (): VenueOrderState[] => [...answer(edge.openOrders())];
  return { clock, edge, desk, events, fills, answer, venueOrders };
}

/**
 * One market (YES tracked, its NO `222`) on the simulated edge in virtual time: `publish` sends a
 * YES book (0.45 / 0.55, 100 each; `levels: false` an empty one), `emit` any market event, each to
 * the edge first and then to the engine's stream. Taker fee `takerBps` (default 0).
 */
export function bookWorld(takerBps = 0) {
  const clock = new SimulatedClock(T0);
  const edge = simulatedEdge(clock, LATENCY_MS, takerBps);
  const events = new Subject<MarketEvent>();
  const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: takerBps, acceptingOrders: true };
  const tokens: TrackedToken[] = [{ tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: '222', question: 'q', negRiskMarketId: undefined, rules }];
  let n = 0;
  const emit = (event: MarketEvent) => {
    edge.onMarketEvent(event);
    events.next(event);
  };
  const publish = (levels = true) => {
    const now = clock.now();
    const book = {
      tokenId: YES,
      conditionId: COND,
      tsEvent: now,
      tsInit: now,
      hash: `h${++n}`,
      bids: levels ? [{ price: 450_000, size: 100 * M }] : [],
      asks: levels ? [{ price: 550_000, size: 100 * M }] : [],
      tickSize: undefined,
      minOrderSize: undefined,
      negRisk: false,
      lastTradePrice: undefined,
    };
    emit({ type: 'book', book, tsEvent: now, tsInit: now });
  };
  return { clock, edge, events, tokens, publish, emit };
}

/** An order of ours resting at the desk's simulated venue (price `price`), tracked LIVE. */
export function restingOn(world: ReturnType<typeof deskOn>, price = 400_000): OrderRecord {
  const record = world.desk.tracker.add(request({ price }), world.clock.now());
  const [prepared] = world.answer(world.edge.prepare([record.request]));
  world.desk.tracker.setOrderId(record, prepared!.orderId, world.clock.now());
  const [result] = world.answer(world.edge.submit([prepared!]));
  if (!result?.ok || result.status !== 'LIVE') throw new Error(`the simulated venue did not rest the order: ${JSON.stringify(result)}`);
  world.desk.tracker.transition(record, 'LIVE', world.clock.now());
  return record;
}
