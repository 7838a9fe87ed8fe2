import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ParameterError } from '../../src/core/errors.ts';
import { FeeRate, feeBase, formatPicos, mulDivFloor, notional, notionalPicos } from '../../src/core/money.ts';

describe('the money kit', () => {
  it('notional is price × size in micros, rounded down; notionalPicos is exact', () => {
    expect(notional(520_000, 40_000_000)).toBe(20_800_000);
    expect(notional(333_333, 3)).toBe(0); // 0.999999 picos
    expect(notionalPicos(999_999, 9_000_000_000_000_000)).toBe(8_999_991_000_000_000_000_000n);
    expect(formatPicos(notionalPicos(520_000, 40_000_000))).toBe('20.8');
  });

  it('mulDivFloor equals the BigInt floor on both sides of 2^53', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), (a, b, d) => {
        expect(mulDivFloor(a, b, d)).toBe(Number((BigInt(a) * BigInt(b)) / BigInt(d)));
      }),
    );
  });

  it('charges rate × min(p, 1 - p) × size, rounded down to a micro', () => {
    const rate = new FeeRate(200);
    expect(feeBase(600_000)).toBe(400_000);
    // 2% × 0.4 × 100 = 0.8
    expect(rate.fee(600_000, 100_000_000)).toBe(800_000);
    expect(rate.fee(400_000, 100_000_000)).toBe(800_000);
    // 2% × 0.01 × 0.05 = 0.00001 -> 10 micros; 2% × 0.01 × 0.0049 rounds down to 0
    expect(rate.fee(10_000, 50_000)).toBe(10);
    expect(rate.fee(10_000, 4_900)).toBe(0);
    expect(new FeeRate(0).fee(500_000, 1_000_000)).toBe(0);
    expect(new FeeRate(0).isZero).toBe(true);
  });

  it('gives a fractional rate exactly, and a whole one the same whichever way it is written', () => {
    // 1.5 bps × 0.5 × 1000 = 0.075
    expect(new FeeRate('1.5').fee(500_000, 1_000_000_000)).toBe(75_000);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 2 ** 50 }), (bps, price, size) => {
        const whole = new FeeRate(bps).fee(price, size);
        expect(new FeeRate(`${bps}.0`).fee(price, size)).toBe(whole);
        const exact = (BigInt(bps) * BigInt(Math.min(price, 1_000_000 - price)) * BigInt(size)) / 10_000_000_000n;
        expect(whole).toBe(Number(exact));
      }),
    );
  });

  it('shares the rate of a whole number of bps, and refuses a bad rate', () => {
    expect(FeeRate.of(25)).toBe(FeeRate.of(25));
    expect(FeeRate.of(25).wholeBps).toBe(25);
    expect(new FeeRate('0.5').wholeBps).toBeUndefined();
    expect(new FeeRate(300).gt(new FeeRate('299.9'))).toBe(true);
    expect(() => new FeeRate(-1)).toThrow(ParameterError);
    expect(() => new FeeRate(Infinity)).toThrow(ParameterError);
  });
});
