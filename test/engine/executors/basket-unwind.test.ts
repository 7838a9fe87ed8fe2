import { describe, expect, it } from 'vitest';
import { unwindLimits, unwindNeed } from '../../../src/engine/executors/basket-unwind.ts';

const M = 1_000_000;

describe('unwind limits', () => {
  it('shares the cap by what each leg needs at the book, so every leg can trade back when the cap covers them all', () => {
    // two BUY legs of 50: one bought at 0.31 (bid 0.29: needs 1.00), one at 0.40 (bid 0.39: needs 0.50)
    const a = { side: 'BUY' as const, filled: 50 * M, notional: 15.5 * M, fee: 0, tickSize: 10_000, takerFeeBps: 0, need: unwindNeed([{ price: 290_000, size: 300 * M }], 'BUY', 50 * M, 15.5 * M, 0) };
    const b = { side: 'BUY' as const, filled: 50 * M, notional: 20 * M, fee: 0, tickSize: 10_000, takerFeeBps: 0, need: unwindNeed([{ price: 390_000, size: 300 * M }], 'BUY', 50 * M, 20 * M, 0) };
    expect([a.need, b.need]).toEqual([M, 0.5 * M]);
    // a cap of 1.5 covers both needs exactly: each leg's limit is its bid
    expect(unwindLimits([a, b], 1.5 * M)).toEqual([290_000, 390_000]);
    // shared by notional alone, the first leg's limit would sit above its bid
    expect(unwindLimits([{ ...a, need: undefined }, { ...b, need: undefined }], 1.5 * M)[0]).toBeGreaterThan(290_000);
    // a cap below the needs: limits above the bids (no fill rather than a loss past the cap)
    const tight = unwindLimits([a, b], 0.3 * M);
    expect(tight[0]!).toBeGreaterThan(290_000);
    expect(tight[1]!).toBeGreaterThan(390_000);
  });

  it('a SELL leg is bought back at or under its limit; a limit that cannot be a price is undefined', () => {
    const sold = { side: 'SELL' as const, filled: 10 * M, notional: 9.8 * M, fee: 0, tickSize: 10_000, takerFeeBps: 0 };
    expect(unwindLimits([sold], 0.1 * M)).toEqual([990_000]);
    // a BUY leg at 0.99 with no room: the limit would have to be above 1 - tick
    const high = { side: 'BUY' as const, filled: 10 * M, notional: 9.95 * M, fee: 0.5 * M, tickSize: 10_000, takerFeeBps: 0 };
    expect(unwindLimits([high], 0)).toEqual([undefined]);
  });
});
