import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineStrategy, px, qty, type OrderIntent } from '../../src/index.ts';
import { runStrategy, scriptedBooks, type ScriptedBooks, type ScriptedMarket } from '../../src/testing/index.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { renderReport } from '../../src/backtest/report.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';
import { summaryRows } from '../../src/backtest/summary-rows.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';

/**
 * The engine's reward accrual in a backtest (src/engine/reward-accrual.ts, docs/rewards.md):
 * our resting orders scored against the recorded books each sample. Rules of every case: 144
 * USDC a day (0.1 a minute), min_size 100, band 3 cents. The book: 0.48 x 500 / 0.52 x 500
 * (mid 0.50) unless a case says otherwise, both tokens, every 30 s for 10 minutes.
 */
const REWARDS = { dailyRate: 144, minSize: '100', maxSpreadCents: 3 };
const tmp = mkdtempSync(join(tmpdir(), 'clobot-rewards-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function script(bid = '0.48', ask = '0.52', minutes = 10): { s: ScriptedBooks; m: ScriptedMarket } {
  const s = scriptedBooks();
  const m = s.market({ rewards: REWARDS });
  const flip = (p: string) => (1 - Number(p)).toFixed(4);
  for (let t = 0; t <= minutes * 60_000; t += 30_000) {
    s.at(t).book(m.yes, { bids: [[bid, '500']], asks: [[ask, '500']] });
    s.at(t).book(m.no, { bids: [[flip(ask), '500']], asks: [[flip(bid), '500']] });
  }
  return { s, m };
}

/** Rests the given YES-terms orders once (a YES bid as BUY YES, a YES ask as BUY NO at 1 - p), post-only. */
function rester(orders: readonly { side: 'bid' | 'ask'; price: string; size: string }[]) {
  return defineStrategy({
    name: 'rester',
    init: () => ({ done: false }),
    onBook({ ctx, state, market }): OrderIntent[] | undefined {
      // once both tokens' books are in (the NO book follows the YES one at the same instant)
      const other = market.complementTokenId === undefined ? undefined : ctx.market(market.complementTokenId);
      // the running estimate as the strategy sees it (ctx.rewards), kept as one of its own figures
      ctx.metric('rewards', ctx.rewards().total);
      if (state.done || other?.book === undefined) return undefined;
      state.done = true;
      const [yes, no] = market.outcomeIndex === 0 ? [market, other] : [other, market];
      return orders.map((o) =>
        o.side === 'bid'
          ? { kind: 'place', tokenId: yes.tokenId, side: 'BUY', price: px(o.price), size: qty(o.size), postOnly: true }
          : { kind: 'place', tokenId: no.tokenId, side: 'BUY', price: 1_000_000 - px(o.price), size: qty(o.size), postOnly: true },
      );
    },
  });
}

describe('reward accrual in a backtest', () => {
  it('two-sided at min_size inside the band: the hand-worked share of every sample', async () => {
    const { s } = script();
    const run = await runStrategy(rester([{ side: 'bid', price: '0.49', size: '100' }, { side: 'ask', price: '0.51', size: '100' }]), { books: s });
    // with ours: bids 0.49 x 100, 0.48 x 500 (cutoff 0.49), asks 0.51 x 100 (cutoff 0.51): mid 0.50.
    // ours: s = 1 cent, (2/3)^2 * 100 = 44.444 a side: Q = 44.444; the rest: s = 2, (1/3)^2 * 500 = 55.556 a side.
    // share 44.444 / 100 = 0.444...; each minute pays 0.1 * 4/9 = 0.044444
    const r = run.summary.rewards;
    expect(r.markets).toHaveLength(1);
    const m = r.markets[0]!;
    expect(m.dailyRate).toBe(144);
    expect(m.scoringSamples).toBe(10);
    expect(r.samples).toBe(10);
    expect(r.total).toBe(((10 * 0.1 * 4) / 9).toFixed(6));
    expect(m.meanShare).toBeCloseTo(4 / 9, 6);
    expect(r.byStrategy).toEqual({ strategy: r.total });
    // ctx.rewards() at the last book: every sample up to it (the one at the same instant may follow the book)
    const seen = run.summary.strategies[0]!.metrics['rewards']!;
    expect(seen).toBeGreaterThanOrEqual(Number(r.total) - (0.1 * 4) / 9 - 1e-6);
    expect(seen).toBeLessThanOrEqual(Number(r.total) + 1e-6); // the summary rounds to 6 decimals
  });

  it('below min_size, outside max_spread, and one-sided outside [0.10, 0.90] earn nothing', async () => {
    const small = await runStrategy(rester([{ side: 'bid', price: '0.49', size: '99.99' }, { side: 'ask', price: '0.51', size: '99.99' }]), { books: script().s });
    expect(small.orders).toHaveLength(2);
    expect(small.summary.rewards.total).toBe('0.000000');
    // 0.47 and 0.53 are 3 cents from 0.50: the band's edge
    const wide = await runStrategy(rester([{ side: 'bid', price: '0.47', size: '100' }, { side: 'ask', price: '0.53', size: '100' }]), { books: script().s });
    expect(wide.summary.rewards.total).toBe('0.000000');
    // mid 0.05 (book 0.04 / 0.06): a bid alone earns nothing; with an ask too it earns
    const low = () => script('0.04', '0.06').s;
    const oneSided = await runStrategy(rester([{ side: 'bid', price: '0.05', size: '100' }]), { books: low() });
    expect(oneSided.summary.rewards.markets[0]!.scoringSamples).toBe(0);
    expect(oneSided.summary.rewards.total).toBe('0.000000');
    const twoSided = await runStrategy(rester([{ side: 'bid', price: '0.05', size: '100' }, { side: 'ask', price: '0.06', size: '100' }]), { books: low() });
    expect(Number(twoSided.summary.rewards.total)).toBeGreaterThan(0);
    // the same one-sided bid at mid 0.50 keeps a third of its score
    const third = await runStrategy(rester([{ side: 'bid', price: '0.49', size: '100' }]), { books: script().s });
    expect(Number(third.summary.rewards.total)).toBeGreaterThan(0);
  });

  it('a level built from orders each under min_size (seen arriving) earns nothing and does not compete; the same level as one snapshot does', async () => {
    // the YES book's 0.48 bid and 0.52 ask grow by 50 a second to 500: ten orders of 50 each (min_size 100)
    const built = scriptedBooks();
    const m = built.market({ rewards: REWARDS });
    const no = { bids: [['0.48', '500']], asks: [['0.52', '500']] } as const;
    built.at(0).book(m.no, no);
    for (let i = 1; i <= 10; i++) built.at(i * 1000).book(m.yes, { bids: [['0.48', String(50 * i)]], asks: [['0.52', String(50 * i)]] });
    for (let t = 30_000; t <= 10 * 60_000; t += 30_000) built.at(t).book(m.no, no);
    built.at(10 * 60_000).book(m.yes, { bids: [['0.48', '500']], asks: [['0.52', '500']] });
    const ours = [{ side: 'bid', price: '0.49', size: '100' }, { side: 'ask', price: '0.51', size: '100' }] as const;
    const run = await runStrategy(rester(ours), { books: built });
    // the others score nothing: every sample is ours whole, 0.1 a minute for 10 minutes
    expect(run.summary.rewards.markets[0]!.scoringSamples).toBe(10);
    expect(run.summary.rewards.markets[0]!.meanShare).toBe(1);
    expect(run.summary.rewards.total).toBe('1.000000');
    // the same 500 a side from snapshots only is one order of 500 a side: 44.444 / (44.444 + 55.556)
    const snap = await runStrategy(rester(ours), { books: script().s });
    expect(snap.summary.rewards.markets[0]!.meanShare).toBeCloseTo(4 / 9, 6);
  });

  it('deterministic: two runs give the same summary.json bytes; the text and binary recordings the same rewards', async () => {
    const strategy = 'strategies/rewards-mm.ts';
    const { s } = script();
    const text = join(tmp, 'r.jsonl');
    const binary = join(tmp, 'r.clbr');
    await s.write(text);
    const data = s.toData();
    const w = createRecordingWriter(binary, data.header, { form: 'binary' });
    for await (const e of data.events()) w.write(e);
    await w.close();
    const a = await runStrategy(strategy, { recording: text });
    const b = await runStrategy(strategy, { recording: text });
    expect(Number(a.summary.rewards.total)).toBeGreaterThan(0);
    expect(serializeSummary(b.summary)).toBe(serializeSummary(a.summary));
    const c = await runStrategy(strategy, { recording: binary });
    expect(c.summary.rewards).toEqual(a.summary.rewards);
  });

  it('the summary table and report.html show the rewards apart from trading PnL: a line under the equity chart and its orange series', async () => {
    const { s } = script();
    const text = ['mode: backtest', 'name: rewards-report', 'data:', '  markets: { filter: { maxCount: 5 } }', 'strategies:', '  - id: rw', `    module: ${join(process.cwd(), 'strategies/rewards-mm.ts')}`, 'backtest:', '  equityIntervalMs: 1000', ''].join('\n');
    const config = parseConfig(text, join(tmp, 'report.yaml'), {}, { cwd: tmp });
    const result = await runBacktest({ config, data: s.toData() });
    const r = result.summary.rewards;
    expect(Number(r.total)).toBeGreaterThan(0);
    // rewards-mm rests 0.48 / 0.52 (BUY NO 0.48) into a book of 0.48 / 0.52 that never trades: no fill, no PnL
    expect(result.summary.metrics.pnl.total).toBe('0');
    const line = `${Number(r.total).toFixed(4)} over ${r.samples} samples of 60 s`;
    expect(summaryRows(result.summary)).toContainEqual(['rewards (estimated, apart from pnl)', line]);
    const html = renderReport(result);
    expect(html).toContain(`<div class="meta" id="rewards">Rewards (estimated liquidity rewards, apart from trading PnL; orange line, left scale): ${line}</div>`);
    // the accrual a point a second from 0 to the total (the chart's data, embedded in the page)
    const series = /"rewards":(\[\[[^\]]*\](?:,\[[^\]]*\])*\])/.exec(html);
    expect(series).not.toBeNull();
    const points = JSON.parse(series![1]!) as [number, number][];
    expect(points[0]![1]).toBe(0);
    expect(points[points.length - 1]![1]).toBeCloseTo(Number(r.total), 6);
    for (let i = 1; i < points.length; i++) expect(points[i]![1]).toBeGreaterThanOrEqual(points[i - 1]![1]);
  });
});
