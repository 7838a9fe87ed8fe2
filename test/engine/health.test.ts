import { describe, expect, it } from 'vitest';
import { Subject, of, throwError, type Observable } from 'rxjs';
import { z } from 'zod';
import { SimulatedClock } from '../../src/core/clock.ts';
import { OutcomeUnknownError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { EventBus } from '../../src/engine/event-bus.ts';
import { Halts } from '../../src/engine/halts.ts';
import { assess, describeHealth, describeReason, HEALTH_REASON_KINDS, reasonEffect, worsened, type HealthReason, type HealthState } from '../../src/engine/health.ts';
import { HealthMonitor } from '../../src/engine/health-monitor.ts';
import type { EngineEvent } from '../../src/engine/ports.ts';
import { TradingEngine, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import type { ExecutionClient, PreparedOrder, SubmitResult } from '../../src/execution/execution-client.ts';
import type { HeartbeatHealth } from '../../src/execution/heartbeat.ts';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { book, COND, edgeWith, M, request, SETTINGS, silent, simulatedEdge, T0, YES, YES_TOKEN } from './parts.ts';

/**
 * Issue 23 point 1: the run's health and permission, with a reason for each. Every reason is
 * taken on and off through the monitor over real parts (halts, the order tracker, the bus, a
 * simulated clock); then through the engine itself on the simulated edge: not started, no data
 * yet, normal; a halt and a kill switch; a heartbeat late then lost; orders of unknown outcome
 * past the limit; a faulted strategy; a raised reason; stopped.
 */

function monitorOn(limitMs = 30_000) {
  const clock = new SimulatedClock(T0);
  const bus = new EventBus();
  const halts = new Halts();
  const tracker = new OrderTracker();
  const reconciling = new Map<string, number>();
  const strategies: Record<string, string> = { a: 'RUNNING' };
  let heartbeat: HeartbeatHealth | undefined;
  const changes: Extract<EngineEvent, { type: 'HealthChanged' }>[] = [];
  bus.subscribe((e) => {
    if (e.type === 'HealthChanged') changes.push(e);
  });
  const monitor = new HealthMonitor({ clock, bus, heartbeat: () => heartbeat, halts, tracker, reconciling, strategies: () => strategies, submitUnknownLimitMs: limitMs });
  bus.subscribe(monitor.listener);
  const kinds = (): string[] => monitor.current().reasons.map((r) => r.kind);
  return {
    clock,
    bus,
    halts,
    tracker,
    reconciling,
    strategies,
    monitor,
    changes,
    kinds,
    setHeartbeat(h: HeartbeatHealth | undefined) {
      heartbeat = h;
      bus.emit({ type: 'heartbeat', health: h ?? 'idle', at: clock.now() });
    },
    running() {
      monitor.started();
      monitor.marketData();
    },
  };
}

const pair = (s: HealthState): string => `${s.health}/${s.permission}`;

describe('health: what each reason makes of the run', () => {
  it('every kind has an effect and a line; the state is the worst of its reasons, worst first', () => {
    const samples: HealthReason[] = [
      { kind: 'notStarted', since: 0 },
      { kind: 'stopped', since: 0 },
      { kind: 'awaitingMarketData', since: 0 },
      { kind: 'heartbeatPending', since: 0 },
      { kind: 'heartbeatLate', since: 0 },
      { kind: 'heartbeatLost', since: 0 },
      { kind: 'feedSilent', connection: 2, silentMs: 31_000, tokens: 40, since: 0 },
      { kind: 'marketReconciling', conditionId: COND, orders: 2, since: 0 },
      { kind: 'submitUnknown', orders: 1, oldestMs: 45_000, limitMs: 30_000, since: 0 },
      { kind: 'killSwitch', reason: '5 rejects in a row', since: 0 },
      { kind: 'halt', name: 'manual', reason: 'drill', latched: false, since: 0 },
      { kind: 'flattening', bandCents: 5, since: 0 },
      { kind: 'strategyFaulted', strategyId: 'mm', since: 0 },
      { kind: 'venueRestricted', state: 'cancelOnly', retryAfterMs: 10_000, since: 0 },
      { kind: 'rateBudgetFallback', detail: 'redis unreachable', since: 0 },
    ];
    expect(samples.map((r) => r.kind)).toEqual(HEALTH_REASON_KINDS);
    for (const r of samples) expect(describeReason(r).length).toBeGreaterThan(5);
    expect(samples.map((r) => `${r.kind} ${pair({ ...reasonEffect(r), reasons: [], since: 0 })}`)).toEqual([
      'notStarted unknown/unknown',
      'stopped halted/blocked',
      'awaitingMarketData unknown/unknown',
      'heartbeatPending unknown/unknown',
      'heartbeatLate degraded/cancelOnly',
      'heartbeatLost atRisk/cancelOnly',
      'feedSilent degraded/allowed',
      'marketReconciling degraded/allowed',
      'submitUnknown atRisk/allowed',
      'killSwitch halted/blocked',
      'halt halted/blocked',
      'flattening halted/reduceOnly',
      'strategyFaulted degraded/allowed',
      'venueRestricted atRisk/cancelOnly',
      'rateBudgetFallback degraded/allowed',
    ]);
    expect(assess([])).toEqual({ health: 'normal', permission: 'allowed', reasons: [] });
    const mixed = assess([samples[6]!, samples[4]!, samples[2]!]);
    expect(mixed).toMatchObject({ health: 'degraded', permission: 'cancelOnly' });
    expect(mixed.reasons.map((r) => r.kind)).toEqual(['heartbeatLate', 'feedSilent', 'awaitingMarketData']);
    // a flatten under way: its reduce-only SELLs pass every halt, so the halts read reduceOnly; what
    // stops them still (a late heartbeat, the engine stopped) narrows it further
    expect(pair({ ...assess([samples[10]!, samples[9]!, samples[11]!]), since: 0 })).toBe('halted/reduceOnly');
    expect(assess([samples[11]!, samples[10]!]).reasons.map((r) => r.kind)).toEqual(['flattening', 'halt']);
    expect(pair({ ...assess([samples[10]!, samples[11]!, samples[4]!]), since: 0 })).toBe('halted/cancelOnly');
    expect(pair({ ...assess([samples[11]!, samples[1]!]), since: 0 })).toBe('halted/blocked');
    // unknown is never taken as healthy: it is worse than normal, better than degraded
    expect(worsened({ health: 'normal', permission: 'allowed' }, { health: 'unknown', permission: 'allowed' })).toBe(true);
    expect(worsened({ health: 'degraded', permission: 'allowed' }, { health: 'unknown', permission: 'unknown' })).toBe(true);
    expect(worsened({ health: 'halted', permission: 'blocked' }, { health: 'normal', permission: 'allowed' })).toBe(false);
  });
});

describe('HealthMonitor over real parts', () => {
  it('unknown until started and fed; normal once both; every change is one HealthChanged on the bus', () => {
    const w = monitorOn();
    expect(pair(w.monitor.current())).toBe('unknown/unknown');
    expect(w.kinds()).toEqual(['notStarted']);
    w.monitor.started();
    expect(w.kinds()).toEqual(['awaitingMarketData']);
    w.clock.advanceBy(500);
    w.monitor.marketData();
    expect(w.monitor.current()).toEqual({ health: 'normal', permission: 'allowed', reasons: [], since: T0 + 500 });
    // a change of the reasons alone is an event too (the dashboard shows the reasons); a look that finds nothing new is none
    expect(w.changes.map((c) => `${pair(c.previous)} -> ${pair(c.state)}: ${c.state.reasons.map((r) => r.kind).join()}`)).toEqual([
      'unknown/unknown -> unknown/unknown: awaitingMarketData',
      'unknown/unknown -> normal/allowed: ',
    ]);
    w.monitor.check();
    expect(w.changes).toHaveLength(2);
  });

  it('heartbeat pending, late, lost, then healthy again', () => {
    const w = monitorOn();
    w.running();
    w.setHeartbeat('idle');
    expect(pair(w.monitor.current())).toBe('unknown/unknown');
    w.setHeartbeat('healthy');
    expect(pair(w.monitor.current())).toBe('normal/allowed');
    w.setHeartbeat('late');
    expect(w.kinds()).toEqual(['heartbeatLate']);
    expect(pair(w.monitor.current())).toBe('degraded/cancelOnly');
    w.setHeartbeat('lost');
    expect(w.kinds()).toEqual(['heartbeatLost']);
    expect(pair(w.monitor.current())).toBe('atRisk/cancelOnly');
    w.setHeartbeat('healthy');
    expect(pair(w.monitor.current())).toBe('normal/allowed');
    expect(w.changes.slice(-5).map((c) => c.state.health)).toEqual(['unknown', 'normal', 'degraded', 'atRisk', 'normal']);
  });

  it('each named halt is its own reason, the kill switch apart; lifting one leaves the other', () => {
    const w = monitorOn();
    w.running();
    w.halts.raise('file', 'HALT exists', w.clock.now());
    w.halts.raise('killSwitch', '5 rejects in a row', w.clock.now());
    w.bus.emit({ type: 'lifecycle', event: { type: 'Halted', name: 'killSwitch', reason: 'x', halts: w.halts.names(), tsInit: w.clock.now() } });
    expect(pair(w.monitor.current())).toBe('halted/blocked');
    expect(w.monitor.current().reasons).toMatchObject([
      { kind: 'halt', name: 'file', reason: 'HALT exists', latched: false },
      { kind: 'killSwitch', reason: '5 rejects in a row' },
    ]);
    expect(w.halts.lift('file')).toBe('lifted');
    expect(w.kinds()).toEqual(['killSwitch']);
    expect(describeHealth(w.monitor.current())).toBe('halted/blocked: kill switch: 5 rejects in a row');
  });

  it('a market reconciling, then orders of unknown outcome past the limit (atRisk), and back', () => {
    const w = monitorOn(10_000);
    w.running();
    const record = w.tracker.add(request(), w.clock.now());
    w.tracker.transition(record, 'SUBMIT_UNKNOWN', w.clock.now());
    w.reconciling.set(COND, 1);
    w.bus.emit({ type: 'order', strategyId: 's1', event: { type: 'OrderSubmitUnknown', clientOrderId: record.request.clientOrderId, orderId: '0x1', tsInit: w.clock.now() } });
    expect(w.changes.at(-1)?.state.reasons).toMatchObject([{ kind: 'marketReconciling', conditionId: COND, orders: 1 }]);
    expect(pair(w.monitor.current())).toBe('degraded/allowed');
    // under the limit, time alone changes nothing; past it, the periodic look finds it
    w.clock.advanceBy(9_999);
    expect(w.kinds()).toEqual(['marketReconciling']);
    w.clock.advanceBy(1);
    w.monitor.check();
    expect(w.changes.at(-1)?.state).toMatchObject({ health: 'atRisk', permission: 'allowed' });
    expect(w.monitor.current().reasons[0]).toMatchObject({ kind: 'submitUnknown', orders: 1, limitMs: 10_000, oldestMs: 10_000, since: T0 + 10_000 });
    // the venue answered: the order is known again, the market no longer reconciling
    w.tracker.transition(record, 'LIVE', w.clock.now());
    w.reconciling.delete(COND);
    w.bus.emit({ type: 'order', strategyId: 's1', event: { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: '0x1', tsInit: w.clock.now() } });
    expect(w.changes.at(-1)?.state).toMatchObject({ health: 'normal', permission: 'allowed', reasons: [] });
  });

  it('a faulted strategy degrades the run until it is started again', () => {
    const w = monitorOn();
    w.running();
    w.strategies['a'] = 'FAULTED';
    w.bus.emit({ type: 'fault', strategyId: 'a', message: 'boom', at: w.clock.now() });
    expect(w.changes.at(-1)?.state).toMatchObject({ health: 'degraded', reasons: [{ kind: 'strategyFaulted', strategyId: 'a' }] });
    w.strategies['a'] = 'RUNNING';
    expect(pair(w.monitor.current())).toBe('normal/allowed');
  });

  it('raised reasons (feed silent per connection, venue restricted, rate-budget fallback) hold until cleared, keeping when they began', () => {
    const w = monitorOn();
    w.running();
    w.monitor.raise({ kind: 'feedSilent', connection: 1, silentMs: 30_000, tokens: 10 });
    w.clock.advanceBy(1_000);
    w.monitor.raise({ kind: 'feedSilent', connection: 2, silentMs: 30_000, tokens: 12 });
    w.monitor.raise({ kind: 'feedSilent', connection: 1, silentMs: 31_000, tokens: 10 });
    expect(w.monitor.current().reasons).toMatchObject([
      { kind: 'feedSilent', connection: 1, silentMs: 31_000, since: T0 },
      { kind: 'feedSilent', connection: 2, since: T0 + 1_000 },
    ]);
    w.monitor.clear('feedSilent', 1);
    expect(w.monitor.current().reasons).toMatchObject([{ kind: 'feedSilent', connection: 2 }]);
    w.monitor.raise({ kind: 'venueRestricted', state: 'restarting', retryAfterMs: 5_000 });
    expect(pair(w.monitor.current())).toBe('atRisk/blocked');
    w.monitor.raise({ kind: 'venueRestricted', state: 'postOnly' });
    expect(pair(w.monitor.current())).toBe('degraded/allowed');
    w.monitor.raise({ kind: 'rateBudgetFallback', detail: 'redis unreachable' });
    expect(w.monitor.has('rateBudgetFallback')).toBe(true);
    w.monitor.clear('venueRestricted');
    w.monitor.clear('feedSilent');
    w.monitor.clear('rateBudgetFallback');
    expect(pair(w.monitor.current())).toBe('normal/allowed');
    w.monitor.stopped();
    expect(w.monitor.current()).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'stopped' }] });
  });
});

