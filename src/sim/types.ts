import type { Micros } from '../core/fixed.ts';
import type { ConditionId, MarketRules, OrderType, Side, TokenId } from '../core/types.ts';
import type { TradeStatus, VenueOrderStatus } from '../venue/domain/statuses.ts';

/**
 * Domain types of the simulated matching engine (the sandbox venue's; paper trading and backtests
 * use the edge in edge/). Prices and sizes are Micros; times are epoch milliseconds passed in by
 * the caller.
 * Prices are in the order's own token unless a name says `yes`.
 */

/** A binary market: YES is token index 0, NO is index 1. */
export interface SimMarketConfig extends MarketRules {
  readonly tokenIds: readonly [TokenId, TokenId];
}

export type OutcomeIndex = 0 | 1;

/** An order as the engine receives it (the sandbox builds it from a verified signed order). */
export interface SimOrderRequest {
  /** Unique id, e.g. the EIP-712 order hash. */
  readonly id: string;
  /** API key (or account id) that may cancel the order and sees it in its order lists. */
  readonly owner: string;
  /** Funder wallet: the account whose balances the order uses. */
  readonly address: string;
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  readonly type: OrderType;
  /** Only with GTC and GTD. */
  readonly postOnly?: boolean;
  /** GTD only: the order is removed when `now >= expiration` (epoch ms). Ignored for other types. */
  readonly expiration?: number;
  readonly createdAt: number;
  /** Opaque, carried through to the order's state. */
  readonly clientMetadata?: string;
}

/**
 * The venue's submission statuses. The engine answers LIVE (rests, nothing filled), MATCHED
 * (something filled; any rest of a GTC/GTD rests), DELAYED (a marketable order held for its
 * market's matching delay, see delayed-orders.ts) or REJECTED. UNMATCHED is what a delayed order
 * becomes when it can no longer be placed at the end of its delay (its order status, never an
 * answer to a submit).
 */
export type SubmitStatus = 'LIVE' | 'MATCHED' | 'DELAYED' | 'UNMATCHED' | 'REJECTED';

export interface SubmitResult {
  readonly status: SubmitStatus;
  /** '' when accepted, else one of the strings of `venue-messages.ts`. */
  readonly errorMsg: string;
  readonly orderId: string;
  /** What the order gave in the fills of this call: collateral for a BUY, tokens for a SELL. */
  readonly makingAmount: Micros;
  /** What the order got in the fills of this call: tokens for a BUY, collateral for a SELL (before fees). */
  readonly takingAmount: Micros;
  readonly trades: readonly Trade[];
}

export interface CancelResult {
  readonly canceled: string[];
  readonly notCanceled: Record<string, string>;
}

/** DELAYED: held for the market's matching delay; UNMATCHED: refused at the end of it (never on the book). */
export type OrderStatus = VenueOrderStatus;
/** USER: a cancel call; EXPIRED: GTD expiry; UNFILLED_REMAINDER: the unfilled part of a FAK. */
export type CancelReason = 'USER' | 'EXPIRED' | 'UNFILLED_REMAINDER';

/** A frozen view of an order. */
export interface OrderState {
  readonly id: string;
  readonly status: OrderStatus;
  readonly conditionId: ConditionId;
  readonly tokenId: TokenId;
  readonly outcomeIndex: OutcomeIndex;
  readonly owner: string;
  readonly address: string;
  readonly side: Side;
  readonly price: Micros;
  readonly originalSize: Micros;
  readonly sizeMatched: Micros;
  /** Size resting on the book: originalSize - sizeMatched while LIVE, 0 after. */
  readonly openSize: Micros;
  readonly type: OrderType;
  readonly postOnly: boolean;
  readonly createdAt: number;
  readonly expiration: number | undefined;
  readonly clientMetadata: string | undefined;
  /** Ids of the trades the order took part in, oldest first. */
  readonly associateTrades: readonly string[];
  readonly cancelReason: CancelReason | undefined;
}

/**
 * How a maker fill settled, from the real tokens of both sides: TRANSFER (a buyer and a seller of
 * one token), MINT (BUY YES against BUY NO: both pay, a new YES+NO pair is created), MERGE
 * (SELL YES against SELL NO: both give their token, the pair is redeemed for collateral).
 */
export type Settlement = 'TRANSFER' | 'MINT' | 'MERGE';

export interface MakerFill {
  readonly orderId: string;
  readonly owner: string;
  readonly address: string;
  readonly tokenId: TokenId;
  readonly outcomeIndex: OutcomeIndex;
  readonly side: Side;
  /** The maker's own price (its token's terms): the fill price. */
  readonly price: Micros;
  readonly matchedAmount: Micros;
  readonly feeRateBps: number;
  /** Collateral fee the maker paid on this fill. */
  readonly fee: Micros;
  readonly settlement: Settlement;
}

