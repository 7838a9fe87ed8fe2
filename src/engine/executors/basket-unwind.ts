import { ceilToTick, floorToTick, MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import { BPS_PER_UNIT, feeBase, mulDivFloor } from '../../core/money.ts';
import type { Side } from '../../core/types.ts';

/** What one filled leg holds, for its unwind. */
export interface FilledLeg {
  readonly side: Side;
  /** Shares filled. */
  readonly filled: Micros;
  /** Σ price × size of its fills, collateral. */
  readonly notional: Micros;
  /** Fees its fills paid. */
  readonly fee: Micros;
  readonly tickSize: Micros;
  /** The market's taker fee rate, bps (what the unwinding FAK order pays at most). */
  readonly takerFeeBps: number;
  /**
   * What trading the leg back at the displayed book now would lose, fees included (0 or more;
   * undefined: no book to tell). The cap is shared by it first (see unwindLimits).
   */
  readonly need?: Micros;
}

/**
 * The limit price of the order that trades one filled leg back, so that the whole unwind loses at
 * most `maxLoss`, fees included, however the unwinding orders fill within their limits.
 *
 * The cap is shared over the filled legs: when every leg's `need` (its loss at the displayed book
 * now) is known and the cap covers them all, each leg gets its need plus a share of the rest in
 * proportion to its notional, so every leg can trade back at the book as shown; otherwise in
 * proportion to the needs (or, without them, the notionals). Each leg's share pays
 * first the fees its fills paid, then the most its unwind's fee can be (taker rate × min(p, 0.5)
 * × size at the leg's average price p, a bound of the fee at any price at or beyond the limit),
 * and what is left over the leg's size is how far the limit may sit from p: below it for a
 * BUY leg (sold back), above it for a SELL leg (bought back). The limit is rounded towards p to
 * the tick (a smaller loss) and into [tick, 1 - tick] where that only tightens it; a leg whose
 * limit would have to lie beyond a valid price gets undefined (no order keeps it within its
 * share). A leg whose share does not even pay its fees gets a limit past p: it unwinds only at a
 * profit.
 *
 * Loss of a BUY leg sold back at L ≥ limit: q × p + fee - q × L + unwindFee ≤ share. Likewise
 * for a SELL leg. Σ shares = maxLoss.
 */
export function unwindLimits(legs: readonly FilledLeg[], maxLoss: Micros): (Micros | undefined)[] {
  const shares = shareCap(legs, maxLoss);
  return legs.map((leg, i) => {
    const share = shares[i]!;
    const avg = leg.filled > 0 ? Math.ceil((leg.notional * MICROS_PER_UNIT) / leg.filled) : 0;
    const feeDivisor = BigInt(BPS_PER_UNIT * MICROS_PER_UNIT);
    const unwindFeeMax = Number((BigInt(Math.ceil(leg.takerFeeBps)) * BigInt(Math.min(feeBase(avg), MICROS_PER_UNIT / 2)) * BigInt(leg.filled) + feeDivisor - 1n) / feeDivisor);
    const room = share - leg.fee - unwindFeeMax;
    if (!(leg.filled > 0)) return undefined;
    const tick = leg.tickSize;
    const lo = tick;
    const hi = MICROS_PER_UNIT - tick;
    if (leg.side === 'BUY') {
      // sold back at or above the limit
      // q × L ≥ notional - room
      const need = leg.notional - room;
      const raw = need <= 0 ? lo : ceilToTick(priceFor(need, leg.filled, true), tick);
      return raw > hi ? undefined : Math.max(lo, raw);
    }
    // bought back at or below the limit
    // q × L ≤ notional + room
    const most = leg.notional + room;
    const raw = most <= 0 ? 0 : floorToTick(priceFor(most, leg.filled, false), tick);
    return raw < lo ? undefined : Math.min(hi, raw);
  });
}

/** Each leg's part of the cap (Σ at most `maxLoss`). */
function shareCap(legs: readonly FilledLeg[], maxLoss: Micros): Micros[] {
  let notional = 0;
  let needs = 0;
  let known = true;
  for (const leg of legs) {
    notional += leg.notional;
    if (leg.need === undefined) known = false;
    else needs += leg.need;
  }
  const byNotional = (amount: Micros): Micros[] => legs.map((leg) => (notional > 0 ? mulDivFloor(amount, leg.notional, notional) : 0));
  if (!known || needs === 0) return byNotional(maxLoss);
  if (needs <= maxLoss) {
    const rest = byNotional(maxLoss - needs);
    return legs.map((leg, i) => leg.need! + rest[i]!);
  }
  return legs.map((leg) => mulDivFloor(maxLoss, leg.need!, needs));
}

/** value × 1e6 / size, rounded up or down, exact (value and size positive). */
function priceFor(value: Micros, size: Micros, up: boolean): Micros {
  const n = BigInt(value) * BigInt(MICROS_PER_UNIT);
  const d = BigInt(size);
  return Number(up ? (n + d - 1n) / d : n / d);
}

/**
 * What trading a filled leg back at the displayed levels would lose, fees included: for a BUY
 * leg (`paid` = its notional plus fees) paid less what selling `size` into the bids returns after
 * the taker fee; for a SELL leg (`paid` = its notional less fees, what it received) what buying
 * `size` back from the asks costs with the fee, less that. At least 0; the whole of `paid` when
 * the levels are too thin for the size.
 */
export function unwindNeed(levels: readonly { readonly price: Micros; readonly size: Micros }[], side: Side, size: Micros, paid: Micros, takerFeeBps: number): Micros {
  let left = size;
  let value = 0;
  for (const level of levels) {
    if (left <= 0) break;
    const q = Math.min(left, level.size);
    const notional = mulDivFloor(level.price, q, MICROS_PER_UNIT);
    const fee = mulDivFloor(Math.ceil(takerFeeBps) * feeBase(level.price), q, BPS_PER_UNIT * MICROS_PER_UNIT);
    value += side === 'BUY' ? notional - fee : notional + fee;
    left -= q;
  }
  if (left > 0) return side === 'BUY' ? Math.max(0, paid) : Math.max(0, value);
  return Math.max(0, side === 'BUY' ? paid - value : value - paid);
}
