import { describe, expect, it } from 'vitest';
import { Dec, decimalToMicros } from '../../src/core/fixed.ts';
import { seededRandom } from '../../src/core/seeded-random.ts';
import { fromMicros, MICROS_PER_UNIT, notional, px, qty, roundToLot, roundToTick, SIZE_LOT, toMicros } from 'clobot';

describe('money helpers of the strategy API', () => {
  it('go to and from decimals exactly', () => {
    expect(MICROS_PER_UNIT).toBe(1_000_000);
    expect(toMicros('0.52')).toBe(520_000);
    expect(toMicros(12.5)).toBe(12_500_000);
    expect(fromMicros(520_000)).toBe('0.52');
    expect(fromMicros(12_500_000)).toBe('12.5');
    expect(fromMicros(toMicros('0.000001'))).toBe('0.000001');
  });

  it('px is a price and qty a size: each refuses what it cannot be', () => {
    expect(px('0.52')).toBe(520_000);
    expect(() => px('1')).toThrow('px("1"): a price must be above 0 and below 1');
    expect(() => px(0)).toThrow(RangeError);
    expect(qty('10')).toBe(10_000_000);
    expect(qty(0)).toBe(0);
    expect(() => qty(-1)).toThrow('qty(-1): a size cannot be negative');
  });

  it('round onto the tick grid and the size lot', () => {
    expect(roundToTick(523_400, 10_000, 'down')).toBe(520_000);
    expect(roundToTick(523_400, 10_000, 'up')).toBe(530_000);
    expect(roundToTick(525_000, 10_000)).toBe(530_000);
    expect(roundToTick(524_999, 10_000)).toBe(520_000);
    expect(roundToTick(520_000, 1_000, 'up')).toBe(520_000);
    expect(SIZE_LOT).toBe(10_000);
    expect(roundToLot(12_345_678)).toBe(12_340_000);
    expect(roundToLot(12_345_678, SIZE_LOT, 'up')).toBe(12_350_000);
    expect(() => roundToTick(1, 0)).toThrow('roundToTick: the step must be a positive whole number of micros, got 0');
  });

  it('notional is price × size in collateral micros', () => {
    expect(notional(px('0.52'), qty('10'))).toBe(toMicros('5.2'));
    expect(notional(px('0.333333'), qty('3'))).toBe(999_999);
  });

  it('a number goes the same way as its Decimal (the fast path keeps to the reference)', () => {
    const reference = (n: number): number | string => {
      try {
        return decimalToMicros(new Dec(n));
      } catch (err) {
        // the reference's words name the number alone; ours name the call too: `toMicros(n): ...`
        if (!Number.isFinite(n)) return `toMicros(${String(n)}): not a finite number`;
        return `toMicros(${String(n)}): ${(err as Error).message.includes('decimals') ? 'more than 6 decimals' : 'out of range'}`;
      }
    };
    const ours = (n: number): number | string => {
      try {
        return toMicros(n);
      } catch (err) {
        const message = (err as Error).message;
        return message.replace(/ \(the venue's unit is 0\.000001\)$/, '').replace(/: an amount is at most .*$/, '');
      }
    };
    const random = seededRandom(11);
    const numbers = [0, -0, 1, 0.1, 0.2 + 0.1, 0.000001, 0.0000001, 1e-7, 123.456789, 123.4567891, 999_999_999.999999, 1e9, 1e9 + 0.5, 2 ** 53, -12.5, Infinity, NaN];
    for (let i = 0; i < 5_000; i++) {
      const scale = 10 ** Math.floor(random() * 12 - 3);
      const x = (random() - 0.5) * scale;
      numbers.push(x, Number(x.toFixed(Math.floor(random() * 8))), Math.round(x * 1e6) / 1e6);
    }
    expect(numbers.map(ours)).toEqual(numbers.map(reference));
  });
});
