import type { Micros } from './fixed.ts';
import type { ConditionId, OrderBook, Side, TokenId, TokenPrices } from './types.ts';

/**
 * What a market-data source emits, each event with venue time (`tsEvent`) and receipt time
 * (`tsInit`), epoch ms. The recorder writes exactly these; the backtest replays them by tsInit.
 */
export type MarketEvent =
  | { readonly type: 'book'; readonly book: OrderBook; readonly tsEvent: number; readonly tsInit: number }
  | { readonly type: 'prices'; readonly prices: readonly TokenPrices[]; readonly tsEvent: number; readonly tsInit: number }
  | {
      readonly type: 'trade';
      readonly tokenId: TokenId;
      readonly price: Micros;
      readonly size: Micros;
      readonly side: Side;
      readonly tsEvent: number;
      readonly tsInit: number;
    }
  | { readonly type: 'tickSize'; readonly tokenId: TokenId; readonly tickSize: Micros; readonly tsEvent: number; readonly tsInit: number }
  /** The market stopped trading (`closed`): no new orders, its open orders cancelled by the venue. */
  | { readonly type: 'marketClosed'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly tsEvent: number; readonly tsInit: number }
  /** The market resolved (closed too): `winnerTokenId` pays 1, the other token 0; undefined: no winner, each pays 0.5. */
  | {
      readonly type: 'marketResolved';
      readonly conditionId: ConditionId;
      readonly tokenIds: readonly TokenId[];
      readonly winnerTokenId: TokenId | undefined;
      readonly tsEvent: number;
      readonly tsInit: number;
    };

/** The states of one of our orders, as the engine tracks it. */
export type OrderStatus =
  | 'PENDING_SUBMIT'
  | 'SUBMIT_UNKNOWN'
  | 'LIVE'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCEL_PENDING'
  | 'CANCELED'
  | 'REJECTED'
  | 'EXPIRED';

/** One fill of one of our orders. */
export interface FillEvent {
  readonly type: 'OrderFilled';
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  readonly fee: Micros;
  readonly liquidity: 'MAKER' | 'TAKER';
  /** Provisional until the venue reports the trade CONFIRMED. */
  readonly confirmed: boolean;
  readonly tsEvent: number;
  readonly tsInit: number;
}

/** What happens to one of our orders, as the engine reports it to its strategy. */
export type OrderEvent =
  | { readonly type: 'OrderAccepted'; readonly clientOrderId: string; readonly orderId: string; readonly tsInit: number }
  | { readonly type: 'OrderRejected'; readonly clientOrderId: string; readonly reason: string; readonly tsInit: number }
  | { readonly type: 'OrderDenied'; readonly clientOrderId: string; readonly code: string; readonly reason: string; readonly tsInit: number }
  | { readonly type: 'OrderCanceled'; readonly clientOrderId: string; readonly orderId: string | undefined; readonly reason: string; readonly tsInit: number }
  | { readonly type: 'OrderSubmitUnknown'; readonly clientOrderId: string; readonly orderId: string; readonly tsInit: number }
  | { readonly type: 'OrderExpired'; readonly clientOrderId: string; readonly orderId: string | undefined; readonly tsInit: number };

/** An order of this strategy, as the engine tracks it. Frozen. */
export interface OrderSnapshot {
  readonly clientOrderId: string;
  readonly orderId: string | undefined;
  readonly strategyId: string;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  readonly filled: Micros;
  readonly status: OrderStatus;
  readonly orderType: string;
  readonly postOnly: boolean;
  readonly tag: string | undefined;
  readonly createdAt: number;
}
