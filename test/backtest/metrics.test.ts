import { describe, expect, it } from 'vitest';
import { FeeRate } from '../../src/core/money.ts';
import { maxDrawdown, PRICE_TRAIL_POINTS, PriceTrail } from '../../src/backtest/metrics.ts';
import { formatSpan, MIN_RETURNS, performance, YEAR_MS } from '../../src/backtest/performance.ts';
import { MarkoutTracker } from '../../src/backtest/markouts.ts';
import { fmtCounts, fmtMoney, fmtPercent, fmtRatio } from '../../src/backtest/summary-rows.ts';
import { ratio } from '../../src/backtest/summary.ts';
import { Dec } from '../../src/core/fixed.ts';
import { applyOverrides, parseSweepAxis, pointLabel, sweepGrid } from '../../src/backtest/param-overrides.ts';
import { selectedTokenIds, selectRecordedMarkets } from '../../src/app/recorded-markets.ts';
import { sortRows } from '../../src/jobs/sweep.ts';
import type { BacktestSummary } from '../../src/backtest/summary.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { COND, COND2, header, m, NO, NO2, YES, YES2 } from './helpers.ts';

describe('metrics', () => {
  it('Sharpe and Sortino: annualised from the equity curve returns, only with MIN_RETURNS of them', () => {
    // 40 returns alternating +1% and -0.5% on a 1-minute basis
    const equity = [m('100')];
    for (let i = 0; i < 40; i++) equity.push(Math.round(equity[i]! * (i % 2 === 0 ? 1.01 : 0.995)));
    const r = equity.slice(1).map((e, i) => e / equity[i]! - 1);
    const mean = r.reduce((a, b) => a + b) / r.length;
    const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1));
    const down = Math.sqrt(r.reduce((a, b) => a + Math.min(b, 0) ** 2, 0) / r.length);
    const p = performance(equity, 60_000, maxDrawdown(equity).fraction);
    expect(p.basis).toEqual({ intervalMs: 60_000, returns: 40, minReturns: MIN_RETURNS });
    expect(p.sharpe!.toNumber()).toBeCloseTo((mean / sd) * Math.sqrt(YEAR_MS / 60_000), 4);
    expect(p.sortino!.toNumber()).toBeCloseTo((mean / down) * Math.sqrt(YEAR_MS / 60_000), 4);
    expect(p.reason).toBeUndefined();
    // 40 minutes are too short for a Calmar that means something
    expect(p.calmar).toBeUndefined();
    expect(p.calmarReason).toBe('needs 30 days of data, had 40m');
    // the same digits every time: exact decimals, not floats
    expect(performance(equity, 60_000, maxDrawdown(equity).fraction).sharpe!.toString()).toBe(p.sharpe!.toString());
    // too few returns: no ratio, and the reason says how many there were and how many it needs
    const short = performance(equity.slice(0, 3), 60_000, new Dec(0));
    expect(short.sharpe).toBeUndefined();
    expect(short.reason).toBe('only 2 returns of 1m; a ratio needs 30 or more, that is 30m of data at this basis');
    expect(performance(Array(40).fill(m('100')), 60_000, new Dec(0)).reason).toBe('the 39 returns never vary (equity flat or growing evenly)');
  });

  it('Calmar: the compounded annual return over the largest drawdown, from 30 days of data', () => {
    // 31 daily points: up 1% a day except one 2% fall
    const equity = [m('1000')];
    for (let i = 0; i < 31; i++) equity.push(Math.round(equity[i]! * (i === 10 ? 0.98 : 1.01)));
    const dd = maxDrawdown(equity);
    const p = performance(equity, 86_400_000, dd.fraction);
    const growth = equity[31]! / equity[0]!;
    expect(p.calmar!.toNumber() / ((growth ** (365 / 31) - 1) / dd.fraction.toNumber())).toBeCloseTo(1, 6);
    expect(formatSpan(5_400_000)).toBe('1h 30m');
    expect(formatSpan(10_000)).toBe('10s');
  });

  it('mark-outs: each fill against the mark 1 s, 10 s and 60 s later, signed for our side', () => {
    const t = new MarkoutTracker();
    t.onMark(YES, 0, m('0.5'));
    t.onFill(YES, 'BUY', m('0.5'), m('10'), 1_000);
    t.onFill(YES, 'SELL', m('0.52'), m('5'), 1_000);
    // the mark at 2 s (the due time of the 1 s mark-out) is 0.51: the book at 2.5 s settles it
    t.onMark(YES, 1_500, m('0.51'));
    t.onMark(YES, 2_500, m('0.53'));
    // by 11 s the mark is 0.53; by 61 s 0.45
    t.onMark(YES, 20_000, m('0.45'));
    const rows = t.finish(61_000);
    expect(rows.map((r) => r.horizonMs)).toEqual([1_000, 10_000, 60_000]);
    // 1 s: buy 10 × (0.51 − 0.5) = 0.1; sell 5 × −(0.51 − 0.52) = 0.05
    expect(rows[0]).toEqual({ horizonMs: 1_000, fills: 2, pnl: m('0.15'), size: m('15') });
    // 10 s: 10 × 0.03 − 5 × 0.01 = 0.25
    expect(rows[1]!.pnl).toBe(m('0.25'));
    // 60 s: 10 × −0.05 + 5 × 0.07 = −0.15
    expect(rows[2]!.pnl).toBe(m('-0.15'));
    // a fill too close to the end is not marked
    const late = new MarkoutTracker();
    late.onMark(YES, 0, m('0.5'));
    late.onFill(YES, 'BUY', m('0.5'), m('1'), 1_000);
    expect(late.finish(5_000).map((r) => r.fills)).toEqual([1, 0, 0]);
  });

  it('numbers for people: two decimals, grouped, never a negative zero', () => {
    expect(fmtMoney('-0.000001')).toBe('0.00');
    expect(fmtMoney('-1234567.126')).toBe('-1,234,567.13');
    expect(fmtPercent('0.000167')).toBe('0.02%');
    expect(fmtPercent('0.0000001')).toBe('0.0000%');
    expect(fmtPercent('-0.00000001')).toBe('0.0000%');
    expect(fmtPercent(null)).toBe('n/a');
    expect(fmtRatio('1.875')).toBe('1.88');
    expect(ratio(new Dec('-0.0000001'))).toBe('0.000000');
    expect(fmtCounts({ SELF_CROSS: 2, STALE_BOOK: 5 })).toBe('STALE_BOOK 5, SELF_CROSS 2');
  });

  it('max drawdown: the largest fall from a running peak, in money and as a share of that peak', () => {
    const dd = maxDrawdown(['100', '120', '90', '130', '104', '125'].map(m));
    expect(dd.amount).toBe(m('30'));
    expect(dd.fraction.toString()).toBe('0.25');
    expect(maxDrawdown(['1', '2', '3'].map(m)).amount).toBe(0);
  });

  it('fee rates: the venue formula with exact fractional basis points, rounded down', () => {
    expect(new FeeRate('1.5').fee(m('0.4'), m('1000'))).toBe(m('0.06'));
    expect(new FeeRate(100).fee(m('0.7'), m('10'))).toBe(m('0.03'));
    expect(new FeeRate('0.3').fee(m('0.5'), m('0.01'))).toBe(0); // 0.15 of a micro rounds down to nothing
    expect(new FeeRate(0).isZero).toBe(true);
  });
});

