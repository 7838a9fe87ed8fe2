import type { Micros } from './fixed.ts';
import type { RewardRules } from './rewards.ts';

/**
 * Domain types shared by every room. Prices and sizes are Micros (integers of 1e-6, exact);
 * times are epoch milliseconds. Objects handed between components are treated as immutable.
 */

export const SIDES = ['BUY', 'SELL'] as const;
export type Side = (typeof SIDES)[number];
/** Every order type: good till cancelled or till a date rest; fill-or-kill and fill-and-kill do not. */
export const ORDER_TYPES = ['GTC', 'GTD', 'FOK', 'FAK'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** idle: no heartbeat chain started yet (allowed); late: no new orders; lost: the venue cancelled all. */
export const HEARTBEAT_HEALTHS = ['idle', 'healthy', 'late', 'lost'] as const;
export type HeartbeatHealth = (typeof HEARTBEAT_HEALTHS)[number];

/**
 * What the venue lets us send (docs/venue-states.md): `open` everything; `restarting` nothing (its
 * matching engine restarts: order routes answer 425); `cancelOnly` cancels only; `postOnly`
 * cancels and post-only GTC/GTD orders (after a restart, or a 503 saying so).
 */
export const VENUE_STATES = ['open', 'restarting', 'cancelOnly', 'postOnly'] as const;
export type VenueState = (typeof VENUE_STATES)[number];

/** Decimal string token id (uint256). */
export type TokenId = string;
/** 0x-prefixed 32-byte condition id. */
export type ConditionId = string;

export interface BookLevel {
  readonly price: Micros;
  readonly size: Micros;
}

/** One order book, decoded: bids descending, asks ascending, exact prices and sizes. */
export interface OrderBook {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  /** Venue time of the book (its `timestamp`), epoch ms. */
  readonly tsEvent: number;
  /** When we received it, epoch ms (the injected clock). */
  readonly tsInit: number;
  /** Venue content hash: an unchanged hash means an unchanged book. */
  readonly hash: string;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  /** Absent on older payloads. */
  readonly tickSize: Micros | undefined;
  readonly minOrderSize: Micros | undefined;
  readonly negRisk: boolean | undefined;
  /** undefined when the market has not traded. */
  readonly lastTradePrice: Micros | undefined;
}

/** Best prices for one token (`POST /prices`). */
export interface TokenPrices {
  readonly tokenId: TokenId;
  /**
   * The venue's `BUY` price: the best bid (what the venue reports for the buy side of the book;
   * probed on the real venue, see the sandbox's `GET /price`).
   */
  readonly buy: Micros | undefined;
  /** The venue's `SELL` price: the best ask. */
  readonly sell: Micros | undefined;
  readonly tsInit: number;
}

/** The trading rules of a market that order building and risk need. */
export interface MarketRules {
  readonly conditionId: ConditionId;
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly negRisk: boolean;
  /** Fee rates in basis points. */
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
  readonly acceptingOrders: boolean;
  /** The market's liquidity rewards (docs/rewards.md); absent when it pays none. */
  readonly rewards?: RewardRules | undefined;
  /**
   * The market's matching delay, seconds (the venue's `seconds_delay`): a marketable order waits
   * this long (answered DELAYED) before it meets the book. Absent or 0: none.
   */
  readonly secondsDelay?: number;
  /**
   * A sports market's game start, epoch ms (the venue's `game_start_time`): the venue clears the
   * book then (every resting order cancelled) and holds marketable orders for `secondsDelay`.
   * Absent: not a game.
   */
  readonly gameStartTime?: number;
  /**
   * When the market ends, epoch ms (the venue's `end_date_iso`; `endDate` in the market listing):
   * it stops trading and resolves about then (a resolution can come late, rarely early). Absent:
   * the venue lists none.
   */
  readonly endDate?: number;
}

/**
 * The event a market belongs to, as the venue lists it: the outcomes of a neg-risk event are
 * mutually exclusive markets (their YES tokens sum to one unit of collateral at resolution).
 * `augmented`: the venue's `negRiskAugmented` (with `enableNegRisk`): the event has an implicit
 * "Other" outcome not listed as a market, so its listed YES asks summing below 1 is NOT an
 * arbitrage and a full set of its listed YES does not pay 1.
 */
export interface EventInfo {
  /** The venue's event id. */
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  /** A neg-risk (mutually exclusive outcomes) event: the venue's `enableNegRisk` / `negRisk`. */
  readonly negRisk: boolean;
  readonly augmented: boolean;
  /** Every market of the event as the venue lists it, tracked by the run or not. */
  readonly marketConditionIds: readonly ConditionId[];
}

/**
 * One trade of a followed wallet (`data.wallets`), read from the venue's wallet analytics
 * (`GET /activity`, `GET /trades?user=`) or replayed from a recording; what `onWalletTrade` hears.
 * A transaction can carry several fills: each is one WalletTrade with the same `txHash`.
 */
export interface WalletTrade {
  /** The wallet, a lowercase 0x address. */
  readonly wallet: string;
  /** The venue's transaction hash of the trade (shared by the fills of one transaction). */
  readonly txHash: string;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  /** The wallet's side. */
  readonly side: Side;
  /** The wallet's price (micros; the analytics routes' number, rounded to the micro). */
  readonly price: Micros;
  readonly size: Micros;
  /** Venue time of the trade, epoch ms (the analytics routes give whole seconds). */
  readonly ts: number;
}

/** A public trade print on one token (any trader's, from the venue's market data). */
export interface TradePrint {
  readonly tokenId: TokenId;
  readonly price: Micros;
  readonly size: Micros;
  /** The taker's side. */
  readonly side: Side;
  /** Venue time of the trade, epoch ms. */
  readonly tsEvent: number;
  /** When we received it, epoch ms (the injected clock). */
  readonly tsInit: number;
}