/**
 * One trade: a taker order against every maker order at one price level. A taker sweeping three
 * levels makes three trades, each with one exact price.
 */
export interface Trade {
  readonly id: string;
  readonly conditionId: ConditionId;
  /** The taker's token, side and price (in the taker's token terms). */
  readonly tokenId: TokenId;
  readonly outcomeIndex: OutcomeIndex;
  readonly side: Side;
  readonly price: Micros;
  /** Taker size filled in this trade = Σ makerOrders.matchedAmount. */
  readonly size: Micros;
  readonly takerOrderId: string;
  readonly owner: string;
  readonly address: string;
  readonly feeRateBps: number;
  /** Collateral fee the taker paid on this trade. */
  readonly fee: Micros;
  readonly makerOrders: readonly MakerFill[];
  readonly matchTime: number;
  /** Its status when matched; later ones (settlement-model.ts) are the engine's `tradeStatus`. */
  readonly status: 'MATCHED';
}

/** One level of one token's book after a change; size 0 means the level is gone. */
export interface LevelChange {
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
}

export interface TokenTop {
  readonly tokenId: TokenId;
  readonly hash: string;
  readonly bestBid: Micros | undefined;
  readonly bestAsk: Micros | undefined;
}

export interface OrderAccepted {
  readonly type: 'OrderAccepted';
  readonly ts: number;
  /** The order as it rests on the book (after any fills of the same call). */
  readonly order: OrderState;
}

export interface OrderFilled {
  readonly type: 'OrderFilled';
  readonly ts: number;
  readonly orderId: string;
  readonly owner: string;
  readonly role: 'MAKER' | 'TAKER';
  readonly tradeId: string;
  readonly tokenId: TokenId;
  readonly side: Side;
  /** Fill price in the order's own token. */
  readonly price: Micros;
  readonly size: Micros;
  readonly fee: Micros;
  readonly sizeMatched: Micros;
  readonly originalSize: Micros;
  /** MATCHED once fully filled; LIVE for a resting maker with size left; a taker is LIVE until the call ends. */
  readonly status: OrderStatus;
}

export interface OrderCanceled {
  readonly type: 'OrderCanceled';
  readonly ts: number;
  readonly orderId: string;
  readonly owner: string;
  readonly reason: 'USER' | 'UNFILLED_REMAINDER';
  /** Open size removed from the book (or, for a FAK, never placed). */
  readonly canceledSize: Micros;
  readonly sizeMatched: Micros;
}

export interface OrderExpired {
  readonly type: 'OrderExpired';
  /** The order's expiration (it may be noticed by a later call). */
  readonly ts: number;
  readonly orderId: string;
  readonly owner: string;
  readonly canceledSize: Micros;
  readonly sizeMatched: Micros;
}

export interface TradeExecuted {
  readonly type: 'TradeExecuted';
  readonly ts: number;
  readonly trade: Trade;
}

/** Emitted once per engine call that changed a market's book, in both tokens' terms. */
export interface BookChanged {
  readonly type: 'BookChanged';
  readonly ts: number;
  readonly conditionId: ConditionId;
  readonly changes: readonly LevelChange[];
  /** [YES, NO] after the change. */
  readonly tops: readonly [TokenTop, TokenTop];
  /** Last trade price of [YES, NO]; undefined before the first trade. */
  readonly lastTradePrices: readonly [Micros | undefined, Micros | undefined];
}

export interface TickSizeChanged {
  readonly type: 'TickSizeChanged';
  readonly ts: number;
  readonly conditionId: ConditionId;
  readonly tokenIds: readonly [TokenId, TokenId];
  readonly oldTickSize: Micros;
  readonly newTickSize: Micros;
  /** [YES, NO] with the new hashes (the tick is part of the hashed content). */
  readonly tops: readonly [TokenTop, TokenTop];
}

/** A trade of a tracked party moved on its way to the chain (settlement-model.ts); FAILED: reversed on the ledger. */
export interface TradeSettled {
  readonly type: 'TradeSettled';
  readonly ts: number;
  readonly trade: Trade;
  readonly status: TradeStatus;
}

export type SimEvent = OrderAccepted | OrderFilled | OrderCanceled | OrderExpired | TradeExecuted | TradeSettled | BookChanged | TickSizeChanged;

export type SimEventListener = (event: SimEvent) => void;

/** Best prices and last trade of one token (its own terms). */
export interface TokenQuote {
  readonly tokenId: TokenId;
  readonly bestBid: Micros | undefined;
  readonly bestAsk: Micros | undefined;
  readonly lastTradePrice: Micros | undefined;
  readonly hash: string;
}
