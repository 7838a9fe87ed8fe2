import { afterAll, describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { EventBus } from '../../src/engine/event-bus.ts';
import { ENGINE_METRICS } from '../../src/engine/engine-metrics.ts';
import { TradingEngine, type EngineEvent } from '../../src/engine/trading-engine.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import { tempDir } from '../store/helpers.ts';
import { backtestConfig, bookEvent, COND as BT_COND, header, T0 as BT_T0, TempDir } from '../backtest/helpers.ts';
import { book, M, SETTINGS, silent, simulatedEdge, T0, YES, YES_TOKEN } from './parts.ts';

/**
 * Issue 20 point 3: the engine's events on one bus with many listeners (the store's journal, the
 * tally behind the summary and metrics, the run's own), and the metrics sink holding every
 * batch's tick-to-trade.
 */

const TOKENS = [YES_TOKEN];

/** On each book: one resting buy at 0.40 and one off the tick grid (denied PRICE_OFF_TICK). */
const twoOrders = defineStrategy({
  name: 'two-orders',
  onBook: (): OrderIntent[] => [
    { kind: 'place', tokenId: YES, side: 'BUY', price: 400_000, size: 5 * M, postOnly: true },
    { kind: 'place', tokenId: YES, side: 'BUY', price: 400_500, size: 5 * M, postOnly: true },
  ],
});

function run(options: { store?: RunStore; onEvent?: (e: EngineEvent) => void } = {}) {
  const clock = new SimulatedClock(T0);
  const events = new Subject<MarketEvent>();
  // a stopwatch that moves 0.5 ms each time it is read: the timings are exact
  let watch = 0;
  const engine = new TradingEngine({
    clock,
    execution: simulatedEdge(clock),
    marketEvents$: events,
    tokens: TOKENS,
    strategies: [{ id: 'two', definition: twoOrders, params: {}, tokenIds: [YES] }],
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000 } },
    settings: SETTINGS,
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log: silent,
    persistence: options.store ? storePersistence(options.store) : undefined,
    onEvent: options.onEvent,
    stopwatch: () => (watch += 0.5),
  });
  const tick = (n: number) => {
    for (let i = 0; i < n; i++) {
      events.next(book(clock.now(), [[450_000, 100 * M]], [[550_000, 100 * M]]));
      clock.advanceBy(50);
    }
  };
  return { engine, clock, tick };
}

const dir = tempDir();

