import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import type { OrderTracker } from '../../src/execution/order-tracker.ts';
import type { StrategyDefinition } from '../../src/strategy/api.ts';
import { TempDir, backtestConfig } from '../backtest/helpers.ts';
import marketMaker from '../../strategies/market-maker.ts';

/**
 * Issue 28 point 0: a quote change never fights its own cancel. The README's market maker (the
 * strategy, params, risk and execution of config/default.yaml) over 3 simulated minutes of a
 * synthetic recording: no venue "not enough balance / allowance" reject (a new SELL finding the
 * shares still locked by the SELL being cancelled) and no SELF_CROSS denial against an order the
 * engine was cancelling when the denial was made. Before quote holds (engine/quote-holds.ts) the
 * same run drew 106 such rejects and 10 such denials (102 SELF_CROSS in all); with them 0 and 0
 * (96 SELF_CROSS remain: against the complement's resting BUY, which no cancel explains).
 */

const tmp = new TempDir();
afterAll(() => tmp.remove());

/** config/default.yaml as a backtest: its strategy, risk and execution; the venue and account lines go. */
function defaultAsBacktest(): string {
  const text = readFileSync('config/default.yaml', 'utf8');
  const out = text
    .replace(/^mode: live$/m, 'mode: backtest')
    .replace(/^venue:[\s\S]*?(?=^data:)/m, '')
    .replace(/^logging:[\s\S]*?(?=^paper:)/m, '')
    .replace('module: strategies/market-maker.ts', `module: ${join(process.cwd(), 'strategies/market-maker.ts')}`);
  expect(out).toContain('mode: backtest');
  expect(out).toContain('size: 10');
  return out;
}

describe("the README market maker's 3-minute backtest", () => {
  it('draws no balance reject and no SELF_CROSS denial against an order being cancelled', async () => {
    const config = backtestConfig(tmp, defaultAsBacktest());
    expect(config.strategies.map((s) => s.id)).toEqual(['mm']);
    // 5 markets, 5200 events: a little over 3 simulated minutes
    const options = { seed: 1, markets: 5, depth: 5, events: 5200, meanGapMs: 50 };
    const header = syntheticHeader(options);
    let tracker: OrderTracker | undefined;
    /** Each SELF_CROSS denial, and whether the order it names was being cancelled at that moment. */
    const denials: { reason: string; beingCancelled: boolean }[] = [];
    // the market maker as it is, plus a look at each SELF_CROSS denial's order at that moment
    const watched: StrategyDefinition = {
      ...(marketMaker as StrategyDefinition),
      onOrderEvent({ event }) {
        if (event.type !== 'OrderDenied' || event.code !== 'SELF_CROSS') return undefined;
        const named = /\(order ([0-9a-f]+)\)$/.exec(event.reason)?.[1];
        const record = named === undefined ? undefined : tracker!.byClientId(named);
        expect(record, event.reason).toBeDefined();
        denials.push({ reason: event.reason, beingCancelled: record!.status === 'CANCEL_PENDING' || record!.cancelWhenLive });
        return undefined;
      },
    };
    const result = await runBacktest({
      config,
      data: { name: 'synthetic', header, events: () => syntheticEvents(options) },
      definitions: { mm: watched },
      onBuilt: (engine) => (tracker = engine.tracker),
    });
    const s = result.summary;
    const last = header.createdAt;
    expect(result.curve.t[result.curve.t.length - 1]! - last).toBeGreaterThanOrEqual(180_000);
    const balanceRejects = Object.entries(s.orders.rejectedByReason)
      .filter(([reason]) => reason.includes('balance'))
      .reduce((n, [, count]) => n + count, 0);
    const againstCancelled = denials.filter((d) => d.beingCancelled).length;
    console.log(`balance rejects ${balanceRejects}; SELF_CROSS ${s.orders.deniedByCode['SELF_CROSS'] ?? 0}, of them against an order being cancelled ${againstCancelled}; orders submitted ${s.orders.submitted}`);
    expect(s.orders.submitted).toBeGreaterThan(1000);
    expect(denials.length).toBe(s.orders.deniedByCode['SELF_CROSS'] ?? 0);
    expect({ balanceRejects, againstCancelled }).toEqual({ balanceRejects: 0, againstCancelled: 0 });
  }, 120_000);
});
