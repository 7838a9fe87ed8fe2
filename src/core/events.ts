import type { DenyCode } from './deny-codes.ts';
import type { Micros } from './fixed.ts';
import type { ConditionId, OrderBook, Side, TokenId, TokenPrices, TradePrint, VenueState, WalletTrade } from './types.ts';

/**
 * What a market-data source emits, each event with venue time (`tsEvent`) and receipt time
 * (`tsInit`), epoch ms. The recorder writes exactly these; the backtest replays them by tsInit.
 */
export type MarketEvent =
  | { readonly type: 'book'; readonly book: OrderBook; readonly tsEvent: number; readonly tsInit: number }
  | { readonly type: 'prices'; readonly prices: readonly TokenPrices[]; readonly tsEvent: number; readonly tsInit: number }
  /** A public trade print (anyone's trade). */
  | ({ readonly type: 'trade' } & TradePrint)
  /** A trade of a followed wallet (`data.wallets`; tsEvent = `trade.ts`, tsInit = when we read it). */
  | { readonly type: 'walletTrade'; readonly trade: WalletTrade; readonly tsEvent: number; readonly tsInit: number }
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
    }
  /**
   * A market joined the data after it started (a filter-selected recording picked it up): from
   * here on events may name its tokens. Recordings carry it as `market`; live sources never emit it.
   */
  | { readonly type: 'marketAdded'; readonly market: ListedMarket; readonly tsEvent: number; readonly tsInit: number }
  /**
   * A token's fee rates as the venue charges them now, basis points (`takerBps` its `GET /fee-rate`
   * base fee, `makerBps` the market's maker base fee): sent when they change (docs/fees-and-sports.md).
   */
  | { readonly type: 'feeRate'; readonly tokenId: TokenId; readonly takerBps: number; readonly makerBps: number; readonly tsEvent: number; readonly tsInit: number }
  /**
   * The venue cleared the market's book at its game start (a sports market's `game_start_time`):
   * every resting order in it was cancelled, ours included, without anyone asking.
   */
  | { readonly type: 'marketCleared'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly tsEvent: number; readonly tsInit: number };

/**
 * A market and its trading rules as a recording lists it (header entry or `market` event):
 * decimals as strings, fees in basis points.
 */
export interface ListedMarket {
  readonly conditionId: string;
  readonly question: string;
  readonly slug: string;
  readonly negRisk: boolean;
  readonly negRiskMarketId?: string;
  /** Decimal strings. */
  readonly tickSize: string;
  readonly minOrderSize: string;
  readonly makerBaseFeeBps: number;
  readonly takerBaseFeeBps: number;
  /** The market's matching delay, seconds (the venue's `seconds_delay`); absent: none. */
  readonly secondsDelay?: number;
  /** A sports market's game start, epoch ms (the venue's `game_start_time`): its book is cleared then; absent: none. */
  readonly gameStartTime?: number;
  /** When the market ends, epoch ms (the venue's `end_date_iso`): it stops trading and resolves about then; absent: none listed. */
  readonly endDate?: number;
  readonly tokens: readonly { readonly tokenId: string; readonly outcome: string }[];
  /** The market's liquidity rewards when it pays some (docs/rewards.md); `minSize` a decimal string. */
  readonly rewards?: { readonly dailyRate: number; readonly minSize: string; readonly maxSpreadCents: number };
}

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

/**
 * The caller's `ref` and `group` of the order an event is about (set on its place or quote
 * intent), present on the event when the intent set them.
 */
export interface OrderRefs {
  readonly ref?: string;
  readonly group?: string;
}

