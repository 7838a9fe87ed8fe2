import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import type { BacktestData } from '../../src/backtest/backtest-data.ts';
import { renderReport } from '../../src/backtest/report.ts';
import { parseMicros } from '../../src/core/fixed.ts';
import type { FillEvent, OrderEvent } from '../../src/core/events.ts';
import type { EngineEvent } from '../../src/engine/ports.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { defineStrategy, type AccountSnapshot, type OrderSnapshot, type StrategyDefinition } from '../../src/strategy/api.ts';
import { backtestConfig, bookEvent, COND, header, m, T0, TempDir, YES } from './helpers.ts';

/**
 * Issue 20 points 1 and 2: two strategies quoting and trading one token in one run (a backtest:
 * the same engine as live) each see only their own position, the summary gives each its PnL,
 * fees and turnover, which add up to the run's, a per-strategy budget denial carries
 * STRATEGY_BUDGET, and a `ref` set on an intent is on its OrderAccepted and each of its fills.
 */

const tmp = new TempDir();
afterAll(() => tmp.remove());

const CONFIG = `
mode: backtest
name: two-strategies
data:
  markets: { conditionIds: ["${COND}"] }
strategies:
  - id: alpha
    module: ./alpha.ts
  - id: beta
    module: ./beta.ts
    budget: 20
execution:
  maxBatchWaitMs: 5
backtest:
  balance: 1000
  entryLatencyMs: 10
  responseLatencyMs: 10
  queueModel: conservative
  fees: { makerBps: 0, takerBps: 100 }
  equityIntervalMs: 1000
`;

/**
 *   t0      asks 0.52×40 0.53×50: alpha takes 20 (FAK, ref a-take) and quotes a bid 0.45×10
 *           (ref a-quote, resting); beta takes 30 at up to 0.55 (ref b-take): 20@0.52, 10@0.53
 *   t0+1s   beta asks for 10 more at 0.55: 15.7 at cost + 5.5 is over its budget of 20
 *   t0+2s   bid 0.60×100: alpha sells its own 20 (ref a-exit) and cancels its quote (found by its
 *           ref); beta holds on
 *   t0+3s   bid 0.58 ask 0.61: the marks of the end (mid 0.595)
 */
function data(): BacktestData {
  const events = [
    bookEvent(T0, [['0.50', '300']], [['0.52', '40'], ['0.53', '50'], ['0.55', '100']]),
    bookEvent(T0 + 1000, [['0.50', '300']], [['0.53', '40'], ['0.55', '100']]),
    bookEvent(T0 + 2000, [['0.60', '100']], [['0.62', '100']]),
    bookEvent(T0 + 3000, [['0.58', '100']], [['0.61', '100']]),
  ];
  return { name: 'two.jsonl', header: header(), events: () => events };
}

interface Seen {
  events: (OrderEvent | FillEvent)[];
  /** ctx.position(YES).size when the bid reached 0.60, and the run's as ctx.account() gave it. */
  own?: number;
  account?: AccountSnapshot;
  order?: OrderSnapshot;
}

function alpha(seen: Seen): StrategyDefinition {
  let step = 0;
  return defineStrategy({
    name: 'alpha',
    onBook({ ctx, market }): OrderIntent[] | undefined {
      if (step === 0) {
        step = 1;
        return [
          { kind: 'place', tokenId: YES, side: 'BUY', price: m('0.52'), size: m('20'), orderType: 'FAK', ref: 'a-take', group: 'alpha' },
          { kind: 'quote', tokenId: YES, bids: [{ price: m('0.45'), size: m('10') }], asks: [], ref: 'a-quote', group: 'alpha' },
        ];
      }
      if (step === 1 && market.bestBid === m('0.60')) {
        step = 2;
        seen.own = ctx.position(YES).size;
        seen.account = ctx.account();
        seen.order = ctx.order('a-take');
        return [
          { kind: 'place', tokenId: YES, side: 'SELL', price: m('0.60'), size: seen.own, orderType: 'FAK', ref: 'a-exit' },
          { kind: 'cancel', clientOrderId: ctx.order('a-quote')!.clientOrderId },
        ];
      }
      return undefined;
    },
    onOrderEvent({ event }) {
      seen.events.push(event);
    },
    onFill({ fill }) {
      seen.events.push(fill);
    },
  });
}

function beta(seen: Seen): StrategyDefinition {
  let step = 0;
  return defineStrategy({
    name: 'beta',
    onBook({ ctx, market }): OrderIntent | undefined {
      if (step === 0) {
        step = 1;
        return { kind: 'place', tokenId: YES, side: 'BUY', price: m('0.55'), size: m('30'), orderType: 'FAK', ref: 'b-take' };
      }
      if (step === 1) {
        step = 2;
        return { kind: 'place', tokenId: YES, side: 'BUY', price: m('0.55'), size: m('10'), orderType: 'FAK', ref: 'b-more', group: 'topup' };
      }
      if (step === 2 && market.bestBid === m('0.60')) {
        step = 3;
        seen.own = ctx.position(YES).size;
        seen.account = ctx.account();
      }
      return undefined;
    },
    onOrderEvent({ event }) {
      seen.events.push(event);
    },
    onFill({ fill }) {
      seen.events.push(fill);
    },
  });
}

