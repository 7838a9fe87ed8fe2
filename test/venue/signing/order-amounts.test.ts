import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../../src/core/errors.ts';
import { tickDecimals } from '../../../src/core/fixed.ts';
import { computeOrderAmounts } from '../../../src/venue/signing/order-amounts.ts';
import { OrderBuildError } from '../../../src/venue/signing/order-build-error.ts';

/** Tick sizes in use (PROTOCOL "Orders"), in micros. */
const TICKS = [100_000, 10_000, 5_000, 1_000, 2_500, 100];

const tickArb = fc.constantFrom(...TICKS);
const sideArb = fc.constantFrom('BUY' as const, 'SELL' as const);
/** A price on the grid and within [tick, 1 - tick]. */
const onGrid = tickArb.chain((tick) =>
  fc.integer({ min: 1, max: 1_000_000 / tick - 1 }).map((k) => ({ tick, price: k * tick })),
);
/** Sizes from 0.01 share to the largest safe micros (big products overflow 2^53: the bigint path). */
const sizeArb = fc.oneof(fc.integer({ min: 10_000, max: 10_000_000_000 }), fc.integer({ min: 10_000, max: Number.MAX_SAFE_INTEGER }));

function expectBuildError(fn: () => unknown, param: string): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OrderBuildError);
    expect(err).toBeInstanceOf(ParameterError);
    expect((err as OrderBuildError).param).toBe(param);
    return;
  }
  throw new Error(`expected OrderBuildError on ${param}`);
}

describe('computeOrderAmounts properties', () => {
  it('cuts the size to 2 decimals on the share side', () => {
    fc.assert(
      fc.property(onGrid, sizeArb, ({ tick, price }, size) => {
        const cut = size - (size % 10_000);
        const buy = computeOrderAmounts('BUY', price, size, tick);
        const sell = computeOrderAmounts('SELL', price, size, tick);
        expect(buy.takerAmount).toBe(cut);
        expect(sell.makerAmount).toBe(cut);
        expect(cut).toBeLessThanOrEqual(size);
        expect(size - cut).toBeLessThan(10_000);
      }),
    );
  });

  it('keeps the derived amount on the (tick decimals + 2) grid, rounded down, never above price x size', () => {
    fc.assert(
      fc.property(onGrid, sizeArb, sideArb, ({ tick, price }, size, side) => {
        const a = computeOrderAmounts(side, price, size, tick);
        const shares = side === 'BUY' ? a.takerAmount : a.makerAmount;
        const derived = side === 'BUY' ? a.makerAmount : a.takerAmount;
        expect(Number.isSafeInteger(a.makerAmount) && Number.isSafeInteger(a.takerAmount)).toBe(true);
        const unit = 10 ** (6 - Math.min(tickDecimals(tick) + 2, 6));
        expect(derived % unit).toBe(0);
        // exact: derived <= shares x price / 1e6 < derived + unit
        const exact = BigInt(shares) * BigInt(price);
        expect(BigInt(derived) * 1_000_000n <= exact).toBe(true);
        expect((BigInt(derived) + BigInt(unit)) * 1_000_000n > exact).toBe(true);
        expect(BigInt(derived) * 1_000_000n <= BigInt(size) * BigInt(price)).toBe(true);
        // for every tick in use the product is exact: the implied price is the price
        expect(BigInt(derived) * 1_000_000n).toBe(exact);
      }),
    );
  });

  it('refuses a price off the tick grid', () => {
    fc.assert(
      fc.property(onGrid, sizeArb, sideArb, fc.integer({ min: 1, max: 99_999 }), ({ tick, price }, size, side, r) => {
        fc.pre(r % tick !== 0);
        const off = price - tick + r; // strictly between two grid points
        fc.pre(off > 0 && off < 1_000_000);
        expectBuildError(() => computeOrderAmounts(side, off, size, tick), 'price');
      }),
    );
  });

  it('refuses a price outside [tick, 1 - tick]', () => {
    fc.assert(
      fc.property(tickArb, sizeArb, sideArb, fc.integer({ min: -5, max: 5 }), (tick, size, side, k) => {
        const below = k <= 0 ? k * tick : -k * tick; // 0 or negative grid points
        expectBuildError(() => computeOrderAmounts(side, below, size, tick), 'price');
        const above = 1_000_000 + Math.abs(k) * tick; // 1 and beyond
        expectBuildError(() => computeOrderAmounts(side, above, size, tick), 'price');
      }),
    );
  });

  it('accepts exactly the bounds', () => {
    for (const tick of TICKS) {
      expect(computeOrderAmounts('BUY', tick, 100_000_000, tick).makerAmount).toBe(100 * tick);
      expect(computeOrderAmounts('SELL', 1_000_000 - tick, 100_000_000, tick).takerAmount).toBe(100 * (1_000_000 - tick));
    }
  });

  it('refuses sizes that cut to zero, non-integer micros, bad ticks and sides', () => {
    expectBuildError(() => computeOrderAmounts('BUY', 500_000, 9_999, 10_000), 'size');
    expectBuildError(() => computeOrderAmounts('BUY', 500_000, 0, 10_000), 'size');
    expectBuildError(() => computeOrderAmounts('BUY', 500_000, 1.5, 10_000), 'size');
    expectBuildError(() => computeOrderAmounts('BUY', 500_000.5, 1_000_000, 10_000), 'price');
    expectBuildError(() => computeOrderAmounts('BUY', 500_000, 1_000_000, 0), 'tick');
    expectBuildError(() => computeOrderAmounts('BUY', 500_000, 1_000_000, 3_000), 'tick');
    expectBuildError(() => computeOrderAmounts('HOLD' as 'BUY', 500_000, 1_000_000, 10_000), 'side');
  });

  it('names the rule in the message', () => {
    expect(() => computeOrderAmounts('BUY', 523_000, 1_000_000, 10_000)).toThrow(
      "order: parameter 'price' must be a multiple of the tick 0.01, was 0.523",
    );
  });
});
