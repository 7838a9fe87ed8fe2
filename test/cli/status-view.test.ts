import { Writable } from 'node:stream';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { RunSession } from '../../src/app/run-session.ts';
import { StatusView } from '../../src/cli/status-view.ts';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { TradingEngine } from '../../src/engine/trading-engine.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { book, M, SETTINGS, silent, simulatedEdge, T0, YES, YES_TOKEN } from '../engine/parts.ts';

/**
 * The status view of `clobot run` is a listener of the engine's event bus (issue 20 point 3): a
 * halt shows at once with its name, a command and its result in the recent list, and the
 * tick-to-trade line reads the run's metrics.
 */
describe('the status view', () => {
  it('hears halts and commands on the bus and redraws at once; shows tick-to-trade from the metrics', () => {
    const clock = new SimulatedClock(T0);
    const events = new Subject<MarketEvent>();
    const edge = simulatedEdge(clock);
    const quoter = defineStrategy({
      name: 'quoter',
      onBook: () => ({ kind: 'quote' as const, tokenId: YES, bids: [{ price: 400_000, size: 5 * M }], asks: [] }),
    });
    const engine = new TradingEngine({
      clock,
      execution: edge,
      marketEvents$: events,
      tokens: [YES_TOKEN],
      strategies: [{ id: 'q', definition: quoter, params: {}, tokenIds: [YES] }],
      risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000 } },
      settings: SETTINGS,
      startingBalance: 10_000 * M,
      runId: 'feedf00d',
      log: silent,
    });
    let written = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const session = { engine, sandbox: undefined, tokens: [YES_TOKEN], markets: [] } as unknown as RunSession;
    const view = new StatusView(session, 60_000, out as NodeJS.WriteStream);
    engine.start();
    view.start();
    events.next(book(clock.now(), [[450_000, 100 * M]], [[550_000, 100 * M]]));
    clock.advanceBy(100);

    const before = written.length;
    engine.command({ type: 'halt', name: 'manual', reason: 'drill' });
    // redrawn on the Halted event, not at the next 60 s refresh
    const drawn = written.slice(before);
    expect(drawn).toMatch(/HALTED \(drill\)/);
    expect(drawn).toMatch(/halts: manual: drill/);
    expect(drawn).toMatch(/recent:\n/);
    expect(drawn).toMatch(/ halt: manual halt on \(drill\); 1 resting order\(s\) being cancelled\n/);
    expect(drawn).toMatch(/HALTED \(manual\): drill/);
    expect(drawn).toMatch(/tick-to-trade p50 [\d.]+ ms {2}p99 [\d.]+ ms {2}batches 1/);

    engine.command({ type: 'updateParams', strategyId: 'q', params: { size: 1 } });
    view.stop();
    expect(view.render()).toMatch(/updateParams refused: strategies\.q\.params\.size: not updatable/);
    // unsubscribed on stop: what follows is not heard
    engine.command({ type: 'resume', name: 'manual' });
    expect(view.render()).not.toMatch(/resume/);
  });
});
