import { Dec, decimalToMicros, type Micros } from '../core/fixed.ts';

/** A price from its decimal text or number: `px('0.52')` is 520_000 Micros. Exact for strings. */
export function px(value: string | number): Micros {
  return decimalToMicros(new Dec(value));
}

/** A size in shares: `qty('12.5')` is 12_500_000 Micros. */
export function qty(value: string | number): Micros {
  return decimalToMicros(new Dec(value));
}
