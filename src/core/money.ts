import { ParameterError } from './errors.ts';
import { Dec, MICROS_PER_UNIT, type Micros } from './fixed.ts';

/**
 * The money kit: the product of a price and a size (both Micros) and the venue's fee on it,
 * computed once for everyone (the matching engine, the simulated edge, the portfolio, risk and
 * the live fill decoder).
 *
 * A price × size counts units of 1e-12 ("picos"). `notionalPicos` keeps it exactly as a bigint;
 * `notional` gives it in collateral micros, rounded down (exact for sizes in lots of 0.01 share
 * and ticks that are multiples of 0.0001, which is every order the venue accepts). Fees always
 * round down to a micro.
 */

export const MICROS: bigint = BigInt(MICROS_PER_UNIT);
export const PICOS_PER_UNIT: bigint = MICROS * MICROS;
export const BPS_PER_UNIT = 10_000;
const FEE_DIVISOR = BPS_PER_UNIT * MICROS_PER_UNIT;

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

/** price × size exactly, in picos. Both must be whole micros (a RangeError from BigInt otherwise). */
export function notionalPicos(price: Micros, size: Micros): bigint {
  return BigInt(price) * BigInt(size);
}

/** Collateral value of `size` tokens at `price`, in micros, rounded down. */
export function notional(price: Micros, size: Micros): Micros {
  return mulDivFloor(price, size, MICROS_PER_UNIT);
}

/** The part of a fill's price the fee is charged on: min(p, 1 - p). Symmetric in YES and NO terms. */
export function feeBase(price: Micros): Micros {
  const other = MICROS_PER_UNIT - price;
  return price < other ? price : other;
}

/** Exact shortest decimal of a picos amount: 999999000000n -> "0.999999", 60500000000000n -> "60.5". */
export function formatPicos(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const units = abs / PICOS_PER_UNIT;
  const frac = abs % PICOS_PER_UNIT;
  let text = units.toString();
  if (frac !== 0n) text += '.' + frac.toString().padStart(12, '0').replace(/0+$/, '');
  return negative ? '-' + text : text;
}

const WHOLE_RATES = new Map<number, FeeRate>();

/**
 * A fee rate in basis points and the venue's fee formula: `rate / 10000 × min(p, 1 - p) × size`,
 * in collateral, rounded down to a micro. `price` is the fill price in the payer's own token (the
 * formula is symmetric, so YES and NO terms give the same fee). Whole rates (what the venue
 * sends) compute in plain numbers; fractional rates (a backtest config may give 1.5) are kept
 * exact in BigInt.
 */
export class FeeRate {
  readonly bps: Dec;
  /** The rate when it is a whole number of basis points, else undefined. */
  readonly wholeBps: number | undefined;
  /** The rate × 10^scale as an integer, and the divisor that goes with it. */
  readonly #scaled: bigint;
  readonly #divisor: bigint;

  constructor(bps: Dec | number | string) {
    const d = new Dec(bps);
    if (!d.isFinite() || d.isNegative()) throw new ParameterError('FeeRate', 'bps', `must be a finite rate >= 0, was ${d.toString()}`);
    const scale = d.decimalPlaces();
    this.bps = d;
    this.#scaled = BigInt(d.mul(new Dec(10).pow(scale)).toFixed(0));
    this.#divisor = BigInt(FEE_DIVISOR) * 10n ** BigInt(scale);
    // whole × min(p, 1 - p) stays a safe integer up to 10^9 bps
    this.wholeBps = scale === 0 && this.#scaled <= 1_000_000_000n ? Number(this.#scaled) : undefined;
  }

  /** The rate of `bps` whole basis points, shared (the live decoder asks for one per fill). */
  static of(bps: number): FeeRate {
    let rate = WHOLE_RATES.get(bps);
    if (rate === undefined) {
      rate = new FeeRate(bps);
      if (rate.wholeBps !== undefined && WHOLE_RATES.size < 1024) WHOLE_RATES.set(bps, rate);
    }
    return rate;
  }

  get isZero(): boolean {
    return this.#scaled === 0n;
  }

  /** True when this rate is higher than `other`. */
  gt(other: FeeRate): boolean {
    return this.bps.gt(other.bps);
  }

  /** Fee of a fill of `size` at `price` (both Micros). */
  fee(price: Micros, size: Micros): Micros {
    return this.feeOnBase(feeBase(price), size);
  }

  /** The formula on a given base instead of min(p, 1 - p) (an upper bound, see sim/admission.ts). */
  feeOnBase(base: Micros, size: Micros): Micros {
    const whole = this.wholeBps;
    if (whole !== undefined) return whole === 0 ? 0 : mulDivFloor(whole * base, size, FEE_DIVISOR);
    return Number((this.#scaled * BigInt(base) * BigInt(size)) / this.#divisor);
  }
}

/** The maker and taker rates of one market. */
export interface MarketFees {
  readonly maker: FeeRate;
  readonly taker: FeeRate;
}
