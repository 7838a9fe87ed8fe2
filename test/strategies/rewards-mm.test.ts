import { describe, expect, it } from 'vitest';
import { px, qty, type OrderIntent } from 'clobot';
import { runStrategy, scriptedBooks, type ScriptedBooks, type ScriptedMarket } from 'clobot/testing';

const MM = 'strategies/rewards-mm.ts';
/** 144 USDC a day: 0.1 USDC a minute for the whole market; min_size 100 shares; band 3 cents. */
const REWARDS = { dailyRate: 144, minSize: '100', maxSpreadCents: 3 };

/** A reward market whose book stands at `bid`/`ask` (500 shares each) every 30 s for `minutes`. */
function steady(minutes: number, bid = '0.48', ask = '0.52'): { script: ScriptedBooks; m: ScriptedMarket } {
  const script = scriptedBooks();
  const m = script.market({ rewards: REWARDS });
  for (let t = 0; t <= minutes * 60_000; t += 30_000) books(script, m, t, bid, ask);
  return { script, m };
}

/** Both tokens' books at `t`: YES bid/ask, and the NO book its mirror (as the venue publishes both). */
function books(script: ScriptedBooks, m: ScriptedMarket, t: number, bid: string, ask: string, size = '500'): void {
  const flip = (p: string) => (1 - Number(p)).toFixed(4);
  script.at(t).book(m.yes, { bids: [[bid, size]], asks: [[ask, size]] });
  script.at(t).book(m.no, { bids: [[flip(ask), size]], asks: [[flip(bid), size]] });
}

const quotes = (intents: readonly { intent: OrderIntent }[], tokenId: string) =>
  intents.map((x) => x.intent).filter((i): i is Extract<OrderIntent, { kind: 'quote' }> => i.kind === 'quote' && i.tokenId === tokenId);

