import { MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';

/**
 * Exact amount arithmetic of the matching engine, all in integer micros.
 *
 * Sizes come in lots of 0.01 share (the venue rounds every order size to 2 decimals, PROTOCOL
 * "Orders") and every tick is a multiple of 0.0001, so price × size is always a whole number of
 * micros: the notional of a fill needs no rounding, and the YES and NO notionals of a mint or a
 * merge add up to exactly the size. Only fees round (down).
 */

/** Default size granularity: 0.01 share. */
export const SIZE_LOT: Micros = 10_000;

export const BPS_PER_UNIT = 10_000;
const FEE_DIVISOR = BPS_PER_UNIT * MICROS_PER_UNIT;
const HALF: Micros = MICROS_PER_UNIT / 2;

/** floor(a × b / d) for non-negative safe integers, exact (BigInt only when a × b passes 2^53). */
export function mulDivFloor(a: number, b: number, d: number): number {
  const p = a * b;
  if (p <= Number.MAX_SAFE_INTEGER) {
    let q = Math.floor(p / d);
    const r = p - q * d;
    if (r < 0) q -= 1;
    else if (r >= d) q += 1;
    return q;
  }
  return Number((BigInt(a) * BigInt(b)) / BigInt(d));
}

/** Collateral value of `size` tokens at `price` (both micros). Exact for on-lot sizes. */
export function notional(price: Micros, size: Micros): Micros {
  return mulDivFloor(price, size, MICROS_PER_UNIT);
}

/**
 * The venue's fee model: feeRateBps / 10000 × min(price, 1 - price) × size, in collateral,
 * rounded down to a micro. `price` is the fill price in the payer's own token (the formula is
 * symmetric, so YES and NO terms give the same fee).
 */
export function fee(feeRateBps: number, price: Micros, size: Micros): Micros {
  if (feeRateBps === 0) return 0;
  const factor = price < MICROS_PER_UNIT - price ? price : MICROS_PER_UNIT - price;
  return mulDivFloor(feeRateBps * factor, size, FEE_DIVISOR);
}

/**
 * Collateral a resting BUY holds in reserve for its open size: the notional at its own price
 * plus the maker fee on it. Recomputed after every fill so the reserve always equals this.
 */
export function restingBuyReserve(price: Micros, openSize: Micros, makerFeeBps: number): Micros {
  return notional(price, openSize) + fee(makerFeeBps, price, openSize);
}

/**
 * Free collateral a BUY must have to be accepted: notional at its limit plus the largest fee it
 * can pay. A taker fill at x <= limit pays rate × min(x, 1 - x) <= rate × min(limit, 0.5), and a
 * resting fill pays rate × min(limit, 1 - limit), which is no more; so
 * rate × min(limit, 0.5) × size bounds the fees of every way the order can fill.
 */
export function buyEntryRequirement(price: Micros, size: Micros, feeRateBps: number): Micros {
  const factor = price < HALF ? price : HALF;
  return notional(price, size) + (feeRateBps === 0 ? 0 : mulDivFloor(feeRateBps * factor, size, FEE_DIVISOR));
}