const sum = (values: readonly string[]): number => values.reduce((total, v) => total + parseMicros(v), 0);

describe('two strategies on one token in one run', async () => {
  const a: Seen = { events: [] };
  const b: Seen = { events: [] };
  const journal: EngineEvent[] = [];
  const result = await runBacktest({ config: backtestConfig(tmp, CONFIG), data: data(), definitions: { alpha: alpha(a), beta: beta(b) }, onEvent: (e) => journal.push(e) });
  const s = result.summary;

  it('each sees only its own position; ctx.account() is the run', () => {
    expect(a.own).toBe(m('20'));
    expect(b.own).toBe(m('30'));
    for (const seen of [a, b]) {
      expect(seen.account?.positions.find((p) => p.tokenId === YES)?.size).toBe(m('50'));
      expect(seen.account!.cash).toBe(m('1000') - m('26.1') - seen.account!.fees);
    }
    // alpha's 20 left at 0.60: it holds nothing, beta still its 30
    const figures = new Map(result.metrics.strategies.map((f) => [f.strategyId, f]));
    expect(figures.get('alpha')?.positions.map((p) => p.size)).toEqual([0]);
    expect(figures.get('beta')?.positions.map((p) => [p.size, p.avgPrice])).toEqual([[m('30'), m('0.523333')]]);
  });

  it('the summary gives each its PnL, fees and turnover, which add up to the run', () => {
    const [sa, sb] = s.strategies;
    expect(sa).toMatchObject({ id: 'alpha', fills: 2 });
    expect(sb).toMatchObject({ id: 'beta', fills: 2 });
    // alpha: bought 20 at 0.52, sold at 0.60; fees 1% x min(p, 1 - p) x size on each take
    expect(sa!.pnl.realized).toBe('1.6');
    expect(sa!.fees).toBe('0.176');
    expect(sa!.pnl.total).toBe('1.424');
    expect(sa!.turnover).toBe('22.4');
    // beta: 30 at cost 15.7, marked at 0.595; fees 0.096 + 0.047
    expect(sb!.fees).toBe('0.143');
    expect(sb!.pnl.unrealized).toBe('2.15');
    expect(sb!.pnl.total).toBe('2.007');
    expect(sb!.turnover).toBe('15.7');
    const run = s.metrics;
    expect(sum(s.strategies.map((x) => x.pnl.total))).toBe(parseMicros(run.pnl.total));
    expect(sum(s.strategies.map((x) => x.fees))).toBe(parseMicros(run.fees));
    expect(sum(s.strategies.map((x) => x.turnover))).toBe(parseMicros(run.turnover));
    expect(s.strategies.reduce((n, x) => n + x.fills, 0)).toBe(run.fills);
    // the run's realized splits otherwise (one average cost of 0.522 for the 50): only the sums agree
    expect(run.pnl.realized).toBe('1.56');
    // the engine summary's byStrategy (what `clobot run --summary` writes) says the same
    const e = result.engine;
    expect(Object.keys(e.byStrategy)).toEqual(['alpha', 'beta']);
    expect(e.byStrategy['beta']).toMatchObject({ fees: '0.143', turnover: '15.7', fills: 2, positions: [{ tokenId: YES, size: '30', avgPrice: '0.523333' }] });
    expect(sum(Object.values(e.byStrategy).map((x) => x.fees))).toBe(parseMicros(e.account.fees));
    expect(sum(Object.values(e.byStrategy).map((x) => x.turnover))).toBe(parseMicros(e.turnover));
  });

  it('the report has a table of the strategies', () => {
    const html = renderReport(result);
    const table = html.slice(html.indexOf('<table id="strategies">'), html.indexOf('</table>', html.indexOf('<table id="strategies">')));
    // rounded for people (summary.json keeps every digit)
    expect(table).toContain('<td class="q">alpha</td><td>2</td><td>22.40</td><td>0.18</td><td>1.60</td><td>0.00</td><td>1.42</td>');
    expect(table).toContain('<td class="q">beta</td><td>2</td><td>15.70</td><td>0.14</td>');
  });

  it("a per-strategy budget denial carries STRATEGY_BUDGET (and the intent's ref)", () => {
    const denied = b.events.filter((e) => e.type === 'OrderDenied');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ code: 'STRATEGY_BUDGET', ref: 'b-more', group: 'topup' });
    expect((denied[0] as { reason: string }).reason).toBe('strategy beta would commit 21.2 (positions at cost 15.7, open buys 0), over its budget 20');
    expect(s.orders.deniedByCode).toEqual({ STRATEGY_BUDGET: 1 });
    // alpha has no budget: its orders all went out
    expect(a.events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });

  it('a ref set on an intent is on its OrderAccepted and on each of its fills', () => {
    const byRef = (seen: Seen, ref: string) => seen.events.filter((e) => e.ref === ref).map((e) => e.type);
    expect(byRef(a, 'a-take')).toEqual(['OrderAccepted', 'OrderFilled']);
    expect(byRef(b, 'b-take')).toEqual(['OrderAccepted', 'OrderFilled', 'OrderFilled']);
    expect(byRef(a, 'a-exit')).toEqual(['OrderAccepted', 'OrderFilled']);
    // the quote's bid rested until alpha cancelled it, found by its ref
    expect(a.events.filter((e) => e.ref === 'a-quote').map((e) => [e.type, e.group])).toEqual([
      ['OrderAccepted', 'alpha'],
      ['OrderCanceled', 'alpha'],
    ]);
    // the journal (the store's and the run's onEvent) has them too
    const quoteEvents = journal.flatMap((e) => (e.type === 'order' && e.event.ref === 'a-quote' ? [[e.strategyId, e.event.type, e.event.group]] : []));
    expect(quoteEvents).toEqual([
      ['alpha', 'OrderAccepted', 'alpha'],
      ['alpha', 'OrderCanceled', 'alpha'],
    ]);
    const journaledFills = journal.flatMap((e) => (e.type === 'fill' ? [[e.strategyId, e.fill.ref]] : []));
    expect(journaledFills).toEqual([
      ['alpha', 'a-take'],
      ['beta', 'b-take'],
      ['beta', 'b-take'],
      ['alpha', 'a-exit'],
    ]);
    for (const e of [...a.events, ...b.events]) expect(e.ref, `${e.type} ${e.clientOrderId}`).toBeDefined();
    // ctx.order(ref) is the order's snapshot, with the ref and group
    expect(a.order).toMatchObject({ ref: 'a-take', group: 'alpha', status: 'FILLED', filled: m('20'), strategyId: 'alpha' });
  });
});