/** One fill of one of our orders. */
export interface FillEvent extends OrderRefs {
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
export type OrderEvent = OrderRefs &
  (
    | { readonly type: 'OrderAccepted'; readonly clientOrderId: string; readonly orderId: string; readonly tsInit: number }
    | { readonly type: 'OrderRejected'; readonly clientOrderId: string; readonly reason: string; readonly tsInit: number }
    | { readonly type: 'OrderDenied'; readonly clientOrderId: string; readonly code: DenyCode; readonly reason: string; readonly tsInit: number }
    | { readonly type: 'OrderCanceled'; readonly clientOrderId: string; readonly orderId: string | undefined; readonly reason: string; readonly tsInit: number }
    | { readonly type: 'OrderSubmitUnknown'; readonly clientOrderId: string; readonly orderId: string; readonly tsInit: number }
    | { readonly type: 'OrderExpired'; readonly clientOrderId: string; readonly orderId: string | undefined; readonly tsInit: number }
  );

/**
 * Where a fill is on its way to the chain: provisional until CONFIRMED, void when FAILED. The
 * venue's trade statuses (src/venue/domain/statuses.ts) are this list.
 */
export const SETTLEMENT_STATUSES = ['MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/**
 * What happens to a market or a fill after the fact, as the engine tells its strategies (hook
 * `onLifecycle`) in every mode: a market closed to trading, resolved (the winning token pays 1,
 * the other 0), its tick size changed, a market added to or removed from the run, and a fill of
 * ours moving to a new settlement status (a FAILED one is void: position, cash and PnL are as if
 * it never filled); and of the run: trading halted or resumed, this strategy's params updated.
 */
export type LifecycleEvent =
  | { readonly type: 'MarketClosed'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly tsInit: number }
  | {
      readonly type: 'MarketResolved';
      readonly conditionId: ConditionId;
      readonly tokenIds: readonly TokenId[];
      /** The token that pays 1; undefined when the venue resolved the market with no winner. */
      readonly winnerTokenId: TokenId | undefined;
      readonly tsInit: number;
    }
  | { readonly type: 'TickSizeChanged'; readonly tokenId: TokenId; readonly previousTickSize: Micros; readonly tickSize: Micros; readonly tsInit: number }
  | { readonly type: 'MarketAdded'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly tsInit: number }
  | { readonly type: 'MarketRemoved'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly reason: string; readonly tsInit: number }
  | {
      readonly type: 'SettlementChanged';
      readonly clientOrderId: string;
      readonly tradeId: string;
      readonly tokenId: TokenId;
      readonly status: SettlementStatus;
      readonly tsInit: number;
    }
  /**
   * Trading halted by a named halt (HALT_NAMES): new orders are denied (TRADING_HALTED) and, unless
   * the run keeps them (`execution.cancelOnHalt: false`), our resting orders are being cancelled.
   * Sent for each halt raised; `halts` are every halt now on.
   */
  | { readonly type: 'Halted'; readonly name: HaltName; readonly reason: string; readonly halts: readonly HaltName[]; readonly tsInit: number }
  /** The last halt was lifted (`name`): orders go out again. */
  | { readonly type: 'Resumed'; readonly name: HaltName; readonly tsInit: number }
  /** This strategy's params changed while it runs (an `updateParams` command): `ctx.params` is the new value; `changed` the keys set. */
  | { readonly type: 'ParamsUpdated'; readonly strategyId: string; readonly changed: readonly string[]; readonly tsInit: number }
  /**
   * The venue changed what it takes (docs/venue-states.md): `restarting` (nothing is sent),
   * `cancelOnly` (cancels only), `postOnly` (cancels and post-only GTC/GTD orders; other orders
   * are denied VENUE_RESTRICTED), `open` again. `retryAfterMs` is the venue's own estimate when it
   * gave one. Not a halt: nothing is cancelled by it and it lifts by itself.
   */
  | { readonly type: 'VenueStateChanged'; readonly state: VenueState; readonly retryAfterMs?: number; readonly tsInit: number }
  /** A token's fee rates changed at the venue (its `GET /fee-rate`), basis points: risk, orders and fills use the new ones from now on. */
  | { readonly type: 'FeeRateChanged'; readonly tokenId: TokenId; readonly previousTakerBps: number; readonly takerBps: number; readonly makerBps: number; readonly tsInit: number }
  /**
   * The venue cleared the market's book (`reason: 'gameStart'`: a sports market's game began): our
   * resting orders in it are gone (each heard as OrderCanceled), and orders in it are denied
   * MARKET_CLEARED until the venue's book has orders again (docs/fees-and-sports.md).
   */
  | { readonly type: 'MarketCleared'; readonly conditionId: ConditionId; readonly tokenIds: readonly TokenId[]; readonly reason: 'gameStart'; readonly tsInit: number };

/**
 * The names a halt goes by, each on or off on its own: `manual` (the API or code), `file` (the
 * halt file exists), `signal` (SIGUSR2), `killSwitch`, `fault` (our own process failed) and
 * `venue` (the venue refused us). Trading is halted while any is on.
 */
export const HALT_NAMES = ['manual', 'file', 'signal', 'killSwitch', 'fault', 'venue'] as const;
export type HaltName = (typeof HALT_NAMES)[number];

/** The tokens a lifecycle event concerns (empty: every strategy hears it). */
export function lifecycleTokens(event: LifecycleEvent): readonly TokenId[] {
  switch (event.type) {
    case 'TickSizeChanged':
    case 'SettlementChanged':
    case 'FeeRateChanged':
      return [event.tokenId];
    case 'MarketAdded':
    case 'Halted':
    case 'Resumed':
    case 'ParamsUpdated':
    case 'VenueStateChanged':
      return [];
    default:
      return event.tokenIds;
  }
}

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
  /** The intent's `ref` and `group` (strategy API 3); undefined when it set none. */
  readonly ref: string | undefined;
  readonly group: string | undefined;
  readonly createdAt: number;
}
