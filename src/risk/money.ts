import { MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import { MICROS, notionalPicos as picosOf } from '../core/money.ts';

export { formatPicos } from '../core/money.ts';

/**
 * Exact money for risk. A notional is price × size with both in Micros, so it counts units of
 * 1e-12 ("picos"); it is held exactly (a BigInt, or a plain number while below 2^53) and
 * compared against a limit scaled the same way, so no rounding ever happens (0.333333 × 3 =
 * 0.999999 exactly, and 9e9 shares × 0.999999 stays exact). The products and their decimal
 * form are the money kit's (src/core/money.ts); this module adds the checks that name a bad value.
 */

/** The full price of one share, Micros. */
export const ONE: Micros = MICROS_PER_UNIT;

/**
 * `value` when it is a whole number of micros that a JS number holds exactly; else a RangeError
 * naming it ("position of Y1 0.5 is not a whole number of micros"). A malformed state is a
 * caller bug; the engine turns the throw into a fail-closed denial. The label is only built on
 * failure, so this costs nothing on the hot path.
 */
export function whole(value: number, label: string, id?: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${label}${id === undefined ? '' : ` of ${id}`} ${String(value)} is not a whole number of micros`);
  }
  return value;
}

/** A whole Micros value as a BigInt (RangeError as `whole`). */
export function big(value: number, label: string, id?: string): bigint {
  return BigInt(whole(value, label, id));
}

/** The request's price × size in picos. */
export function notionalPicos(price: Micros, size: Micros): bigint {
  return picosOf(whole(price, 'order price'), whole(size, 'order size'));
}

/** A Micros limit in picos, to compare against notionals. */
export function microsToPicos(value: Micros, label: string): bigint {
  return big(value, label) * MICROS;
}

/**
 * An exact running sum of picos that stays in plain numbers while every product and the total
 * are below 2^53 and carries the rest in a BigInt. Sound because a float product (or sum) of
 * integers is exact below 2^53 and, rounding being monotonic, never lands below 2^53 when the
 * exact result is at or above it. Same value as summing BigInt products, several times faster.
 * Factors must be whole micros (callers check them with `whole`).
 */
export class PicoSum {
  #small = 0;
  #big = 0n;

  addProduct(a: number, b: number): void {
    const product = a * b;
    const total = this.#small + product;
    if (Number.isSafeInteger(product) && Number.isSafeInteger(total)) this.#small = total;
    else this.#big += picosOf(a, b);
  }

  addPicos(value: bigint): void {
    this.#big += value;
  }

  get value(): bigint {
    return this.#big + BigInt(this.#small);
  }

  /**
   * Whether the sum is above `limit` Micros (limit × 1e6 picos), exactly: in plain numbers while
   * nothing was carried in the BigInt and the scaled limit is below 2^53, else in BigInt.
   */
  exceedsMicros(limit: Micros): boolean {
    const scaled = limit * MICROS_PER_UNIT;
    if (this.#big === 0n && Number.isSafeInteger(scaled)) return this.#small > scaled;
    return this.value > BigInt(limit) * MICROS;
  }
}
