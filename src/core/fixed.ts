import { Decimal } from 'decimal.js';

/**
 * Exact fixed-point money. Prices, sizes and amounts in the domain are integers counting
 * micro-units (1e-6), the venue's own 6-decimal base unit, held in a JS number (exact up to
 * 2^53, i.e. 9e9 whole shares). Wire strings are parsed digit by digit, never through a float,
 * so the hot path (book decoding) stays fast and exact. `Decimal` (decimal.js) is used where
 * arbitrary precision is needed (PnL, fees, reports, config values).
 */
export type Micros = number;

export const MICROS_PER_UNIT = 1_000_000;
export const MICRO_DECIMALS = 6;

/** decimal.js configured for money: 40 significant digits, no exponent notation in toString. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Dec = Decimal;

/**
 * Parses a decimal string ("0.52", "100", "-1.5", ".5") into micros. Returns NaN when the text is
 * not a plain decimal or has non-zero digits beyond the 6th decimal; callers turn NaN into a
 * DecodeError naming the field (keeps this function allocation-free for the book decoder).
 */
export function parseMicros(text: string): Micros {
  const n = text.length;
  if (n === 0 || n > 24) return NaN;
  let i = 0;
  let negative = false;
  const c0 = text.charCodeAt(0);
  if (c0 === 45 /* - */) {
    negative = true;
    i = 1;
  } else if (c0 === 43 /* + */) {
    i = 1;
  }
  let whole = 0;
  let digits = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) break;
    if (c < 48 || c > 57) return NaN;
    whole = whole * 10 + (c - 48);
    digits++;
  }
  let frac = 0;
  let fracDigits = 0;
  if (i < n) {
    i++; // skip '.'
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return NaN;
      if (fracDigits < MICRO_DECIMALS) {
        frac = frac * 10 + (c - 48);
        fracDigits++;
      } else if (c !== 48) {
        return NaN; // precision beyond micros would be lost
      }
      digits++;
    }
  }
  if (digits === 0) return NaN;
  while (fracDigits < MICRO_DECIMALS) {
    frac *= 10;
    fracDigits++;
  }
  const value = whole * MICROS_PER_UNIT + frac;
  if (!Number.isSafeInteger(value)) return NaN;
  return negative ? -value : value;
}

/** Converts a venue JSON number (metadata and analytics routes) to micros, rounding to the nearest. */
export function numberToMicros(value: number): Micros {
  return Math.round(value * MICROS_PER_UNIT);
}

/** Formats micros as the shortest exact decimal string: 520000 -> "0.52", 5000000 -> "5". */
export function formatMicros(m: Micros): string {
  const negative = m < 0;
  const abs = negative ? -m : m;
  const whole = Math.floor(abs / MICROS_PER_UNIT);
  let frac = abs - whole * MICROS_PER_UNIT;
  let text = String(whole);
  if (frac !== 0) {
    let fracText = String(frac).padStart(MICRO_DECIMALS, '0');
    let end = fracText.length;
    while (end > 0 && fracText.charCodeAt(end - 1) === 48) end--;
    fracText = fracText.slice(0, end);
    text += '.' + fracText;
    frac = 0;
  }
  return negative ? '-' + text : text;
}

export function microsToDecimal(m: Micros): Decimal {
  return new Dec(m).div(MICROS_PER_UNIT);
}

/** Exact conversion of a Decimal with at most 6 decimals to micros; throws RangeError otherwise. */
export function decimalToMicros(d: Decimal.Value): Micros {
  const scaled = new Dec(d).mul(MICROS_PER_UNIT);
  if (!scaled.isInteger()) throw new RangeError(`${String(d)} has more than ${MICRO_DECIMALS} decimals`);
  const n = scaled.toNumber();
  if (!Number.isSafeInteger(n)) throw new RangeError(`${String(d)} is out of range`);
  return n;
}

/** Number of decimals of a tick size in micros: 10000 (0.01) -> 2, 2500 (0.0025) -> 4. */
export function tickDecimals(tick: Micros): number {
  let decimals = MICRO_DECIMALS;
  let t = tick;
  while (decimals > 0 && t % 10 === 0) {
    t /= 10;
    decimals--;
  }
  return decimals;
}

/** True when `price` lies on the tick grid and within [tick, 1 - tick]. */
export function isValidPrice(price: Micros, tick: Micros): boolean {
  return price % tick === 0 && price >= tick && price <= MICROS_PER_UNIT - tick;
}

/** The tick-grid price at or below `price` (for bids). */
export function floorToTick(price: Micros, tick: Micros): Micros {
  return Math.floor(price / tick) * tick;
}

/** The tick-grid price at or above `price` (for asks). */
export function ceilToTick(price: Micros, tick: Micros): Micros {
  return Math.ceil(price / tick) * tick;
}