describe('a v2 module beside a v3 one', () => {
  it('loads and keeps the run-wide ctx.position it always had', async () => {
    const seen: Seen = { events: [] };
    let legacyPosition: number | undefined;
    // a module written for API version 2 (no defineStrategy of this build)
    const legacy = {
      name: 'legacy',
      apiVersion: 2,
      onBook({ ctx, market }: { ctx: { position(t: string): { size: number } }; market: { bestBid?: number } }) {
        if (market.bestBid === m('0.60')) legacyPosition = ctx.position(YES).size;
      },
    } as unknown as StrategyDefinition;
    const config = backtestConfig(tmp, CONFIG.replace('module: ./beta.ts\n    budget: 20', 'module: ./legacy.ts'), 'v2.yaml');
    const result = await runBacktest({ config, data: data(), definitions: { alpha: alpha(seen), beta: legacy } });
    expect(seen.own).toBe(m('20'));
    expect(legacyPosition).toBe(m('20'));
    expect(result.summary.strategies.map((x) => [x.id, x.fills])).toEqual([
      ['alpha', 2],
      ['beta', 0],
    ]);
    expect(result.engine.strategies).toEqual({ alpha: 'STOPPED', beta: 'STOPPED' });
  });
});

describe('refs the runner refuses', () => {
  it('a ref that is not a string of 1 to 200 characters faults the strategy, naming the key', async () => {
    const messages: string[] = [];
    for (const bad of [{ ref: 42 }, { group: '' }, { ref: 'x'.repeat(201) }]) {
      const sloppy = defineStrategy({
        name: 'sloppy',
        onBook: () => ({ kind: 'place', tokenId: YES, side: 'BUY', price: m('0.50'), size: m('10'), ...bad }) as unknown as OrderIntent,
      });
      const config = backtestConfig(tmp, CONFIG.replace('module: ./beta.ts\n    budget: 20', 'module: ./sloppy.ts').replace('  - id: alpha\n    module: ./alpha.ts\n', ''), 'sloppy.yaml');
      const journal: EngineEvent[] = [];
      await runBacktest({ config, data: data(), definitions: { beta: sloppy }, keepGoing: true, onEvent: (e) => journal.push(e) }).catch(() => undefined);
      const fault = journal.find((e) => e.type === 'fault');
      messages.push(fault?.type === 'fault' ? fault.message.split(': {')[0]! : 'no fault');
    }
    expect(messages).toEqual([
      "strategy 'beta' faulted in onBook: returned a place intent whose ref is not a string of 1 to 200 characters",
      "strategy 'beta' faulted in onBook: returned a place intent whose group is not a string of 1 to 200 characters",
      "strategy 'beta' faulted in onBook: returned a place intent whose ref is not a string of 1 to 200 characters",
    ]);
  });
});
