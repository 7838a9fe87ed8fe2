import { Dec, MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import { ParameterError } from '../core/errors.ts';
import { notional } from './amounts.ts';

/**
 * The venue's fee formula with exact decimal rates: `rate / 10000 × min(p, 1 - p) × size`, in
 * collateral, rounded down to a micro (the sim's formula, src/sim/amounts.ts, which takes whole
 * basis points; a backtest config may give fractional ones like 1.5). `price` is the fill price
 * in the payer's own token.
 */
export class FeeRate {
  /** The rate × 10^scale as an integer. */
  readonly #scaled: bigint;
  readonly #divisor: bigint;
  readonly bps: Dec;

  constructor(bps: Dec | number | string) {
    const d = new Dec(bps);
    if (!d.isFinite() || d.isNegative()) throw new ParameterError('FeeRate', 'bps', `must be a finite rate >= 0, was ${d.toString()}`);
    const scale = d.decimalPlaces();
    this.bps = d;
    this.#scaled = BigInt(d.mul(new Dec(10).pow(scale)).toFixed(0));
    this.#divisor = 10_000n * BigInt(MICROS_PER_UNIT) * 10n ** BigInt(scale);
  }

  get isZero(): boolean {
    return this.#scaled === 0n;
  }

  /** Fee of a fill of `size` at `price` (both Micros). */
  fee(price: Micros, size: Micros): Micros {
    if (this.#scaled === 0n) return 0;
    const factor = price < MICROS_PER_UNIT - price ? price : MICROS_PER_UNIT - price;
    return Number((this.#scaled * BigInt(factor) * BigInt(size)) / this.#divisor);
  }
}

/** The maker and taker rates of one market. */
export interface MarketFees {
  readonly maker: FeeRate;
  readonly taker: FeeRate;
}

/**
 * Free collateral a BUY needs to be accepted: the notional at its limit plus the largest fee it
 * can pay over every way it can fill (see `buyEntryRequirement` in src/sim/amounts.ts).
 */
export function buyRequirement(price: Micros, size: Micros, rate: FeeRate): Micros {
  const half = MICROS_PER_UNIT / 2;
  return notional(price, size) + rate.fee(price < half ? price : half, size);
}

/** Collateral a resting BUY holds for its open size: notional plus the maker fee on it. */
export function restingBuyHold(price: Micros, openSize: Micros, maker: FeeRate): Micros {
  return notional(price, openSize) + maker.fee(price, openSize);
}
