import { fileURLToPath } from 'node:url';
import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { StrategyError } from '../../src/core/errors.ts';
import { MarketCache, type TrackedToken } from '../../src/data/market-cache.ts';
import { StrategyHost } from '../../src/engine/strategy-host.ts';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import { Portfolio } from '../../src/portfolio/portfolio.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { StrategyFault } from '../../src/strategy/strategy-fault.ts';
import { book, COND, M, silent, T0, YES } from '../engine/parts.ts';

/**
 * A strategy's fault as the runner reports it (through the real strategy host): the stack is the
 * strategy's own frames, stopped or (keepGoing) not; a thrown non-Error and a frame of a module
 * tsx compiled in memory still say where.
 */

const THIS_FILE = fileURLToPath(import.meta.url);
const RUNNER_FILE = fileURLToPath(new URL('../../src/strategy/strategy-runner.ts', import.meta.url));
const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
const token: TrackedToken = { tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules };

/** A host with one strategy whose onBook runs `throwIt`, fed `books` book changes; the faults it reported. */
function faultsOf(throwIt: () => never, options: { keepGoing?: boolean; books?: number } = {}) {
  const clock = new SimulatedClock(T0);
  const cache = new MarketCache();
  cache.track(token);
  const faults: StrategyError[] = [];
  const host = new StrategyHost({
    clock,
    log: silent,
    cache,
    tracker: new OrderTracker(),
    portfolio: new Portfolio(100 * M),
    onIntents: () => undefined,
    onFault: (_id, err) => faults.push(err),
    keepGoing: options.keepGoing,
  });
  host.add({ id: 's', definition: defineStrategy({ name: 's', onBook: () => throwIt() }), params: {}, tokenIds: [YES] });
  const subs = new Subscription();
  host.start(subs);
  for (let i = 0; i < (options.books ?? 1); i++) host.dispatch(cache.apply(book(T0 + i, [[450_000 - i * 10_000, 10 * M]], [[470_000, 10 * M]])));
  subs.unsubscribe();
  return { faults: faults as StrategyFault[], state: host.state('s') };
}

function boom(): never {
  throw new Error('boom');
}

describe('StrategyFault', () => {
  it("carries the strategy's own frames (its file:line) and none of the runner's; the strategy is stopped", () => {
    const { faults, state } = faultsOf(boom, { books: 3 });
    expect(state).toBe('FAULTED');
    expect(faults).toHaveLength(1);
    const fault = faults[0]!;
    expect(fault).toBeInstanceOf(StrategyFault);
    expect(fault.stopped).toBe(true);
    expect([fault.strategyId, fault.hook, fault.message]).toEqual(['s', 'onBook', "strategy 's' faulted in onBook: boom"]);
    const lines = fault.stack!.split('\n');
    expect(lines[0]).toBe(fault.message);
    expect(lines[1]).toMatch(new RegExp(`^    at boom \\(${THIS_FILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+\\)$`));
    expect(fault.stack).not.toContain(RUNNER_FILE);
  });

  it('keepGoing: every throw is reported, not stopping the strategy', () => {
    const { faults, state } = faultsOf(boom, { keepGoing: true, books: 3 });
    expect(state).toBe('RUNNING');
    expect(faults).toHaveLength(3);
    expect(faults.every((f) => !f.stopped)).toBe(true);
  });

  it('a thrown string says there is no stack; a frame of a module tsx compiled in memory names its file', () => {
    const thrown = faultsOf(() => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 'nope';
    }).faults[0]!;
    expect(thrown.stack).toBe("strategy 's' faulted in onBook: nope\n    (no stack: the strategy threw the string 'nope', not an Error)");
    expect(thrown.frames).toEqual([]);

    const compiled = new Error('from a CommonJS folder');
    compiled.stack = [
      'Error: from a CommonJS folder',
      `    at explode (data:text/javascript,var%20x%3D1%3B?filePath=${encodeURIComponent('/home/me/bot/thrower.ts?namespace=42')}:2:1150)`,
      `    at Object.call (${RUNNER_FILE}:120:5)`,
    ].join('\n');
    const fault = faultsOf(() => {
      throw compiled;
    }).faults[0]!;
    expect(fault.frames).toEqual(['    at explode (/home/me/bot/thrower.ts, compiled: no line number (a package.json with "type": "module" gives file:line))']);
  });
});
