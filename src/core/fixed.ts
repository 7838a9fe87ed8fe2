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

/** Text a decimal is read from: a string, or the ASCII bytes of one (the recording scanner's chunks). */
export type DecimalText = string | Uint8Array;

/** Longest decimal accepted, sign included. */
const MAX_DECIMAL_LENGTH = 24;
/** Micros per unit of the last fraction digit read, by the number of fraction digits read. */
const FRACTION_SCALE = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/** Where the last `scanMicros` stopped: the index just after the decimal it read. */
let scanEnd = 0;

/** The index just after the decimal the last `scanMicros` call read (NaN results included). */
export function scannedTo(): number {
  return scanEnd;
}

/**
 * THE decimal parser, which every reader of wire decimals uses (`parseMicros` below, the books
 * scanner, the recording line scanner). Reads a plain decimal with an optional '+' ("0.52",
 * "100", ".5", "5.", "+2") at `text[start]` into micros, stopping at the first character that
 * cannot continue it; `scannedTo()` then gives that index. Returns NaN when that character is
 * not `close` (a scanner passes its closing quote; -1 accepts any, and the caller checks where it
 * stopped), no digit was read, the decimal is longer than 24 characters, it has a non-zero
 * digit beyond the 6th decimal (precision would be lost), or it is beyond 2^53 micros. A '-' is
 * the caller's to read.
 *
 * Allocation-free and small enough for V8 to inline into a scanner's level loop (which keeps
 * sizes above 2^31 micros out of heap numbers). A string and bytes take the same code, one type
 * check per character: free while a process reads only one of the two (live: strings; a
 * recording: bytes), 15-20% of the line scanner's time once both are hot (measured; copying a
 * string's characters into bytes instead cost the books scanner 20-25%).
 */
export function scanMicros(text: DecimalText, start: number, close: number): Micros {
  let i = start;
  let c = codeAt(text, i);
  if (c === 43 /* + */) c = codeAt(text, ++i);
  const first = i;
  let whole = 0;
  while (c >= 48 && c <= 57) {
    whole = whole * 10 + c - 48;
    c = codeAt(text, ++i);
  }
  let digits = i - first;
  let frac = 0;
  let fracDigits = 0;
  if (c === 46 /* . */) {
    const dot = i;
    c = codeAt(text, ++i);
    while (c >= 48 && c <= 57) {
      if (fracDigits < MICRO_DECIMALS) {
        frac = frac * 10 + c - 48;
        fracDigits++;
      } else if (c !== 48) {
        scanEnd = i;
        return NaN; // precision beyond micros would be lost
      }
      c = codeAt(text, ++i);
    }
    digits += i - dot - 1;
  }
  scanEnd = i;
  if ((close >= 0 && c !== close) || digits === 0 || i - start > MAX_DECIMAL_LENGTH) return NaN;
  const value = whole * MICROS_PER_UNIT + frac * (FRACTION_SCALE[fracDigits] as number);
  return Number.isSafeInteger(value) ? value : NaN;
}

/** The character code at `i` (NaN or undefined past the end: no digit, no dot). */
function codeAt(text: DecimalText, i: number): number {
  return typeof text === 'string' ? text.charCodeAt(i) : (text[i] as number);
}

/**
 * Parses a decimal string ("0.52", "100", "-1.5", "+2", ".5") into micros: an optional '-', then
 * `scanMicros` over the rest of the string. Returns NaN when the text is not a plain decimal or
 * has non-zero digits beyond the 6th decimal; callers turn NaN into a DecodeError naming the field.
 */
export function parseMicros(text: string): Micros {
  if (text.length > MAX_DECIMAL_LENGTH) return NaN;
  const negative = text.charCodeAt(0) === 45; /* - */
  if (negative && text.charCodeAt(1) === 43 /* + */) return NaN;
  const value = scanMicros(text, negative ? 1 : 0, -1);
  if (scanEnd !== text.length) return NaN;
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