describe('sweep parameters', () => {
  it('parses a strategy path, a bare one for a single strategy, or any config key, with YAML scalar values', () => {
    expect(parseSweepAxis('mm.size=5,10.5', ['mm', 'x'])).toEqual({ name: 'mm.size', values: [5, 10.5], texts: ['5', '10.5'] });
    expect(parseSweepAxis('quote.side=buy,true', ['mm'])).toMatchObject({ name: 'mm.quote.side', values: ['buy', true] });
    expect(parseSweepAxis('backtest.queueModel=conservative,optimistic', ['mm'])).toMatchObject({ name: 'backtest.queueModel', values: ['conservative', 'optimistic'] });
    expect(parseSweepAxis('strategies.mm.params.size=1', ['mm', 'x'])).toMatchObject({ name: 'mm.size', values: [1] });
    // a shorthand names the one enabled strategy
    expect(parseSweepAxis('size=5', ['a', 'b'], ['b'])).toMatchObject({ name: 'b.size' });
    expect(() => parseSweepAxis('size=5', ['a', 'b'])).toThrow(ConfigError);
    expect(() => parseSweepAxis('size=5', ['a', 'b'])).toThrow(/^size \(--sweep size\): not a config section .* name the strategy first \(one of a, b\)/);
    expect(() => parseSweepAxis('strategies.zz.params.size=5', ['a'])).toThrow("no strategy 'zz' in strategies (ids: a)");
    expect(() => parseSweepAxis('mm.size', ['mm'])).toThrow(/expected <key>=<v1>,<v2>/);
    expect(() => parseSweepAxis('mm.size=5,', ['mm'])).toThrow(/non-empty/);
    expect(() => parseSweepAxis('mm..size=5', ['mm'])).toThrow(/not a key path/);
  });

  it('builds the grid with the first axis slowest and labels points for file names', () => {
    const grid = sweepGrid([parseSweepAxis('a=1,2', ['s']), parseSweepAxis('backtest.queueModel=x,y', ['s'])]);
    expect(grid.map(pointLabel)).toEqual(['s.a=1_backtest.queueModel=x', 's.a=1_backtest.queueModel=y', 's.a=2_backtest.queueModel=x', 's.a=2_backtest.queueModel=y']);
    expect(grid[3]).toEqual([
      { flag: '--sweep', key: 's.a', value: 2 },
      { flag: '--sweep', key: 'backtest.queueModel', value: 'y' },
    ]);
  });

  it('applies parameter overrides of a run started in code over the params', () => {
    const params = Object.freeze({ a: 0, nested: Object.freeze({ keep: 1 }) });
    const overrides = [
      { strategyId: 's', path: ['a'], value: 2 },
      { strategyId: 's', path: ['nested', 'deep'], value: 3 },
      { strategyId: 'other', path: ['a'], value: 9 },
    ];
    expect(applyOverrides('s', params, overrides)).toEqual({ a: 2, nested: { keep: 1, deep: 3 } });
  });

  it('sorts rows best first, lower-is-better metrics ascending, nulls last', () => {
    const row = (index: number, total: string, dd: string, sharpe: string | null) => ({
      index,
      summary: { metrics: { pnl: { total }, maxDrawdown: { amount: dd }, sharpe } } as unknown as BacktestSummary,
    });
    const rows = [row(0, '1', '5', null), row(1, '3', '1', '0.5'), row(2, '-2', '9', '2')];
    expect(sortRows(rows, 'pnl').map((r) => r.index)).toEqual([1, 0, 2]);
    expect(sortRows(rows, 'maxDrawdown').map((r) => r.index)).toEqual([1, 0, 2]);
    expect(sortRows(rows, 'sharpe').map((r) => r.index)).toEqual([2, 1, 0]);
  });
});

