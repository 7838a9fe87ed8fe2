import { isValidPrice, MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import { type FeeRate, type MarketFees, notional } from '../core/money.ts';
import { ORDER_TYPES, type OrderType } from '../core/types.ts';
import {
  ERR_BALANCE,
  ERR_FAK_NO_MATCH,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from './venue-messages.ts';

/**
 * Order admission, the venue's rules written once for both simulated venues: the matching engine
 * (the sandbox's venue, matching-engine.ts) and the paper/backtest edge (edge/order-arrival.ts).
 * Each check returns the venue's error string (venue-messages.ts) or undefined, and the callers
 * run them in this order, which is the venue's:
 *
 *   duplicate id, unknown token (caller) -> market not accepting orders (caller) -> `checkTerms`
 *   -> `checkFunds` -> `checkCrossing` -> match -> `disposition` of what is left.
 *
 * Where the two venues legitimately differ, the caller supplies the difference:
 * - What "the book" is. The matching engine matches against the resting orders of every
 *   participant, exactly. The edge matches against the RECORDED displayed depth less what our
 *   own orders already took from it (recorded-book.ts), in whole lots: a level showing less than
 *   a lot does not count as crossing. So `crosses` and `fillsCompletely` are the caller's.
 * - Who pays. The matching engine has one account per wallet and checks the order's owner and
 *   address; the edge has one account (ours) and no owner.
 * - Duplicates. The matching engine remembers every id; the edge forgets a closed order ten
 *   minutes of virtual time after it closed (a long backtest does not keep every order).
 * - The tick and minimum size. The matching engine's are the market's own (setTickSize); the
 *   edge's are the ones the recording showed last for the token.
 */

/** Default size granularity: 0.01 share (the venue rounds every order size to 2 decimals). */
export const SIZE_LOT: Micros = 10_000;

const HALF: Micros = MICROS_PER_UNIT / 2;
const ORDER_TYPE_SET: ReadonlySet<string> = new Set<OrderType>(ORDER_TYPES);

export function isOrderType(t: unknown): t is OrderType {
  return typeof t === 'string' && ORDER_TYPE_SET.has(t);
}

/** An order's terms as it reaches a simulated venue (price in its own token). */
export interface OrderTerms {
  readonly side: unknown;
  readonly type: unknown;
  readonly price: Micros;
  readonly size: Micros;
  readonly postOnly: boolean;
  /** GTD only: epoch ms. */
  readonly expiration: number | undefined;
}

/** The token's rules at the moment the order arrives. */
export interface AdmissionRules {
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly sizeLot: Micros;
}

/**
 * The checks that need neither balances nor the book: side and type, post-only only with
 * GTC/GTD, a GTD with a future expiration, the price on the tick, the size at least the minimum
 * and in whole lots.
 */
export function checkTerms(o: OrderTerms, rules: AdmissionRules, now: number): string | undefined {
  const { type, price, size } = o;
  if ((o.side !== 'BUY' && o.side !== 'SELL') || !isOrderType(type)) return ERR_INVALID_PAYLOAD;
  if (o.postOnly && (type === 'FOK' || type === 'FAK')) return ERR_INVALID_PAYLOAD;
  if (type === 'GTD') {
    const at = o.expiration;
    if (typeof at !== 'number' || !Number.isFinite(at) || at <= now) return ERR_INVALID_PAYLOAD;
  }
  if (!Number.isSafeInteger(price) || !isValidPrice(price, rules.tickSize)) return ERR_PRICE_TICK;
  if (!Number.isSafeInteger(size)) return ERR_INVALID_PAYLOAD;
  if (size <= 0 || size < rules.minOrderSize) return ERR_SIZE_MINIMUM;
  if (size % rules.sizeLot !== 0) return ERR_INVALID_PAYLOAD;
  return undefined;
}

/**
 * The fee rate that bounds what an order can pay: a FOK/FAK only ever takes, a post-only only
 * ever makes, anything else may do either.
 */
export function entryFeeRate(type: OrderType, postOnly: boolean, fees: MarketFees): FeeRate {
  if (type === 'FOK' || type === 'FAK') return fees.taker;
  if (postOnly) return fees.maker;
  return fees.maker.gt(fees.taker) ? fees.maker : fees.taker;
}

/**
 * Free collateral a BUY must have to be accepted: notional at its limit plus the largest fee it
 * can pay. A taker fill at x <= limit pays rate × min(x, 1 - x) <= rate × min(limit, 0.5), and a
 * resting fill pays rate × min(limit, 1 - limit), which is no more; so rate × min(limit, 0.5)
 * × size bounds the fees of every way the order can fill.
 */
export function buyEntryRequirement(price: Micros, size: Micros, rate: FeeRate): Micros {
  return notional(price, size) + rate.feeOnBase(price < HALF ? price : HALF, size);
}

/**
 * Collateral a resting BUY holds for its open size: the notional at its own price plus the maker
 * fee on it. Recomputed after every fill, so the hold always equals this.
 */
export function restingBuyReserve(price: Micros, openSize: Micros, maker: FeeRate): Micros {
  return notional(price, openSize) + maker.fee(price, openSize);
}

/**
 * The balance check: a BUY needs `buyEntryRequirement` in free collateral, a SELL its size in
 * free tokens (no shorting: buy the complement instead).
 */
export function checkFunds(
  o: { readonly side: 'BUY' | 'SELL'; readonly type: OrderType; readonly postOnly: boolean; readonly price: Micros; readonly size: Micros },
  fees: MarketFees,
  freeCollateral: Micros,
  freeTokens: Micros,
): string | undefined {
  if (o.side === 'BUY') {
    return freeCollateral < buyEntryRequirement(o.price, o.size, entryFeeRate(o.type, o.postOnly, fees)) ? ERR_BALANCE : undefined;
  }
  return freeTokens < o.size ? ERR_BALANCE : undefined;
}

/**
 * The checks against the book: a post-only order must not cross, a FOK must fill completely, a
 * FAK must meet something. `fillsCompletely` is only asked for a crossing FOK.
 */
export function checkCrossing(type: OrderType, postOnly: boolean, crosses: boolean, fillsCompletely: () => boolean): string | undefined {
  if (postOnly && crosses) return ERR_POST_ONLY_CROSSES;
  if (type === 'FOK' && (!crosses || !fillsCompletely())) return ERR_FOK_UNFILLED;
  if (type === 'FAK' && !crosses) return ERR_FAK_NO_MATCH;
  return undefined;
}

/**
 * What becomes of an order after it took what it could: FILLED (nothing left), REST (the rest of
 * a GTC/GTD goes on the book) or KILL (the rest of a FAK is canceled; a FOK never has a rest).
 * The venue answers MATCHED for FILLED and KILL, and for REST when something filled.
 */
export type Disposition = 'FILLED' | 'REST' | 'KILL';

export function disposition(type: OrderType, remaining: Micros): Disposition {
  if (remaining <= 0) return 'FILLED';
  return type === 'GTC' || type === 'GTD' ? 'REST' : 'KILL';
}

export function submitStatus(d: Disposition, filled: Micros): 'LIVE' | 'MATCHED' {
  return d === 'REST' && filled === 0 ? 'LIVE' : 'MATCHED';
}