describe('the engine event bus', () => {
  it('a subscriber sees each batch with its timings and each denial with its code', () => {
    const r = run();
    const seen: EngineEvent[] = [];
    const off = r.engine.bus.subscribe((e) => seen.push(e));
    r.engine.start();
    r.tick(3);

    const batches = seen.flatMap((e) => (e.type === 'batch' ? [e] : []));
    expect(batches).toHaveLength(3);
    for (const b of batches) {
      expect(b.orders).toBe(1);
      // the stopwatch moves 0.5 ms a read: the tick, the batch leaving the batcher, the hand-over
      expect(b.timings.tickToTradeSeconds).toBeGreaterThan(0);
      expect(b.timings.queuedSeconds).toBeGreaterThan(0);
      expect(b.timings.prepareSeconds).toBeGreaterThan(0);
      expect(b.timings.queuedSeconds + b.timings.prepareSeconds).toBeCloseTo(b.timings.tickToTradeSeconds, 12);
    }
    const denials = seen.flatMap((e) => (e.type === 'order' && e.event.type === 'OrderDenied' ? [e.event] : []));
    expect(denials.map((d) => d.code)).toEqual(['PRICE_OFF_TICK', 'PRICE_OFF_TICK', 'PRICE_OFF_TICK']);
    expect(seen.some((e) => e.type === 'order' && e.event.type === 'OrderAccepted')).toBe(true);

    // unsubscribed: hears nothing more
    off();
    const before = seen.length;
    r.tick(1);
    expect(seen).toHaveLength(before);
  });

  it('the metrics hold the run tick-to-trade histogram, and the summary is read from them', () => {
    const r = run();
    r.engine.start();
    r.tick(4);
    const h = r.engine.metrics.histogram(ENGINE_METRICS.tickToTrade);
    expect(h?.count).toBe(4);
    expect(h!.sum).toBeGreaterThan(0);
    expect(h!.quantiles.p50).toBeGreaterThan(0);
    expect(h!.buckets.at(-1)).toEqual({ le: Infinity, count: 4 });
    const s = r.engine.summary();
    expect(s.batches).toBe(4);
    expect(s.ordersSubmitted).toBe(r.engine.metrics.value(ENGINE_METRICS.submitted));
    expect(s.ordersDenied).toEqual({ PRICE_OFF_TICK: 4 });
    expect(r.engine.metrics.value(ENGINE_METRICS.denied, { code: 'PRICE_OFF_TICK' })).toBe(4);
    expect(s.ordersDeniedTotal).toBe(4);
    // no series carries an order id as a label value
    const snap = r.engine.metrics.snapshot();
    for (const series of [...snap.counters, ...snap.gauges, ...snap.histograms]) {
      expect(series.name).toMatch(/^clobot_[a-z_]+$/);
      for (const value of Object.values(series.labels)) expect(value).not.toMatch(/feedf00d|0x/);
    }
  });

  it('many listeners in order: the store journal first (batches are not journaled), then the run hook, then later ones', () => {
    const store = RunStore.open(dir.path('bus.sqlite'), { create: true });
    try {
      const order: string[] = [];
      const r = run({ store, onEvent: (e) => order.push(`hook:${e.type}`) });
      r.engine.bus.subscribe((e) => order.push(`late:${e.type}`));
      r.engine.start();
      r.tick(1);
      expect(order.filter((o) => o.startsWith('hook:'))).toEqual(order.filter((o) => o.startsWith('late:')).map((o) => o.replace('late:', 'hook:')));
      expect(order).toContain('hook:batch');
      const journal = [...store.journalEvents()].map((row) => row.type);
      expect(journal).toContain('OrderDenied');
      expect(journal).toContain('OrderAccepted');
      expect(journal.some((t) => t.toLowerCase().includes('batch'))).toBe(false);
    } finally {
      store.close();
    }
  });

  it('an EventBus delivers to every listener, survives an unsubscribe during an emit, and streams as an Observable', () => {
    const bus = new EventBus();
    const a: string[] = [];
    const b: string[] = [];
    const offA = bus.subscribe((e) => {
      a.push(e.type);
      offA();
    });
    bus.subscribe((e) => b.push(e.type));
    const viaRx: string[] = [];
    const sub = bus.events$().subscribe((e) => viaRx.push(e.type));
    const event: EngineEvent = { type: 'heartbeat', health: 'healthy', at: 1 };
    bus.emit(event);
    bus.emit(event);
    expect(a).toEqual(['heartbeat']);
    expect(b).toEqual(['heartbeat', 'heartbeat']);
    expect(viaRx).toEqual(['heartbeat', 'heartbeat']);
    sub.unsubscribe();
    expect(bus.size).toBe(1);
  });
});

const tmp = new TempDir();
afterAll(() => tmp.remove());

describe('tick-to-trade in a backtest', () => {
  it('the backtest engine metrics hold one observation per batch', async () => {
    const config = backtestConfig(
      tmp,
      `
mode: backtest
name: ttt
data:
  markets: { conditionIds: ["${BT_COND}"] }
strategies:
  - id: quoter
    module: ./quoter.ts
execution:
  maxBatchWaitMs: 5
backtest:
  balance: 1000
`,
    );
    const quoter = defineStrategy({
      name: 'quoter',
      onBook: ({ market }): OrderIntent[] => [{ kind: 'place', tokenId: market.tokenId, side: 'BUY', price: 300_000, size: 5 * M, postOnly: true }],
    });
    let batches = -1;
    let observed = -1;
    await runBacktest({
      config,
      data: { name: 'ttt.jsonl', header: header(), events: () => [0, 1, 2].map((i) => bookEvent(BT_T0 + i * 1000, [['0.45', '100']], [['0.55', '100']])) },
      definitions: { quoter },
      onStopped: (engine) => {
        batches = engine.summary().batches;
        observed = engine.metrics.histogram(ENGINE_METRICS.tickToTrade)?.count ?? 0;
      },
    });
    expect(batches).toBe(3);
    expect(observed).toBe(3);
  });
});
