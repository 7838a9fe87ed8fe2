import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { big, formatPicos, microsToPicos, notionalPicos, PicoSum } from '../../src/risk/money.ts';

describe('risk money', () => {
  it.each([
    [0n, '0'],
    [1n, '0.000000000001'],
    [999_999_000_000n, '0.999999'],
    [60_500_000_000_000n, '60.5'],
    [-2_500_000_000_000n, '-2.5'],
    [8_999_991_000_000_000_000_000n, '8999991000'],
  ])('formatPicos(%s) = %s', (picos, text) => {
    expect(formatPicos(picos)).toBe(text);
  });

  it('notional is exact beyond 2^53', () => {
    // 999999 × 9e15 = 8.999991e21, far past the float mantissa.
    expect(notionalPicos(999_999, 9_000_000_000_000_000)).toBe(8_999_991_000_000_000_000_000n);
    expect(microsToPicos(1, 'x')).toBe(1_000_000n);
  });

  it.each([NaN, Infinity, 0.5, 2 ** 53])('big(%s) throws a RangeError naming the value', (v) => {
    expect(() => big(v, 'order price')).toThrow(RangeError);
    expect(() => big(v, 'order price')).toThrow(/^order price /);
  });
});

describe('PicoSum', () => {
  it('equals the BigInt sum of products, across the 2^53 boundary', () => {
    const edge = [0, 1, 999_999, 1_000_000, 94_906_265, 94_906_266, 2 ** 26, 2 ** 27, 9_007_199_254_740_991];
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...edge)),
            fc.oneof(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 100_000_000 }), fc.constantFrom(...edge)),
          ),
          { maxLength: 40 },
        ),
        (pairs) => {
          const sum = new PicoSum();
          let expected = 0n;
          for (const [a, b] of pairs) {
            sum.addProduct(a, b);
            expected += BigInt(a) * BigInt(b);
          }
          expect(sum.value).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('stays exact with signed factors (a huge negative product next to a large total)', () => {
    const sum = new PicoSum();
    sum.addProduct(1, Number.MAX_SAFE_INTEGER);
    sum.addProduct(-3, 3_002_399_751_580_331); // -9007199254740993: past 2^53, a double would round it
    expect(sum.value).toBe(-2n);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger().map((v) => v - Math.floor(Number.MAX_SAFE_INTEGER / 2)))), (pairs) => {
        const s2 = new PicoSum();
        let expected = 0n;
        for (const [a, b] of pairs) {
          s2.addProduct(a, b);
          expected += BigInt(a) * BigInt(b);
        }
        expect(s2.value).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('exceedsMicros compares with limit x 1e6 picos exactly, in numbers or BigInt', () => {
    const limits = [0, 1, 999_999, 9_007_199_254, 9_007_199_255, 1e12, Number.MAX_SAFE_INTEGER];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.oneof(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }))), { maxLength: 8 }),
        fc.oneof(fc.constantFrom(...limits), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
        (pairs, limit) => {
          const sum = new PicoSum();
          for (const [a, b] of pairs) sum.addProduct(a, b);
          expect(sum.exceedsMicros(limit)).toBe(sum.value > BigInt(limit) * 1_000_000n);
          // at the limit exactly is not above it
          const at = new PicoSum();
          at.addProduct(limit, 1_000_000);
          expect(at.exceedsMicros(limit)).toBe(false);
          at.addProduct(1, 1);
          expect(at.exceedsMicros(limit)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('switches to BigInt exactly when a product or the total reaches 2^53', () => {
    const sum = new PicoSum();
    sum.addProduct(94_906_265, 94_906_265); // 9007199136250225 < 2^53
    sum.addProduct(1, 118_490_766); // total 2^53 - 1
    expect(sum.value).toBe(2n ** 53n - 1n);
    sum.addProduct(1, 1); // total 2^53: not safe in a double's integer range, carried in the BigInt
    sum.addProduct(3, 3);
    expect(sum.value).toBe(2n ** 53n + 9n);
    sum.addPicos(-1n);
    expect(sum.value).toBe(2n ** 53n + 8n);
  });
});