/** An engine on the simulated edge (paper kind) quoting one bid on every book, with `edge` replacing parts of the edge. */
function engineOn(edge: (base: ReturnType<typeof simulatedEdge>) => ExecutionClient = (b) => b, options: { heartbeat?: boolean; limitMs?: number } = {}) {
  const clock = new SimulatedClock(T0);
  const base = simulatedEdge(clock);
  const events = new Subject<MarketEvent>();
  let n = 0;
  const quoter = defineStrategy({
    name: 'quoter',
    params: z.strictObject({}),
    onBook: () => ({ kind: 'quote', tokenId: YES, bids: [{ price: 400_000 + (n % 2) * 10_000, size: 5 * M }], asks: [] }),
  });
  const strategies: EngineStrategy[] = [{ id: 'q', definition: quoter, params: {}, tokenIds: [YES] }];
  const engine = new TradingEngine({
    clock,
    execution: edge(base),
    marketEvents$: events,
    tokens: [YES_TOKEN],
    strategies,
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000 } },
    settings: SETTINGS,
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log: silent,
    heartbeat: options.heartbeat ? { intervalMs: 1_000 } : undefined,
    health: { submitUnknownLimitMs: options.limitMs ?? 30_000, checkEveryMs: 1_000 },
  });
  const changes: HealthState[] = [];
  engine.bus.subscribe((e) => {
    if (e.type === 'HealthChanged') changes.push(e.state);
  });
  const tick = () => {
    const at = clock.now();
    const b = book(at, [[450_000 + (n++ % 2) * 10_000, 100 * M]], [[550_000, 100 * M]]);
    base.onMarketEvent(b);
    events.next(b);
    clock.advanceBy(100);
  };
  return { engine, clock, base, tick, changes };
}