describe('rewards-mm (strategies/rewards-mm.ts)', () => {
  it('quotes both sides inside the band at min_size, the ask side as a NO bid, and accrues its share', async () => {
    const { script, m } = steady(10);
    const run = await runStrategy(MM, { books: script, params: { size: 50 } });
    // mid 0.50, half the band (1.5 cents) out, on the tick grid: bid 0.48, ask 0.52 = BUY NO 0.48; size raised to min_size
    // (cancelled at the stop, by onStop)
    expect(run.orders.map((o) => [o.tokenId, o.side, o.price, o.size])).toEqual([
      [m.yes, 'BUY', px('0.48'), qty('100')],
      [m.no, 'BUY', px('0.48'), qty('100')],
    ]);
    // worked by hand: with ours the book is 0.48 x 600 / 0.52 x 600, mid 0.50, s = 2 cents on both sides:
    // ours (1/3)^2 * 100 = 11.111 a side, Q = 11.111; the rest (0.48 x 500, 0.52 x 500) 55.556; share 1/6;
    // each minute pays 0.1 / 6 = 0.016667 USDC
    const r = run.summary.rewards;
    const market = r.markets[0]!;
    expect(market.scoringSamples).toBeGreaterThanOrEqual(9);
    expect(Number(r.total)).toBeCloseTo((market.scoringSamples * 0.1) / 6, 6);
    expect(r.byStrategy).toEqual({ strategy: r.total });
    // apart from trading PnL: no fill, no PnL
    expect(run.summary.metrics.pnl.total).toBe('0');
  });

  it('a coarse tick and a narrow band: the tick nearer the midpoint when the one away from it is outside the band', async () => {
    const script = scriptedBooks();
    const m = script.market({ tickSize: '0.01', rewards: { dailyRate: 144, minSize: '100', maxSpreadCents: 1.5 } });
    for (let t = 0; t <= 120_000; t += 30_000) books(script, m, t, '0.19', '0.20');
    const run = await runStrategy(MM, { books: script });
    // mid 0.195, half the band 0.75 cents: 0.1875 rounds down to 0.18, 1.5 cents out (the band's edge, scores
    // nothing): 0.19 instead (0.5 cents); the ask 0.2025 rounds up to 0.21, also out: 0.20 (a NO bid at 0.80)
    expect(run.orders.map((o) => [o.tokenId, o.side, o.price])).toEqual([
      [m.yes, 'BUY', px('0.19')],
      [m.no, 'BUY', px('0.80')],
    ]);
    expect(Number(run.summary.rewards.total)).toBeGreaterThan(0);
  });

  it('a size past maxInventory is refused with the param named (it would never quote)', async () => {
    await expect(runStrategy(MM, { books: steady(1).script, params: { size: 500 } })).rejects.toThrow(/params\.size: must be at most maxInventory/);
    await expect(runStrategy(MM, { books: steady(1).script, params: { size: 500, maxInventory: 500 } })).resolves.toBeDefined();
  });

  it('keeps its queue on a small move and replaces on a real one', async () => {
    const script = scriptedBooks();
    const m = script.market({ rewards: REWARDS });
    books(script, m, 0, '0.48', '0.52', '500');
    // mid 0.505: the wanted bid is 0.49, one tick from 0.48: kept (replaceTicks 2)
    books(script, m, 30_000, '0.49', '0.52', '500');
    // mid 0.525: wanted 0.51 / 0.54, three ticks: replaced
    books(script, m, 60_000, '0.51', '0.54', '500');
    const run = await runStrategy(MM, { books: script, params: { fastMoveCents: 10 } });
    // one replacement in all: the 0.48 bid rested through the small move
    expect(run.orders.filter((o) => o.tokenId === m.yes).map((o) => o.price)).toEqual([px('0.48'), px('0.51')]);
  });

  it('leans on inventory: long YES past the cap, it sells YES on the ask side and stops buying', async () => {
    const script = scriptedBooks();
    const m = script.market({ rewards: REWARDS });
    books(script, m, 0, '0.48', '0.52', '100');
    // sellers trade through our 0.48 bid: it fills
    script.at(10_000).trade(m.yes, { side: 'SELL', price: '0.48', size: '1000' });
    books(script, m, 20_000, '0.48', '0.52', '100');
    const run = await runStrategy(MM, { books: script, params: { maxInventory: 100 } });
    expect(run.positions.find((p) => p.tokenId === m.yes)?.size).toBe(qty('100'));
    const last = quotes(run.intents, m.yes).at(-1)!;
    expect(last.bids).toEqual([]);
    expect(last.asks).toEqual([{ price: px('0.52'), size: qty('100') }]);
    expect(quotes(run.intents, m.no).at(-1)!.bids).toEqual([]);
  });

  it('pulls on a fast move and quotes again after the cooldown', async () => {
    const script = scriptedBooks();
    const m = script.market({ rewards: REWARDS });
    books(script, m, 0, '0.48', '0.52', '500');
    books(script, m, 1_000, '0.53', '0.57', '500'); // 5 cents in a second
    books(script, m, 10_000, '0.53', '0.57', '500'); // still cooling down
    books(script, m, 40_000, '0.53', '0.57', '500');
    const run = await runStrategy(MM, { books: script, params: { cooldownMs: 30_000 } });
    const at = (t: number) => quotes(run.intents.filter((x) => x.t === t), m.yes);
    expect(at(0).at(-1)!.bids).toEqual([{ price: px('0.48'), size: qty('100') }]);
    for (const t of [1_000, 10_000]) for (const q of at(t)) expect(q).toMatchObject({ bids: [], asks: [] });
    // back after the cooldown; the move filled our NO bid (the YES ask at 0.52), so the bid side is
    // now a SELL of that NO at 0.47 (a YES bid at 0.53), the ask side a BUY of NO at 0.43
    const no = quotes(run.intents.filter((x) => x.t === 40_000), m.no).at(-1)!;
    expect(run.positions.find((p) => p.tokenId === m.no)?.size).toBe(qty('100'));
    expect(no.asks).toEqual([{ price: px('0.47'), size: qty('100') }]);
    expect(no.bids).toEqual([{ price: px('0.43'), size: qty('100') }]);
  });

  it('does not quote near resolution, nor a market without rewards, nor after the market closes', async () => {
    const script = scriptedBooks();
    const edge = script.market({ rewards: REWARDS });
    const plain = script.market();
    books(script, edge, 0, '0.02', '0.04', '500');
    books(script, plain, 0, '0.48', '0.52', '500');
    const run = await runStrategy(MM, { books: script });
    expect(run.orders).toEqual([]);
    expect(run.summary.rewards.total).toBe('0.000000');
  });
});
