import { Dec, decimalToMicros, formatMicros, MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import { notional as notionalMicros } from '../core/money.ts';

/**
 * Money for strategy authors. Prices and sizes are integers of 1e-6 (Micros): a price of 0.52 is
 * 520_000, 10 shares are 10_000_000, 1 unit of collateral is MICROS_PER_UNIT. These helpers go
 * to and from decimals exactly and round onto the venue's grids.
 */

export { MICROS_PER_UNIT };

/**
 * The largest amount, in units, that a number holds exactly and the venue represents (2^53 - 1
 * micros is 9007199254.740991, which no double holds: the nearest is above it). A params schema
 * bounds its amounts with it (`size: z.number().positive().max(MAX_AMOUNT)`), so a size of 1e300
 * is refused when the config loads, naming its key; `qty(MAX_AMOUNT)` is exact.
 */
export const MAX_AMOUNT = 9_007_199_254.74099;

/** The venue's size lot: 0.01 share. */
export const SIZE_LOT: Micros = 10_000;

/** Below this magnitude one micro is more than 8 ulps, so the number fast path below is exact. */
const FAST_LIMIT = 1e9;

/**
 * Micros from decimal text or a number: `toMicros('0.52')` is 520_000 (exact for text). Throws a
 * RangeError naming the value for more than 6 decimals, a value that is not a number, or one past
 * the largest amount the venue represents (2^53 - 1 micros, 9007199254.740991).
 */
export function toMicros(value: string | number): Micros {
  return micros(value, 'toMicros');
}

function micros(value: string | number, name: string): Micros {
  // Strategies call this on every quote (`qty(ctx.params.size)`), and a Decimal costs about a
  // microsecond. When the micros nearest to a number divide back to that very number, the
  // number's shortest text (what Decimal reads) is those micros' decimal: below FAST_LIMIT no
  // other text of 6 decimals or fewer digits maps to the same double. Anything else (more than
  // 6 decimals, huge, not finite, text) takes the exact Decimal path and its errors.
  if (typeof value === 'number' && value < FAST_LIMIT && value > -FAST_LIMIT) {
    const m = Math.round(value * MICROS_PER_UNIT);
    if (m / MICROS_PER_UNIT === value) return m;
  }
  return exactMicros(value, name);
}

function exactMicros(value: string | number, name: string): Micros {
  const shown = `${name}(${typeof value === 'string' ? JSON.stringify(value) : String(value)})`;
  let d: InstanceType<typeof Dec>;
  try {
    d = new Dec(value);
  } catch {
    throw new RangeError(`${shown}: not a decimal number`);
  }
  if (!d.isFinite()) throw new RangeError(`${shown}: not a finite number`);
  const scaled = d.mul(MICROS_PER_UNIT);
  if (!scaled.isInteger()) throw new RangeError(`${shown}: more than 6 decimals (the venue's unit is 0.000001)`);
  if (scaled.abs().gt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${shown}: out of range: an amount is at most ${formatMicros(Number.MAX_SAFE_INTEGER)} (2^53 - 1 micros)`);
  }
  return decimalToMicros(d);
}

/** The shortest decimal text of a Micros amount: `fromMicros(520_000)` is "0.52". */
export function fromMicros(value: Micros): string {
  return formatMicros(value);
}

/** A price: `px('0.52')` is 520_000. Throws a RangeError unless 0 < price < 1. */
export function px(value: string | number): Micros {
  const price = micros(value, 'px');
  if (!(price > 0 && price < MICROS_PER_UNIT)) throw new RangeError(`px(${JSON.stringify(value)}): a price must be above 0 and below 1`);
  return price;
}

/** A size in shares: `qty('12.5')` is 12_500_000. Throws a RangeError for a negative size. */
export function qty(value: string | number): Micros {
  const size = micros(value, 'qty');
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
