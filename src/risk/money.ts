import { MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';

/**
 * Exact money for risk. A notional is price × size with both in Micros, so it counts units of
 * 1e-12 ("pico"); it is held in a BigInt and compared against a limit scaled the same way, so no
 * rounding ever happens (0.333333 × 3 = 0.999999 exactly, and 9e9 shares × 0.99 stays exact).
 */

const MICROS = BigInt(MICROS_PER_UNIT);
const PICOS_PER_UNIT = MICROS * MICROS;

/** The full price of one share, Micros. */
export const ONE: Micros = MICROS_PER_UNIT;

/** True when `value` is a whole number of micros that fits a JS number exactly. */
export function isWholeMicros(value: number): boolean {
  return Number.isSafeInteger(value);
}

/**
 * A Micros value as a BigInt. Throws RangeError naming `what` on NaN, infinities or fractional
 * micros (a malformed state is a caller bug; the engine turns the throw into a fail-closed denial).
 */
export function big(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} ${String(value)} is not a whole number of micros`);
  return BigInt(value);
}

/** price × size in picos (1e-12 collateral). */
export function notionalPicos(price: Micros, size: Micros, what = 'order'): bigint {
  return big(price, `${what} price`) * big(size, `${what} size`);
}

/** A Micros limit in picos, to compare against notionals. */
export function microsToPicos(value: Micros, what: string): bigint {
  return big(value, what) * MICROS;
}

/** Exact shortest decimal of a picos amount: 999999000000n -> "0.999999", 60500000000000n -> "60.5". */
export function formatPicos(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / PICOS_PER_UNIT;
  const frac = abs % PICOS_PER_UNIT;
  let text = whole.toString();
  if (frac !== 0n) text += '.' + frac.toString().padStart(12, '0').replace(/0+$/, '');
  return negative ? '-' + text : text;
}