describe('engine.health()', () => {
  it('unknown before the start and before data; normal trading; halted/blocked on a halt and the kill switch; halted at the stop', async () => {
    const w = engineOn();
    expect(w.engine.health()).toMatchObject({ health: 'unknown', permission: 'unknown', reasons: [{ kind: 'notStarted' }] });
    w.engine.start();
    expect(w.engine.health().reasons.map((r) => r.kind)).toEqual(['awaitingMarketData']);
    w.tick();
    expect(w.engine.health()).toMatchObject({ health: 'normal', permission: 'allowed', reasons: [] });

    w.engine.command({ type: 'halt', name: 'manual', reason: 'drill' });
    expect(w.changes.at(-1)).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'halt', name: 'manual', reason: 'drill' }] });
    w.engine.command({ type: 'resume', name: 'manual' });
    expect(w.changes.at(-1)).toMatchObject({ health: 'normal', permission: 'allowed', reasons: [] });

    w.engine.command({ type: 'halt', name: 'killSwitch', reason: 'kill switch: drill' });
    expect(w.engine.health()).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'killSwitch' }] });
    // a latched halt stays: so does the reason
    w.engine.command({ type: 'resume', name: 'killSwitch' });
    expect(w.engine.health().reasons.map((r) => r.kind)).toEqual(['killSwitch']);

    const stopping = w.engine.stop();
    w.clock.advanceBy(100);
    await stopping;
    expect(w.engine.health().reasons.map((r) => r.kind)).toEqual(['stopped', 'killSwitch']);
  });

  it('a flatten: halted/reduceOnly while it is under way (its SELLs pass the halt), halted/blocked once it ended and the halt stays', () => {
    const w = engineOn();
    w.engine.start();
    w.tick();
    expect(w.engine.tracker.open().length).toBeGreaterThan(0);
    const before = w.changes.length;
    const started = w.engine.command({ type: 'flatten', bandCents: 3 });
    expect(started).toMatchObject({ ok: true, phase: 'started' });
    expect(w.engine.health()).toMatchObject({ health: 'halted', permission: 'reduceOnly' });
    expect(w.engine.health().reasons).toMatchObject([
      { kind: 'flattening', bandCents: 3, since: T0 + 100 },
      { kind: 'halt', name: 'manual', reason: 'flatten' },
    ]);
    expect(describeHealth(w.engine.health())).toContain('only orders that reduce positions go out');
    // straight to reduceOnly: never blocked while it is under way
    expect(w.changes.slice(before).map(pair)).toEqual(['halted/reduceOnly']);
    let verified = false;
    w.engine.bus.subscribe((e) => {
      if (e.type === 'command' && e.result.phase === 'verified') verified = true;
    });
    for (let i = 0; i < 100 && !verified; i++) w.clock.advanceBy(100);
    expect(verified).toBe(true);
    expect(w.engine.health()).toMatchObject({ health: 'halted', permission: 'blocked', reasons: [{ kind: 'halt', name: 'manual', reason: 'flatten' }] });
    expect(w.changes.slice(before).map(pair)).toEqual(['halted/reduceOnly', 'halted/blocked']);
  });

  it('the heartbeat: pending until acknowledged, late and lost when the venue stops answering, normal when it answers again', () => {
    let answering = true;
    let beats = 0;
    const w = engineOn((b) => edgeWith(b, { heartbeat: (): Observable<string> => (answering ? of(`hb${++beats}`) : throwError(() => new Error('venue down'))) }), { heartbeat: true });
    w.engine.start();
    w.tick();
    expect(w.engine.health()).toMatchObject({ health: 'normal', permission: 'allowed' });
    answering = false;
    w.clock.advanceBy(1_600);
    expect(w.engine.health()).toMatchObject({ health: 'degraded', permission: 'cancelOnly', reasons: [{ kind: 'heartbeatLate' }] });
    w.clock.advanceBy(10_000);
    expect(w.engine.health()).toMatchObject({ health: 'atRisk', permission: 'cancelOnly', reasons: [{ kind: 'heartbeatLost' }] });
    answering = true;
    w.clock.advanceBy(1_000);
    expect(w.engine.health().health).toBe('normal');
    expect(w.changes.map((s) => s.health)).toEqual(['unknown', 'normal', 'degraded', 'atRisk', 'normal']);
  });

  it('a post whose outcome stays unknown: its market reconciling, then atRisk past the limit (found by the periodic look)', () => {
    let stall = true;
    const w = engineOn(
      (b) =>
        edgeWith(b, {
          submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]> {
            if (!stall) return b.submit(orders);
            stall = false;
            return throwError(() => new OutcomeUnknownError('timed out', orders.map((o) => o.orderId)));
          },
          // the venue cannot be asked what became of it
          order: () => throwError(() => new Error('venue down')),
          openOrders: () => throwError(() => new Error('venue down')),
        }),
      { limitMs: 20_000 },
    );
    w.engine.start();
    w.tick();
    w.clock.advanceBy(50);
    expect(w.engine.health()).toMatchObject({ health: 'degraded', reasons: [{ kind: 'marketReconciling', conditionId: COND, orders: 1 }] });
    // the lookups gave up: the order is left SUBMIT_UNKNOWN, its market open again
    w.clock.advanceBy(5_000);
    expect(w.engine.health()).toMatchObject({ health: 'normal', permission: 'allowed' });
    w.clock.advanceBy(16_000);
    expect(w.changes.at(-1)).toMatchObject({ health: 'atRisk', permission: 'allowed' });
    expect(w.changes.at(-1)!.reasons.map((r) => r.kind)).toContain('submitUnknown');
  });

  it('a part outside the engine raises and clears its reason', () => {
    const w = engineOn();
    w.engine.start();
    w.tick();
    w.engine.healthReason({ kind: 'venueRestricted', state: 'cancelOnly' });
    expect(w.changes.at(-1)).toMatchObject({ health: 'atRisk', permission: 'cancelOnly', reasons: [{ kind: 'venueRestricted', state: 'cancelOnly', since: w.clock.now() }] });
    w.engine.clearHealthReason('venueRestricted');
    expect(w.changes.at(-1)).toMatchObject({ health: 'normal', permission: 'allowed' });
  });
});
