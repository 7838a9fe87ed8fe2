import type { Micros } from '../../core/fixed.ts';
import type { OrderRequest } from '../../core/intents.ts';
import type { MarketFees } from '../../core/money.ts';
import type { ConditionId, OrderType, Side, TokenId } from '../../core/types.ts';
import type { VenueOrderState } from '../../execution/execution-client.ts';
import type { RecordedBook } from './recorded-book.ts';

/** One token the simulated venue trades, with its rules at the start of the recording. */
export interface SimToken {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly fees: MarketFees;
  readonly acceptingOrders?: boolean;
  /** The market's matching delay, ms (`taker_order_delay_ms`, or `seconds_delay` × 1000); absent: none. */
  readonly takerDelayMs?: number;
}

/** One of our orders at the simulated venue. */
export interface SimOrder {
  readonly id: string;
  readonly seq: number;
  readonly request: OrderRequest;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly side: Side;
  readonly isBuy: boolean;
  readonly price: Micros;
  readonly size: Micros;
  readonly type: OrderType;
  readonly expiration: number | undefined;
  filled: Micros;
  /** DELAYED: held for the market's matching delay; UNMATCHED: refused when it was over. */
  status: 'LIVE' | 'MATCHED' | 'CANCELED' | 'DELAYED' | 'UNMATCHED';
  /** Displayed size in front of us at our price. */
  queueAhead: Micros;
  /** Size displayed at our price in the newest snapshot that showed it; undefined when out of view. */
  lastSeen: Micros | undefined;
  /** Collateral held for the open size (BUY). */
  hold: Micros;
}

/** A token at the venue: its recorded book and our resting orders on it. */
export interface TokenVenue {
  /** Replaced when the venue's fee rates change (a `feeRate` event). */
  token: SimToken;
  readonly book: RecordedBook;
  /** Our open resting orders on this token by side, in the order a taker meets them: best price first, then arrival. */
  readonly bids: SimOrder[];
  readonly asks: SimOrder[];
}

/** A queue position we cannot see yet (our price is beyond the displayed depth). */
export const UNSEEN = Number.MAX_SAFE_INTEGER;

/** `size` rounded down to whole lots (0 for nothing or less). */
export function floorLot(size: Micros, lot: Micros): Micros {
  if (size <= 0) return 0;
  return size - (size % lot);
}

export function venueState(order: SimOrder): VenueOrderState {
  return {
    orderId: order.id,
    status: order.status,
    tokenId: order.tokenId,
    conditionId: order.conditionId,
    side: order.side,
    price: order.price,
    originalSize: order.size,
    sizeMatched: order.filled,
    clientOrderId: order.request.clientOrderId,
  };
}
