import { Dec, decimalToMicros, formatMicros, MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import { notional as notionalMicros } from '../core/money.ts';

/**
 * Money for strategy authors. Prices and sizes are integers of 1e-6 (Micros): a price of 0.52 is
 * 520_000, 10 shares are 10_000_000, 1 unit of collateral is MICROS_PER_UNIT. These helpers go
 * to and from decimals exactly and round onto the venue's grids.
 */

export { MICROS_PER_UNIT };

/** The venue's size lot: 0.01 share. */
export const SIZE_LOT: Micros = 10_000;

/** Below this magnitude one micro is more than 8 ulps, so the number fast path below is exact. */
const FAST_LIMIT = 1e9;

/** Micros from decimal text or a number: `toMicros('0.52')` is 520_000 (exact for text). */
export function toMicros(value: string | number): Micros {
  // Strategies call this on every quote (`qty(ctx.params.size)`), and a Decimal costs about a
  // microsecond. When the micros nearest to a number divide back to that very number, the
  // number's shortest text (what Decimal reads) is those micros' decimal: below FAST_LIMIT no
  // other text of 6 decimals or fewer digits maps to the same double. Anything else (more than
  // 6 decimals, huge, not finite, text) takes the exact Decimal path and its errors.
  if (typeof value === 'number' && value < FAST_LIMIT && value > -FAST_LIMIT) {
    const micros = Math.round(value * MICROS_PER_UNIT);
    if (micros / MICROS_PER_UNIT === value) return micros;
  }
  return decimalToMicros(new Dec(value));
}

/** The shortest decimal text of a Micros amount: `fromMicros(520_000)` is "0.52". */
export function fromMicros(value: Micros): string {
  return formatMicros(value);
}

/** A price: `px('0.52')` is 520_000. Throws a RangeError unless 0 < price < 1. */
export function px(value: string | number): Micros {
  const price = toMicros(value);
  if (!(price > 0 && price < MICROS_PER_UNIT)) throw new RangeError(`px(${JSON.stringify(value)}): a price must be above 0 and below 1`);
  return price;
}

/** A size in shares: `qty('12.5')` is 12_500_000. Throws a RangeError for a negative size. */
export function qty(value: string | number): Micros {
  const size = toMicros(value);
  if (size < 0) throw new RangeError(`qty(${JSON.stringify(value)}): a size cannot be negative`);
  return size;
}

export type Rounding = 'down' | 'up' | 'nearest';

/** `price` on the tick grid: `roundToTick(523_400, 10_000, 'down')` is 520_000. */
export function roundToTick(price: Micros, tickSize: Micros, rounding: Rounding = 'nearest'): Micros {
  return roundTo(price, tickSize, rounding, 'roundToTick');
}

/** `size` in whole lots (0.01 share unless told), rounded down unless told. */
export function roundToLot(size: Micros, lot: Micros = SIZE_LOT, rounding: Rounding = 'down'): Micros {
  return roundTo(size, lot, rounding, 'roundToLot');
}

/** Collateral value of `size` shares at `price`, in Micros (rounded down to a micro). */
export function notional(price: Micros, size: Micros): Micros {
  return notionalMicros(price, size);
}

function roundTo(value: Micros, step: Micros, rounding: Rounding, name: string): Micros {
  if (!(Number.isSafeInteger(step) && step > 0)) throw new RangeError(`${name}: the step must be a positive whole number of micros, got ${step}`);
  const q = value / step;
  const n = rounding === 'down' ? Math.floor(q) : rounding === 'up' ? Math.ceil(q) : Math.round(q);
  return n * step;
}
