import { describe, expect, it } from 'vitest';
import { qty } from 'clobot';
import { runStrategy, scriptedBooks, SCRIPT_START_MS, type ScriptedMarket } from 'clobot/testing';

const MODULE = 'strategies/near-resolution.ts';
/** Every market of these scripts ends 10 minutes after the start. */
const END = SCRIPT_START_MS + 600_000;
const params = { windowMs: 300_000, minTimeLeftMs: 5_000, size: 20, maxPerMarket: 50, maxTotal: 200, stopPrice: 0.8, entryGapMs: 5_000 };

/** The YES book at `bid`/`ask` (500 deep) and the NO book mirroring it. */
function quote(script: ReturnType<typeof scriptedBooks>, m: ScriptedMarket, bid: number, ask: number): void {
  script.book(m.yes, { bids: [[bid.toFixed(2), '500']], asks: [[ask.toFixed(2), '500']] });
  script.book(m.no, { bids: [[(1 - ask).toFixed(2), '500']], asks: [[(1 - bid).toFixed(2), '500']] });
}

describe('near-resolution (clobot/testing)', () => {
  it('buys the near-certain outcome within the window before the end date and holds it to settlement', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'ending', endDate: END });
    script.at(0);
    quote(script, m, 0.93, 0.94); // ten minutes before the end: outside the 5-minute window
    script.at(400_000);
    quote(script, m, 0.94, 0.95); // 200 s before the end: in the window, the ask in the band
    script.at(500_000);
    quote(script, m, 0.95, 0.96);
    script.at(600_000).close(m);
    script.at(602_000).resolve(m, m.yes);
    const run = await runStrategy(MODULE, { books: script, params: { ...params, maxPerMarket: 19 } });
    expect(run.faults).toEqual([]);
    // one entry (the 19 USDC cap holds 20 shares at 0.95), no sale: held to the resolution
    expect(run.orders.map((o) => [o.tokenId, o.side, o.price, o.size, o.ref, o.createdAt - SCRIPT_START_MS])).toEqual([[m.yes, 'BUY', 950_000, qty('20'), 'nr-entry', 400_000]]);
    // settled at 1: 20 × (1 - 0.95)
    const yes = run.positions.find((p) => p.tokenId === m.yes)!;
    expect(yes.size).toBe(0);
    expect(yes.realizedPnl).toBe(1_000_000);
    expect(run.summary.strategies[0]!.metrics).toMatchObject({ entries: 1, won: 1 });
    expect(run.logs.some((l) => l.msg === 'settled' && l.fields['won'] === true)).toBe(true);
  });

  it('caps each market and the total: entries of `size` until the cap, the last one smaller', async () => {
    const script = scriptedBooks();
    const a = script.market({ slug: 'a', endDate: END });
    const b = script.market({ slug: 'b', endDate: END });
    for (let t = 400_000; t <= 440_000; t += 10_000) {
      script.at(t);
      quote(script, a, 0.94, 0.95);
      quote(script, b, 0.04, 0.05); // NO is the favourite of b (its ask 0.96)
    }
    const run = await runStrategy(MODULE, { books: script, params: { ...params, maxPerMarket: 30, maxTotal: 45 } });
    const buys = (token: string) => run.orders.filter((o) => o.tokenId === token && o.side === 'BUY').map((o) => o.size);
    // first 20 shares each (a's YES 19 USDC, b's NO 19.20); then a's market has 11 USDC of room but
    // the total only 45 - 38.20 = 6.80: 7.15 shares at 0.95; then nothing is left for either
    expect(buys(a.yes)).toEqual([qty('20'), qty('7.15')]);
    expect(buys(b.no)).toEqual([qty('20')]);
    expect(run.orders.some((o) => o.tokenId === a.no || o.tokenId === b.yes)).toBe(false);
    const cost = run.positions.reduce((sum, p) => sum + (p.size * p.avgPrice) / 1e12, 0);
    expect(cost).toBeLessThanOrEqual(45);
  });

  it('sells at the bid when the favourite breaks down (its bid under the stop for stopConfirmMs), and leaves the market', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'collapse', endDate: END });
    script.at(400_000);
    quote(script, m, 0.93, 0.94);
    script.at(450_000);
    quote(script, m, 0.85, 0.88); // lower, still over the stop: held
    script.at(455_000);
    script.book(m.yes, { bids: [['0.05', '500']], asks: [['0.88', '500']] }); // the bid gone for a moment: no breakdown
    script.at(455_200);
    quote(script, m, 0.86, 0.88);
    script.at(460_000);
    quote(script, m, 0.72, 0.75); // broke down...
    script.at(461_500);
    quote(script, m, 0.7, 0.74); // ...and still down 1.5 s later: sold
    script.at(480_000);
    quote(script, m, 0.93, 0.94); // back up: not entered again
    script.at(600_000).close(m);
    script.at(602_000).resolve(m, m.no);
    const run = await runStrategy(MODULE, { books: script, params });
    expect(run.orders.map((o) => [o.side, o.price, o.ref])).toEqual([
      ['BUY', 940_000, 'nr-entry'],
      ['SELL', 700_000, 'nr-stop'],
    ]);
    const yes = run.positions.find((p) => p.tokenId === m.yes)!;
    expect(yes.size).toBe(0);
    // 20 × (0.70 - 0.94): the stop's loss, not the resolution's 20 × 0.94
    expect(yes.realizedPnl).toBe(-4_800_000);
    expect(run.summary.strategies[0]!.metrics).toMatchObject({ entries: 1, stopped: 1 });
    expect(run.summary.strategies[0]!.metrics['lost']).toBeUndefined();
  });

  it('does not buy without an end date, outside the band, in the last seconds, on a wide book, or where fees leave no edge', async () => {
    const script = scriptedBooks();
    const none = script.market({ slug: 'no-end' });
    const rich = script.market({ slug: 'rich', endDate: END });
    const late = script.market({ slug: 'late', endDate: END });
    const wide = script.market({ slug: 'wide', endDate: END });
    const fees = script.market({ slug: 'fees', endDate: END, takerFeeBps: 1_000 });
    script.at(400_000);
    quote(script, none, 0.94, 0.95);
    quote(script, rich, 0.98, 0.99); // ask over maxPrice (0.98)
    quote(script, wide, 0.88, 0.95); // 7 cents wide
    quote(script, fees, 0.96, 0.97); // 1 - 0.97 - 10 % of 0.03 leaves 0.027... under a 0.03 edge
    script.at(597_000);
    quote(script, late, 0.94, 0.95); // 3 s before the end
    const run = await runStrategy(MODULE, { books: script, params: { ...params, minEdge: 0.03 } });
    expect(run.faults).toEqual([]);
    expect(run.intents).toEqual([]);
  });

  it('refuses params whose stop is not under the band, or whose size does not fit the market cap', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'x', endDate: END });
    script.at(0);
    quote(script, m, 0.5, 0.51);
    await expect(runStrategy(MODULE, { books: script, params: { stopPrice: 0.9, minPrice: 0.9 } })).rejects.toThrow(/stopPrice must be below minPrice/);
    await expect(runStrategy(MODULE, { books: script, params: { size: 100, maxPerMarket: 10 } })).rejects.toThrow(/size must fit in maxPerMarket/);
  });
});
