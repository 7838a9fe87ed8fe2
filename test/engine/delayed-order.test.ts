import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { OrderEvent } from '../../src/core/events.ts';
import { FeeRate } from '../../src/core/money.ts';
import { EngineDesk } from '../../src/engine/engine-desk.ts';
import { FillBook } from '../../src/engine/fill-book.ts';
import { OrderCanceller } from '../../src/engine/order-canceller.ts';
import { OrderSubmitter } from '../../src/engine/order-submitter.ts';
import { Reconciler } from '../../src/engine/reconciler.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { constantLatency } from '../../src/sim/edge/latency-model.ts';
import { queueModel } from '../../src/sim/edge/queue-model.ts';
import { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { book, COND, M, request, SETTINGS, silent, T0, YES } from './parts.ts';

/**
 * A marketable order the venue holds for a matching delay (the paper/backtest edge here, the
 * sandbox in test/engine/e2e/settlement-and-delay.test.ts): the engine keeps it LIVE, posts it
 * once, and learns by lookups what became of it: filled, or UNMATCHED (cancelled to the strategy).
 */
function delayedWorld() {
  const clock = new SimulatedClock(T0);
  const edge = new SimulatedExecutionClient({
    kind: 'paper',
    clock,
    tokens: [{ tokenId: YES, conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, fees: { maker: new FeeRate(0), taker: new FeeRate(0) } }],
    latency: constantLatency(5, 5),
    queue: queueModel('conservative'),
    balance: 10_000 * M,
    matchingDelayMs: 2_000,
  });
  edge.onMarketEvent(book(T0, [[450_000, 100 * M]], [[550_000, 100 * M]]));
  const desk = new EngineDesk({ clock, execution: edge, log: silent, settings: SETTINGS });
  const events: OrderEvent[] = [];
  desk.listen({ orderEvent: (_id, e) => events.push(e), fill: () => undefined });
  const portfolio = new Portfolio(10_000 * M);
  const fills = new FillBook(desk, portfolio);
  edge.fills$.subscribe((f) => fills.onVenueFill(f));
  const canceller = new OrderCanceller(desk);
  const reconciler = new Reconciler(desk, canceller, 'feedf00d');
  const submitter = new OrderSubmitter(desk, canceller, reconciler);
  canceller.start();
  submitter.start();
  return { clock, edge, desk, events, portfolio, submitter };
}

describe('a delayed order in the engine', () => {
  it('stays LIVE through the delay (a FAK is not taken as killed), is sent once and ends FILLED', () => {
    const w = delayedWorld();
    const record = w.desk.tracker.add(request({ price: 550_000, orderType: 'FAK' }), T0);
    w.submitter.submit([record]);
    w.clock.advanceBy(100);
    expect(record.status).toBe('LIVE');
    expect(w.events.map((e) => e.type)).toEqual(['OrderAccepted']);
    w.clock.advanceBy(5_000);
    expect(record.status).toBe('FILLED');
    expect(w.portfolio.position(YES).size).toBe(10 * M);
    expect(w.edge.stats.orders).toBe(1);
    expect(w.desk.counters.submitted).toBe(1);
  });

  it('is cancelled to the strategy when it ends UNMATCHED, never sent again', () => {
    const w = delayedWorld();
    const record = w.desk.tracker.add(request({ price: 550_000, orderType: 'FOK' }), T0);
    w.submitter.submit([record]);
    w.clock.advanceBy(100);
    expect(record.status).toBe('LIVE');
    // the ask moves away while the order waits: the FOK cannot fill when its delay is over
    w.edge.onMarketEvent(book(w.clock.now(), [[450_000, 100 * M]], [[600_000, 100 * M]]));
    w.clock.advanceBy(5_000);
    expect(record.status).toBe('CANCELED');
    expect(w.events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderCanceled']);
    expect(w.events[1]).toMatchObject({ reason: 'unmatched after the matching delay' });
    expect(w.portfolio.position(YES).size).toBe(0);
    expect(w.desk.counters.submitted).toBe(1);
  });
});
