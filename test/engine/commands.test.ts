import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { z } from 'zod';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { LifecycleEvent, MarketEvent } from '../../src/core/events.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { watchHaltFile } from '../../src/app/halt-file.ts';
import { ENGINE_METRICS } from '../../src/engine/engine-metrics.ts';
import { TradingEngine, type EngineLogger, type EngineStrategy } from '../../src/engine/trading-engine.ts';
import type { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/api.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import { tempDir } from '../store/helpers.ts';
import { book, M, SETTINGS, simulatedEdge, T0, YES, YES_TOKEN } from './parts.ts';

/**
 * Issue 20 point 4: named halts and commands. A halt cancels our resting orders (unless the run
 * keeps them) and the strategies hear Halted and Resumed, both logged; halts lift by name (the
 * halt file's removal leaves a signal halt on; a latched one refuses); a strategy stopped by
 * command stops alone; params the definition marks updatable change live, others are refused
 * naming the key; every command is journaled in the store.
 */

const TOKENS = [YES_TOKEN];

interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLog(lines: LogLine[]): EngineLogger {
  const at =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, msg, fields });
    };
  const log: EngineLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => log };
  return log;
}

/** Quotes one resting buy at `price` (params.price, 0.40 by default) on every book; records what it hears. */
function quoter(heard: LifecycleEvent[], seen: number[] = []) {
  return defineStrategy({
    name: 'quoter',
    params: z.strictObject({ price: z.number().min(0.01).max(0.99).default(0.4), size: z.number().default(5) }),
    updatable: ['price'],
    onBook: ({ ctx }): OrderIntent => {
      seen.push(ctx.params.price);
      return { kind: 'quote', tokenId: YES, bids: [{ price: Math.round(ctx.params.price * M), size: ctx.params.size * M }], asks: [] };
    },
    onLifecycle: ({ event }) => {
      heard.push(event);
    },
  });
}

function world(strategies: { id: string; definition: StrategyDefinition; params?: Record<string, unknown> }[], extra: { cancelOnHalt?: boolean; store?: RunStore; maxConsecutiveRejects?: number } = {}) {
  const clock = new SimulatedClock(T0);
  const events = new Subject<MarketEvent>();
  const edge = simulatedEdge(clock);
  const lines: LogLine[] = [];
  const specs: EngineStrategy[] = strategies.map((s) => {
    const def = s.definition;
    const written = s.params ?? {};
    return { id: s.id, definition: def, params: def.params ? def.params.parse(written) : written, configParams: written, tokenIds: [YES] };
  });
  const engine = new TradingEngine({
    clock,
    execution: edge,
    marketEvents$: events,
    tokens: TOKENS,
    strategies: specs,
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000, maxConsecutiveRejects: extra.maxConsecutiveRejects } },
    settings: SETTINGS,
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log: recordingLog(lines),
    cancelOnHalt: extra.cancelOnHalt,
    persistence: extra.store ? storePersistence(extra.store) : undefined,
  });
  let n = 0;
  const tick = () => {
    const at = clock.now();
    edge.onMarketEvent(book(at, [[450_000 + (n % 2) * 10_000, 100 * M]], [[550_000, 100 * M]]));
    events.next(book(at, [[450_000 + (n++ % 2) * 10_000, 100 * M]], [[550_000, 100 * M]]));
    clock.advanceBy(100);
  };
  return { engine, clock, edge, tick, lines };
}

function resting(edge: SimulatedExecutionClient, clock: SimulatedClock): number {
  let n = -1;
  edge.openOrders().subscribe((orders) => (n = orders.length));
  clock.advanceBy(20);
  return n;
}

const dir = tempDir();

