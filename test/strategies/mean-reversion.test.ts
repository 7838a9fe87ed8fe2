import { describe, expect, it } from 'vitest';
import { qty } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

const MODULE = 'strategies/mean-reversion.ts';

/**
 * One market; the YES book every second around the mids given (bid and ask a cent either side,
 * 500 deep); the NO book mirrors it (so NO sees the opposite moves).
 */
function books(mids: readonly number[]) {
  const script = scriptedBooks();
  const m = script.market({ slug: 'rain' });
  mids.forEach((mid, i) => {
    script.at(i * 1_000);
    script.book(m.yes, { bids: [[(mid - 0.01).toFixed(2), '500']], asks: [[(mid + 0.01).toFixed(2), '500']] });
    script.book(m.no, { bids: [[(1 - mid - 0.01).toFixed(2), '500']], asks: [[(1 - mid + 0.01).toFixed(2), '500']] });
  });
  return { script, m };
}

/** Ten seconds wobbling around 0.50 (deviation 0.01), then `tail`. */
const calm = [0.5, 0.51, 0.49, 0.5, 0.51, 0.49, 0.5, 0.51, 0.49, 0.5];
const params = { window: 10, sampleMs: 1_000, entryZ: 2, exitZ: 0, size: 10, minStdev: 0.005, cooldownMs: 0 };

describe('mean-reversion (clobot/testing)', () => {
  it('buys the dip at the ask when the z-score falls under -entryZ, sells at the bid once it reverts', async () => {
    const { script, m } = books([...calm, 0.45, 0.47, 0.5, 0.51]);
    const run = await runStrategy(MODULE, { books: script, params });
    expect(run.faults).toEqual([]);
    const orders = run.orders.filter((o) => o.tokenId === m.yes);
    expect(orders.map((o) => [o.side, o.price, o.size, o.ref])).toEqual([
      // 0.45 against a window around 0.50: z about -2.3; bought at its ask 0.46
      ['BUY', 460_000, qty('10'), 'mr-entry'],
      // the mid back to 0.50 (z >= 0): sold at the bid 0.49
      ['SELL', 490_000, qty('10'), 'mr-exit-reverted'],
    ]);
    expect(run.positions.find((p) => p.tokenId === m.yes)?.size).toBe(0);
    expect(run.positions.find((p) => p.tokenId === m.yes)?.realizedPnl).toBe(300_000);
    // the NO token saw the opposite move (a spike): never bought
    expect(run.orders.some((o) => o.tokenId === m.no && o.side === 'BUY')).toBe(false);
  });

  it('stops out when the mid keeps falling stopLoss under the entry', async () => {
    const { script, m } = books([...calm, 0.45, 0.43, 0.4, 0.38]);
    const run = await runStrategy(MODULE, { books: script, params: { ...params, stopLoss: 0.05 } });
    const orders = run.orders.filter((o) => o.tokenId === m.yes);
    // entered at 0.46 (average), stopped at a mid of 0.40 <= 0.46 - 0.05
    expect(orders.map((o) => o.ref)).toEqual(['mr-entry', 'mr-exit-stopped']);
    expect(orders[1]!.price).toBe(390_000);
    expect(run.logs.some((l) => l.msg === 'exit' && l.fields['why'] === 'stopped')).toBe(true);
  });

  it('leaves after maxHoldMs when the price neither reverts nor breaks', async () => {
    const { script, m } = books([...calm, 0.45, 0.45, 0.45, 0.45, 0.45, 0.45]);
    const run = await runStrategy(MODULE, { books: script, params: { ...params, maxHoldMs: 3_000, entryZ: 1.5 } });
    const orders = run.orders.filter((o) => o.tokenId === m.yes);
    expect(orders.map((o) => o.ref)).toEqual(['mr-entry', 'mr-exit-timedOut']);
    expect(orders[1]!.createdAt - orders[0]!.createdAt).toBeGreaterThanOrEqual(3_000);
  });

  it('does not trade a flat window, a wide book, a price outside its band, or before the window is full', async () => {
    const flat = books([...Array(10).fill(0.5), 0.49]);
    expect((await runStrategy(MODULE, { books: flat.script, params })).intents).toEqual([]);
    const early = books([0.5, 0.51, 0.45]);
    expect((await runStrategy(MODULE, { books: early.script, params })).intents).toEqual([]);
    const band = books([...calm.map((x) => x - 0.42), 0.03]);
    expect((await runStrategy(MODULE, { books: band.script, params: { ...params, minPrice: 0.1 } })).orders.filter((o) => o.side === 'BUY')).toEqual([]);
    const wide = books([...calm, 0.45]);
    expect((await runStrategy(MODULE, { books: wide.script, params: { ...params, maxSpread: 0.01 } })).intents).toEqual([]);
  });

  it('refuses params whose exit is not nearer the mean than its entry', async () => {
    const { script } = books(calm);
    await expect(runStrategy(MODULE, { books: script, params: { entryZ: 1, exitZ: 1 } })).rejects.toThrow(/exitZ must be below entryZ/);
  });
});
