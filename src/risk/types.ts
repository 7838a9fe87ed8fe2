import type { Micros } from '../core/fixed.ts';
import type { ConditionId, HeartbeatHealth, Side, TokenId, VenueState } from '../core/types.ts';
import type { OrderRequest } from '../core/intents.ts';
import type { DenyCode } from '../core/deny-codes.ts';

/**
 * The risk module's vocabulary. Risk says no with a closed set of codes: every denial names a
 * code, the check that produced it and a short message with the numbers. Checks are pure,
 * synchronous functions of (request, state snapshot, limits); the engine runs them in a
 * configured order and the first denial wins. Cancels are never risk-checked: the engine must
 * always be able to cancel.
 */

export { DENY_CODES, type DenyCode } from '../core/deny-codes.ts';

/** Every check, by the name used in config (`risk.checks`). */
export const CHECK_NAMES = [
  'killSwitch',
  'marketOpen',
  'tickGrid',
  'priceBounds',
  'minSize',
  'staleBook',
  'orderRate',
  'maxOpenOrders',
  'selfCross',
  'maxNotional',
  'maxPosition',
  'maxGrossExposure',
  'negRiskExposure',
  'strategyBudget',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * The engine's own gates, run before every configured check and never removable by config:
 * `amount` (a price, size or notional the venue cannot represent, AMOUNT_OUT_OF_RANGE), `halt`
 * (a manual halt, TRADING_HALTED), `heartbeat` (late or lost, TRADING_HALTED), `reconciling`
 * (the order's market has orders of unknown outcome, RECONCILING), `venue` (the venue restarts
 * or takes only cancels or only post-only orders, VENUE_RESTRICTED), `cleared` (the market's book
 * was cleared at its game start and has no orders yet, MARKET_CLEARED) and `outside`.
 */
export const GATE_NAMES = ['amount', 'halt', 'heartbeat', 'venue', 'reconciling', 'cleared', 'outside'] as const;
export type GateName = (typeof GATE_NAMES)[number];

/**
 * The default order: the kill switch first (nothing goes out while halted), then cheap
 * structural checks on the order and its market, then throughput, then exposure (the costliest:
 * they walk positions and open orders).
 */
export const DEFAULT_CHECK_ORDER: readonly CheckName[] = Object.freeze([...CHECK_NAMES]);

/**
 * The code a check denies with when it fails for its own reason (some checks also deny with
 * UNKNOWN_MARKET). The engine uses it to fail closed when a check throws on a malformed state.
 */
export const CHECK_DENY_CODE: Readonly<Record<CheckName, DenyCode>> = Object.freeze({
  killSwitch: 'TRADING_HALTED',
  marketOpen: 'MARKET_CLOSED',
  tickGrid: 'PRICE_OFF_TICK',
  priceBounds: 'PRICE_OUT_OF_BOUNDS',
  minSize: 'SIZE_BELOW_MINIMUM',
  staleBook: 'STALE_BOOK',
  orderRate: 'ORDER_RATE_LIMIT',
  maxOpenOrders: 'MAX_OPEN_ORDERS',
  selfCross: 'SELF_CROSS',
  maxNotional: 'NOTIONAL_EXCEEDS_MAX',
  maxPosition: 'POSITION_LIMIT',
  maxGrossExposure: 'GROSS_EXPOSURE_LIMIT',
  negRiskExposure: 'NEG_RISK_EXPOSURE_LIMIT',
  strategyBudget: 'STRATEGY_BUDGET',
});

/**
 * Limits; an undefined limit means "no limit" and its check passes everything. Money limits are
 * Micros (collateral units of 1e-6; sizes in shares of 1e-6).
 */
export interface RiskLimits {
  /** Max price × size of one order, collateral. */
  readonly maxOrderNotional?: Micros;
  /** Max |projected position| in one token, shares. */
  readonly maxPositionPerToken?: Micros;
  /** Max |projected YES - NO| in one market (condition), shares. */
  readonly maxPositionPerMarket?: Micros;
  /** Max gross exposure over the whole book of positions and open buys, collateral. */
  readonly maxGrossExposure?: Micros;
  /** Max exposure over all markets of one neg-risk event, collateral. */
  readonly maxNegRiskEventExposure?: Micros;
  /** Max open orders across all strategies, this order included. */
  readonly maxOpenOrders?: number;
  /** Max orders sent in any 1000 ms, this order included. */
  readonly maxOrdersPerSecond?: number;
  /** Max age of the order token's book, ms. */
  readonly staleBookMs?: number;
  /** Halt when the day's PnL is at or below minus this, collateral. */
  readonly dailyLossLimit?: Micros;
  /** Halt when this many orders in a row were rejected by the venue. */
  readonly maxConsecutiveRejects?: number;
  /**
   * Per strategy id, the most collateral the strategy may commit: its positions at cost plus its
   * open BUYs, this order included (each strategy's config entry `budget`). A strategy not listed
   * has no budget.
   */
  readonly strategyBudgets?: Readonly<Record<string, Micros>>;
}

/** What risk needs to know of one token's market. */
export interface RiskMarketView {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  /** 0 = the first outcome (YES), 1 = the second (NO). */
  readonly outcomeIndex: 0 | 1;
  /** The other token of the same condition, when known. */
  readonly complementTokenId?: TokenId;
  /** Event grouping for neg-risk markets (the venue's `neg_risk_market_id`). */
  readonly negRiskMarketId?: string;
  /** The newest tick (the newest book's, a tick can change while a market trades). */
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly acceptingOrders: boolean;
  /** The market's taker fee rate now, basis points (the venue's `GET /fee-rate`); absent: 0. */
  readonly takerFeeBps?: number;
  readonly bestBid?: Micros;
  readonly bestAsk?: Micros;
  readonly mid?: Micros;
  /** When we received the newest book, epoch ms (the injected clock); undefined = no book yet. */
  readonly bookTsInit?: number;
}

/** One of our orders that may still rest on the venue; includes orders sent but not yet acknowledged. */
export interface RiskOpenOrder {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly side: Side;
  readonly price: Micros;
  /** Unfilled size, shares; 0 means it no longer rests and is ignored. */
  readonly remaining: Micros;
}

export type { HeartbeatHealth };

/** The snapshot risk checks against, built by the engine; never mutated by risk. */
export interface RiskState {
  /** Epoch ms from the injected clock. */
  readonly now: number;
  readonly markets: ReadonlyMap<TokenId, RiskMarketView>;
  readonly openOrders: readonly RiskOpenOrder[];
  /** Signed shares per token (negative only if the venue ever allowed a short). */
  readonly positions: ReadonlyMap<TokenId, Micros>;
  /** Epoch ms of orders sent, ascending (newest last). */
  readonly recentOrderTimes: readonly number[];
  readonly consecutiveRejects: number;
  /** Realized + unrealized since the day began, collateral; negative = loss. */
  readonly dailyPnl: Micros;
  readonly heartbeat: HeartbeatHealth;
  readonly manualHalt: boolean;
  readonly haltReason?: string;
  /**
   * What the venue takes now (docs/venue-states.md): `restarting` and `cancelOnly` no order,
   * `postOnly` only post-only GTC/GTD orders. Absent: `open`.
   */
  readonly venueState?: VenueState;
  /**
   * Markets (condition ids) under reconciliation: orders of unknown outcome there, or our trades
   * at the venue not yet read in full: no new orders there (`why` says which, for the denial).
   */
  readonly reconciling: { has(conditionId: ConditionId): boolean; why?(conditionId: ConditionId): string | undefined };
  /** Markets whose book the venue cleared at a game start and that have no orders yet: no new orders there. Absent: none. */
  readonly cleared?: { has(conditionId: ConditionId): boolean };
  /**
   * Shares the account holds outside the bot per token (a live run's account reading): the
   * `outside` gate refuses a SELL that would reach into them. Absent: none known.
   */
  readonly outside?: ReadonlyMap<TokenId, Micros>;
  /** What a strategy's open long positions cost, collateral (the strategy ledger's); absent: none known. */
  readonly strategyCost?: (strategyId: string) => Micros;
}

/** A no from risk: the engine publishes it as an OrderDenied event the strategy hears. */
export interface Denial {
  readonly code: DenyCode;
  /** The configured check, or the engine gate, that said no. */
  readonly check: CheckName | GateName;
  /** Short and names the numbers, e.g. "notional 60.5 exceeds max 50". */
  readonly message: string;
}

/** One pure check: undefined = allowed. Never mutates its arguments. */
export type RiskCheck = (req: OrderRequest, state: RiskState, limits: RiskLimits) => Denial | undefined;
