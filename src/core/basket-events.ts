import type { Micros } from './fixed.ts';
import type { Side, TokenId } from './types.ts';

/**
 * What became of a basket (a `basket` intent), told to its strategy's `onBasket` once every leg
 * was answered and, for an unwind, every unwinding order too. Not a lifecycle event: it is the
 * answer to the strategy's own intent, like an order event. Amounts are Micros.
 */

/** One order of a basket (a leg, or an order that unwound one) and what it got. */
export interface BasketOrderResult {
  /** The leg's index in the intent's `legs`. */
  readonly leg: number;
  readonly clientOrderId: string;
  readonly tokenId: TokenId;
  readonly side: Side;
  /** Limit price and size asked. */
  readonly price: Micros;
  readonly size: Micros;
  /** Shares filled. */
  readonly filled: Micros;
  /** Σ price × size of the fills, collateral (before fees). */
  readonly notional: Micros;
  /** Fees paid on the fills. */
  readonly fee: Micros;
  /** The order's final status (FILLED, CANCELED, REJECTED, ...) or why it was never sent. */
  readonly status: string;
}

interface BasketOutcome {
  /** The basket's id: the client order id of its first leg. */
  readonly basketId: string;
  readonly ref?: string;
  readonly group?: string;
  readonly orderType: 'FOK' | 'FAK';
  readonly onPartial: 'unwind' | 'hold';
  /** Each leg, in the intent's order. */
  readonly legs: readonly BasketOrderResult[];
  /** Collateral the legs' fills took: Σ BUY notional + every fee - Σ SELL notional. */
  readonly cost: Micros;
  readonly tsInit: number;
}

/** Every leg filled its whole size. */
export interface BasketCompleted extends BasketOutcome {
  readonly type: 'BasketCompleted';
}

/** Some legs did not fill completely and the policy is `hold`: what filled is kept (possibly nothing). */
export interface BasketPartial extends BasketOutcome {
  readonly type: 'BasketPartial';
  /** Legs that filled their whole size. */
  readonly filledLegs: number;
}

/**
 * Some legs did not fill completely and the policy is `unwind`: every filled share was traded
 * back (`flat`), or what could be within the loss cap (`flat: false`, `residual` still held).
 */
export interface BasketUnwound extends BasketOutcome {
  readonly type: 'BasketUnwound';
  /** The orders that traded the filled legs back (none when nothing had filled). */
  readonly unwind: readonly BasketOrderResult[];
  /** Collateral the unwind returned: Σ SELL notional - every fee - Σ BUY notional. */
  readonly proceeds: Micros;
  /** cost - proceeds: what the basket lost in all (0 or more; at most maxUnwindLoss when flat). */
  readonly loss: Micros;
  readonly maxUnwindLoss: Micros;
  /** Every filled share was traded back. */
  readonly flat: boolean;
  /** Shares still held per leg token when not flat (what the cap's limit prices could not sell). */
  readonly residual: readonly { readonly tokenId: TokenId; readonly size: Micros }[];
}

export type BasketEvent = BasketCompleted | BasketPartial | BasketUnwound;