describe('recorded market selection', () => {
  const h = header(2);
  const sel = (s: Partial<{ tokenIds: string[]; conditionIds: `0x${string}`[]; slugs: string[]; filter: { tags: string[]; active: boolean; acceptingOrders: boolean; maxCount: number } }>) => ({
    tokenIds: [],
    conditionIds: [],
    slugs: [],
    filter: undefined,
    ...s,
  });

  it('picks by condition id, slug, token or count, in the header order', () => {
    expect(selectRecordedMarkets(h, sel({ slugs: ['will-it-snow'], conditionIds: [COND as `0x${string}`] }), 'data.markets').markets.map((x) => x.conditionId)).toEqual([COND, COND2]);
    expect(selectRecordedMarkets(h, sel({ filter: { tags: [], active: true, acceptingOrders: true, maxCount: 1 } }), 'data.markets').markets.map((x) => x.conditionId)).toEqual([COND]);
    const byTag = selectRecordedMarkets(h, sel({ filter: { tags: ['x'], active: true, acceptingOrders: true, maxCount: 5 } }), 'data.markets');
    expect(byTag.warnings[0]).toMatch(/a recording has no tags/);
  });

  it('trades both outcomes of a chosen market, or only the tokens named', () => {
    const markets = h.markets;
    expect(selectedTokenIds(markets, sel({ conditionIds: [COND as `0x${string}`, COND2 as `0x${string}`] }))).toEqual([YES, NO, YES2, NO2]);
    expect(selectedTokenIds(markets, sel({ tokenIds: [NO2] }))).toEqual([YES, NO, NO2]);
  });

  it('takes the first two tokens of a market that lists more, and says so', () => {
    const three = { ...h, markets: [{ ...h.markets[0]!, tokens: [...h.markets[0]!.tokens, { tokenId: '999', outcome: 'Maybe' }] }, h.markets[1]!] };
    const picked = selectRecordedMarkets(three, sel({ conditionIds: [COND as `0x${string}`] }), 'data.markets');
    expect(picked.warnings).toEqual([`data.markets: market ${COND} lists 3 tokens; the engine trades binary markets and takes the first two (not Maybe)`]);
    expect(selectedTokenIds(picked.markets, sel({ conditionIds: [COND as `0x${string}`] }))).toEqual([YES, NO]);
    expect(selectRecordedMarkets(h, sel({ conditionIds: [COND as `0x${string}`] }), 'data.markets').warnings).toEqual([]);
  });

  it('refuses a selector the recording does not hold', () => {
    expect(() => selectRecordedMarkets(h, sel({ slugs: ['nope'], tokenIds: ['9'] }), 'strategies[0].markets')).toThrow(
      'strategies[0].markets: the recording holds no market for slug nope, token id 9',
    );
  });
});

describe('price trails', () => {
  it('keep one point per bucket, the newest, and thin out past their size', () => {
    const trail = new PriceTrail();
    trail.add(1_000, 1);
    trail.add(1_500, 2);
    trail.add(2_100, 3);
    expect([trail.t, trail.v]).toEqual([
      [1_500, 2_100],
      [2, 3],
    ]);
    const long = new PriceTrail();
    for (let i = 0; i < 3 * PRICE_TRAIL_POINTS; i++) long.add(i * 1_000, i);
    expect(long.t.length).toBeLessThanOrEqual(PRICE_TRAIL_POINTS);
    expect(long.spacingMs).toBe(4_000);
    // the newest mark of each 4 s bucket, in time order
    expect(long.t.slice(0, 3)).toEqual([3_000, 7_000, 11_000]);
    expect(long.v.at(-1)).toBe(3 * PRICE_TRAIL_POINTS - 1);
  });
});
