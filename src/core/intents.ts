import type { Micros } from './fixed.ts';
import type { ConditionId, OrderType, Side, TokenId } from './types.ts';

/**
 * What a strategy asks for. Strategies return intents; the engine turns them into orders after
 * risk has checked each one. Prices and sizes are Micros (use `px('0.52')`, `qty('10')`).
 */

/** Place one order. */
export interface PlaceIntent {
  readonly kind: 'place';
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  /** Default GTC. */
  readonly orderType?: OrderType;
  /** Only with GTC/GTD: rejected instead of crossing the book. */
  readonly postOnly?: boolean;
  /** GTD expiry, epoch ms. */
  readonly expiresAt?: number;
  /** Free label kept on the order's snapshot (e.g. "bid-1"). */
  readonly tag?: string;
  /**
   * The caller's own reference (strategy API 3): echoed on every event of the order
   * (OrderAccepted, OrderRejected, OrderDenied, OrderCanceled, each OrderFilled, ...), kept on its
   * snapshot and in the store; `ctx.order(ref)` finds the newest order of the strategy with it.
   */
  readonly ref?: string;
  /** A group the caller puts orders in (e.g. "ladder-7"): echoed and kept like `ref`. */
  readonly group?: string;
}

/** Cancel one of the strategy's own orders, by the client order id the engine gave it. */
export interface CancelIntent {
  readonly kind: 'cancel';
  readonly clientOrderId: string;
}

/** Cancel all of the strategy's open orders, optionally only on one market or token. */
export interface CancelAllIntent {
  readonly kind: 'cancelAll';
  readonly conditionId?: ConditionId;
  readonly tokenId?: TokenId;
}

export interface QuoteLevel {
  readonly price: Micros;
  readonly size: Micros;
}

/**
 * The set of orders the strategy wants resting on a token. The executor diffs it against the
 * strategy's open orders on that token: an order within tolerance of a wanted level is kept (its
 * queue position too), the others are cancelled, missing levels are placed (post-only GTC).
 */
export interface QuoteIntent {
  readonly kind: 'quote';
  readonly tokenId: TokenId;
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
  /** Set on every order this quote places (their events, snapshots and rows echo it), as on a place intent. */
  readonly ref?: string;
  readonly group?: string;
}

/** One order of a basket: a token, a side, a limit price and a size (Micros). */
export interface BasketLeg {
  readonly tokenId: TokenId;
  readonly side: Side;
  /** The worst price this leg may trade at (a BUY's most, a SELL's least). */
  readonly price: Micros;
  readonly size: Micros;
}

/** Most legs in one basket: they go out in one batch, and a batch holds at most 15 orders. */
export const MAX_BASKET_LEGS = 15;

/**
 * Several orders that stand or fall together (strategy API 3, additive): the legs go out in ONE
 * batch as FOK or FAK orders; risk checks them together (every leg filling, the event's exposure)
 * and denies the whole basket with one code or sends every leg; once every leg is answered, a
 * basket that did not fill completely is unwound (`unwind`: the filled legs are traded back, the
 * loss at most `maxUnwindLoss`) or kept (`hold`). The outcome reaches the strategy's `onBasket`
 * as one BasketEvent (BasketCompleted, BasketPartial or BasketUnwound). docs/baskets.md.
 */
export interface BasketIntent {
  readonly kind: 'basket';
  /** 1 to MAX_BASKET_LEGS legs. */
  readonly legs: readonly BasketLeg[];
  /** FOK: each leg fills completely or not at all; FAK: each leg takes what there is. */
  readonly orderType: 'FOK' | 'FAK';
  /** What to do when some legs did not fill: trade the filled ones back, or keep them. */
  readonly onPartial: 'unwind' | 'hold';
  /** The most an unwind may lose, USDC (Micros), fees included: the unwind's limit prices keep it within. */
  readonly maxUnwindLoss: Micros;
  /** Echoed on the basket's event and on every order of it (legs and unwinds), as on a place intent. */
  readonly ref?: string;
  readonly group?: string;
}

export type OrderIntent = PlaceIntent | CancelIntent | CancelAllIntent | QuoteIntent | BasketIntent;

/** A place intent after the engine stamped it: the unit risk checks and the executor sends. */
export interface OrderRequest extends PlaceIntent {
  readonly strategyId: string;
  /** Unique per run and stable across restarts; carried in the order's `metadata`. */
  readonly clientOrderId: string;
  readonly conditionId: ConditionId;
  readonly createdAt: number;
  /**
   * Set by the engine alone (never a strategy): a SELL that only closes a position the order's
   * strategy holds (the `flatten` command's). It passes a halt, which denies every other order.
   */
  readonly reduceOnly?: boolean;
}
