import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, Side, TokenId } from '../../core/types.ts';
import type { TradeStatus, VenueOrderStatus } from './statuses.ts';

/**
 * Domain types of the account-data routes (2.14, 2.15). Decoded here so reconciliation has one
 * shape whichever spelling the venue used (camelCase in the interface, snake_case in the
 * venue's docs). Statuses are the closed unions of statuses.ts (the decoder drops the venue's
 * `ORDER_STATUS_` / `TRADE_STATUS_` prefixes and rejects a status it does not know).
 */

export interface MakerOrderFill {
  readonly orderId: string;
  readonly makerAddress: string | undefined;
  readonly owner: string | undefined;
  readonly matchedAmount: Micros;
  readonly feeRateBps: number | undefined;
  readonly price: Micros;
  readonly assetId: TokenId;
  readonly outcome: string | undefined;
  readonly side: Side | undefined;
}

export interface AccountTrade {
  readonly id: string;
  readonly takerOrderId: string | undefined;
  readonly market: ConditionId;
  readonly assetId: TokenId;
  readonly side: Side;
  readonly size: Micros;
  readonly feeRateBps: number | undefined;
  readonly price: Micros;
  readonly status: TradeStatus;
  readonly matchTime: number | undefined;
  readonly lastUpdate: number | undefined;
  readonly outcome: string | undefined;
  readonly bucketIndex: number | undefined;
  readonly owner: string | undefined;
  readonly makerAddress: string | undefined;
  readonly transactionHash: string | undefined;
  /** `TAKER` or `MAKER` (the interface's `type`, the docs' `trader_side`). */
  readonly traderSide: string | undefined;
  readonly makerOrders: readonly MakerOrderFill[];
}

export interface AccountOrder {
  readonly id: string;
  readonly status: VenueOrderStatus;
  readonly market: ConditionId;
  readonly assetId: TokenId;
  readonly side: Side;
  readonly originalSize: Micros;
  readonly sizeMatched: Micros;
  readonly price: Micros;
  readonly outcome: string | undefined;
  readonly makerAddress: string | undefined;
  readonly owner: string | undefined;
  readonly orderType: string | undefined;
  readonly createdAt: number | undefined;
  readonly expiration: number | undefined;
  readonly associateTrades: readonly string[];
  /** Sandbox extension: the order's 32-byte metadata, for reconciliation. */
  readonly metadata: string | undefined;
}

/** One result of `POST /orders` (or the answer of `POST /order`), in request order. */
export type OrderPostResult = OrderAccepted | OrderPostFailed;

/** The venue took the order (`success: true` with an order id). */
export interface OrderAccepted {
  readonly kind: 'accepted';
  readonly orderId: string;
  /** `LIVE` when the venue sent none. */
  readonly status: VenueOrderStatus;
  /** What the order gave up at once (collateral for a BUY, tokens for a SELL); 0 when it rests. */
  readonly makingAmount: Micros;
  /** What it received at once. */
  readonly takingAmount: Micros;
  readonly tradeIds: readonly string[];
  readonly transactionHashes: readonly string[];
}

/** The venue refused the item: `success: false`, or `success: true` with no order id. */
export interface OrderPostFailed {
  readonly kind: 'failed';
  readonly errorMsg: string;
  /** Sometimes sent with a refusal; usually undefined. */
  readonly orderId: string | undefined;
  readonly status: VenueOrderStatus | undefined;
}

/** Answer of the cancel family (`DELETE /order`, `/orders`, `/cancel-all`, `/cancel-market-orders`). */
export interface CancelResult {
  readonly canceled: readonly string[];
  /** Order id to the venue's reason. */
  readonly notCanceled: Readonly<Record<string, string>>;
}
