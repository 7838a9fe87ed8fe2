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

/**
 * `GET /balance-allowance` (L2): the account's balance of collateral, or of one outcome token,
 * in base units (6 decimals, as Micros), and what the exchange contracts may spend of it. The
 * venue's CLOB V2 answers `allowances` keyed by spender address; older answers carry one
 * `allowance`, kept under the key `''`. Allowances are usually the maximum uint256, beyond any
 * Micros, so they stay bigint.
 */
export interface BalanceAllowance {
  readonly balance: Micros;
  readonly allowances: Readonly<Record<string, bigint>>;
}

/**
 * One position of `GET /positions?user=` (the analytics API): what a wallet holds of a token.
 * Sizes and prices come as JSON numbers from a cache and are turned into Micros at once
 * (rounded to the nearest micro); values and PnL stay numbers, for display only. `asset` is a
 * token id (the venue) or `<condition_id>:<outcome_index>` (the interface's analytics form).
 */
export interface VenuePosition {
  readonly proxyWallet: string;
  readonly asset: string;
  readonly conditionId: ConditionId;
  readonly outcomeIndex: number | undefined;
  readonly outcome: string | undefined;
  readonly size: Micros;
  readonly avgPrice: Micros | undefined;
  readonly curPrice: Micros | undefined;
  readonly initialValue: number | undefined;
  readonly currentValue: number | undefined;
  readonly cashPnl: number | undefined;
  readonly realizedPnl: number | undefined;
  readonly redeemable: boolean | undefined;
  readonly mergeable: boolean | undefined;
  readonly negativeRisk: boolean | undefined;
  readonly title: string | undefined;
  /** Epoch ms. */
  readonly endDate: number | undefined;
}