describe('named halts', () => {
  it('a halt cancels our resting orders, strategies hear Halted and then Resumed, and both are logged', () => {
    const heard: LifecycleEvent[] = [];
    const w = world([{ id: 'q', definition: quoter(heard) }]);
    w.engine.start();
    w.tick();
    expect(resting(w.edge, w.clock)).toBe(1);

    const halted = w.engine.command({ type: 'halt', name: 'manual', reason: 'drill' });
    expect(halted).toMatchObject({ ok: true, command: 'halt', cancelled: 1, halts: ['manual'] });
    w.clock.advanceBy(100);
    expect(resting(w.edge, w.clock)).toBe(0);
    expect(heard.map((e) => e.type)).toEqual(['Halted']);
    expect(heard[0]).toMatchObject({ type: 'Halted', name: 'manual', reason: 'drill', halts: ['manual'] });
    // the strategy goes on asking; every order is denied, none rests
    w.tick();
    expect(resting(w.edge, w.clock)).toBe(0);
    expect(w.engine.summary().ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);
    expect(w.engine.metrics.value(ENGINE_METRICS.halted, { halt: 'manual' })).toBe(1);

    expect(w.engine.command({ type: 'resume', name: 'manual' })).toMatchObject({ ok: true, halts: [] });
    expect(heard.map((e) => e.type)).toEqual(['Halted', 'Resumed']);
    w.tick();
    expect(resting(w.edge, w.clock)).toBe(1);
    expect(w.engine.metrics.value(ENGINE_METRICS.halted, { halt: 'manual' })).toBe(0);
    expect(w.lines.filter((l) => l.msg === 'trading halted' || l.msg === 'trading resumed').map((l) => [l.level, l.msg, l.fields?.['halt']])).toEqual([
      ['warn', 'trading halted', 'manual'],
      ['info', 'trading resumed', 'manual'],
    ]);
  });

  it('execution.cancelOnHalt false keeps resting orders through a halt', () => {
    const heard: LifecycleEvent[] = [];
    const w = world([{ id: 'q', definition: quoter(heard) }], { cancelOnHalt: false });
    w.engine.start();
    w.tick();
    expect(w.engine.halt('keep them')).toMatchObject({ ok: true, cancelled: 0 });
    w.clock.advanceBy(100);
    expect(resting(w.edge, w.clock)).toBe(1);
    expect(heard.map((e) => e.type)).toEqual(['Halted']);
  });

  it('the halt file lifts only its own halt: a signal halt stays on; a latched halt refuses to lift', () => {
    const heard: LifecycleEvent[] = [];
    const w = world([{ id: 'q', definition: quoter(heard) }]);
    const haltFile = dir.path('HALT');
    const watch = watchHaltFile(haltFile, w.engine, w.clock);
    w.engine.start();
    w.engine.command({ type: 'halt', name: 'signal', reason: 'SIGUSR2' });
    writeFileSync(haltFile, 'maintenance\n');
    w.clock.advanceBy(1_000);
    expect(w.engine.halts.map((h) => h.name)).toEqual(['signal', 'file']);
    rmSync(haltFile);
    w.clock.advanceBy(1_000);
    expect(existsSync(haltFile)).toBe(false);
    expect(w.engine.halts.map((h) => h.name)).toEqual(['signal']);
    expect(w.engine.halted).toBe('SIGUSR2');
    expect(heard.map((e) => e.type)).toEqual(['Halted', 'Halted']);
    w.tick();
    expect(w.engine.summary().ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);
    expect(w.lines.some((l) => l.msg === 'halt lifted, still halted' && l.fields?.['halt'] === 'file')).toBe(true);

    // a fault halt is latched: a resume is refused and trading stays halted
    w.engine.command({ type: 'halt', name: 'fault', reason: 'store write failed' });
    expect(w.engine.command({ type: 'resume', name: 'fault' })).toMatchObject({ ok: false, message: expect.stringMatching(/latched/) });
    expect(w.engine.command({ type: 'resume', name: 'signal' })).toMatchObject({ ok: true, halts: ['fault'] });
    expect(w.engine.halted).toBe('store write failed');
    expect(heard.map((e) => e.type)).not.toContain('Resumed');
    watch.unsubscribe();
  });
});

describe('the kill switch', () => {
  it('a kill-switch denial raises the latched killSwitch halt: resting orders cancelled, strategies told, no resume', () => {
    const heard: LifecycleEvent[] = [];
    // a quote that rests, and on each book a FOK buy far below the ask: the venue kills it (a reject)
    const rejecter = defineStrategy({
      name: 'rejecter',
      onBook: (): OrderIntent[] => [{ kind: 'place', tokenId: YES, side: 'BUY', price: 100_000, size: 5 * M, orderType: 'FOK' }],
      onLifecycle: ({ event }) => {
        heard.push(event);
      },
    });
    const w = world([{ id: 'q', definition: quoter([]) }, { id: 'r', definition: rejecter }], { maxConsecutiveRejects: 1 });
    w.engine.start();
    w.tick();
    w.clock.advanceBy(100);
    expect(w.engine.summary().ordersRejected).toBe(1);
    expect(resting(w.edge, w.clock)).toBe(1);
    // the next orders meet the kill switch: denied, and the halt is raised
    w.tick();
    expect(w.engine.halts.map((h) => [h.name, h.latched])).toEqual([['killSwitch', true]]);
    w.clock.advanceBy(100);
    expect(resting(w.edge, w.clock)).toBe(0);
    expect(heard.filter((e) => e.type === 'Halted').map((e) => e.type === 'Halted' && e.name)).toEqual(['killSwitch']);
    expect(w.engine.command({ type: 'resume', name: 'killSwitch' }).ok).toBe(false);
    expect(w.lines.some((l) => l.msg === 'trading halted' && l.fields?.['halt'] === 'killSwitch')).toBe(true);
  });
});

