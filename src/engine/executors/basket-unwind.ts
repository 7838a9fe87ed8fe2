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
}

/**
 * The limit price of the order that trades one filled leg back, so that the whole unwind loses at
 * most `maxLoss`, fees included, however the unwinding orders fill within their limits.
 *
 * The cap is shared over the filled legs in proportion to their notional; each leg's share pays
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
  let total = 0;
  for (const leg of legs) total += leg.notional;
  return legs.map((leg) => {
    const share = total > 0 ? mulDivFloor(maxLoss, leg.notional, total) : 0;
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

/** value × 1e6 / size, rounded up or down, exact (value and size positive). */
function priceFor(value: Micros, size: Micros, up: boolean): Micros {
  const n = BigInt(value) * BigInt(MICROS_PER_UNIT);
  const d = BigInt(size);
  return Number(up ? (n + d - 1n) / d : n / d);
}