describe('strategy commands', () => {
  it('a strategy stopped by command stops alone: its orders are cancelled, the other trades on; it can start again', () => {
    const heardA: LifecycleEvent[] = [];
    const heardB: LifecycleEvent[] = [];
    const seenB: number[] = [];
    const w = world([
      { id: 'a', definition: quoter(heardA), params: { price: 0.4 } },
      { id: 'b', definition: quoter(heardB, seenB), params: { price: 0.3 } },
    ]);
    w.engine.start();
    w.tick();
    expect(resting(w.edge, w.clock)).toBe(2);

    expect(w.engine.command({ type: 'stopStrategy', strategyId: 'a' })).toMatchObject({ ok: true, cancelled: 1 });
    w.clock.advanceBy(100);
    expect(w.engine.strategyState('a')).toBe('STOPPED');
    expect(w.engine.strategyState('b')).toBe('RUNNING');
    const heardBefore = seenB.length;
    w.tick();
    expect(seenB.length).toBe(heardBefore + 1);
    const open = [...w.engine.tracker.open()].map((r) => r.request.strategyId);
    expect(open).toEqual(['b']);
    expect(resting(w.edge, w.clock)).toBe(1);

    expect(w.engine.command({ type: 'stopStrategy', strategyId: 'nobody' })).toMatchObject({ ok: false, message: "no strategy 'nobody'" });
    // started again while halted: it hears Halted once started; the other strategy is not told again
    w.engine.command({ type: 'halt', name: 'manual', reason: 'drill' });
    w.engine.command({ type: 'stopStrategy', strategyId: 'a' });
    expect(w.engine.command({ type: 'startStrategy', strategyId: 'a' })).toMatchObject({ ok: true });
    expect(heardA.map((e) => e.type)).toEqual(['Halted']);
    expect(heardB.map((e) => e.type)).toEqual(['Halted']);
    w.engine.command({ type: 'resume', name: 'manual' });
    w.tick();
    expect(w.engine.strategyState('a')).toBe('RUNNING');
    expect(new Set([...w.engine.tracker.open()].map((r) => r.request.strategyId))).toEqual(new Set(['a', 'b']));
  });

  it('cancelAll cancels every open order and trading goes on', () => {
    const w = world([{ id: 'q', definition: quoter([]) }]);
    w.engine.start();
    w.tick();
    expect(w.engine.command({ type: 'cancelAll' })).toMatchObject({ ok: true, cancelled: 1 });
    w.clock.advanceBy(100);
    expect(resting(w.edge, w.clock)).toBe(0);
    w.tick();
    expect(resting(w.edge, w.clock)).toBe(1);
  });

  it('an updatable param changes live and the strategy is told; a non-updatable one is refused naming its key; a bad value as the config would', () => {
    const heard: LifecycleEvent[] = [];
    const seen: number[] = [];
    const w = world([{ id: 'q', definition: quoter(heard, seen), params: { price: 0.4 } }]);
    w.engine.start();
    w.tick();
    expect(seen.at(-1)).toBe(0.4);

    const ok = w.engine.command({ type: 'updateParams', strategyId: 'q', params: { price: 0.35 } });
    expect(ok).toMatchObject({ ok: true, changed: ['price'] });
    expect(heard.at(-1)).toMatchObject({ type: 'ParamsUpdated', strategyId: 'q', changed: ['price'] });
    w.tick();
    expect(seen.at(-1)).toBe(0.35);
    // the quote moved: the 0.40 bid was cancelled, 0.35 rests
    w.clock.advanceBy(100);
    expect([...w.engine.tracker.open()].map((r) => r.request.price)).toEqual([350_000]);

    const refused = w.engine.command({ type: 'updateParams', strategyId: 'q', params: { size: 50 } });
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe('strategies.q.params.size: not updatable while the strategy runs (updatable: price)');
    const bad = w.engine.command({ type: 'updateParams', strategyId: 'q', params: { price: 2 } });
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/^strategies\.q\.params\.price: /);
    w.tick();
    expect(seen.at(-1)).toBe(0.35);
    expect(heard.filter((e) => e.type === 'ParamsUpdated')).toHaveLength(1);
  });

  it('every command is journaled in the store with what it did', () => {
    const store = RunStore.open(dir.path('commands.sqlite'), { create: true });
    try {
      const w = world([{ id: 'q', definition: quoter([]) }], { store });
      w.engine.start();
      w.tick();
      w.engine.command({ type: 'halt', name: 'manual', reason: 'drill' });
      w.engine.command({ type: 'resume', name: 'manual' });
      w.engine.command({ type: 'updateParams', strategyId: 'q', params: { size: 9 } });
      const rows = [...store.journalEvents()].filter((r) => r.type === 'Command');
      expect(rows.map((r) => (r.event.type === 'command' ? [r.event.command.type, r.event.result.ok] : []))).toEqual([
        ['halt', true],
        ['resume', true],
        ['updateParams', false],
      ]);
      expect(rows[2]!.strategyId).toBe('q');
      const types = [...store.journalEvents()].map((r) => r.type);
      expect(types).toContain('Halted');
      expect(types).toContain('Resumed');
    } finally {
      store.close();
    }
  });
});
