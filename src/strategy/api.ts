import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderBook, TokenId, TokenPrices, MarketRules, ConditionId, EventInfo, TradePrint, WalletTrade } from '../core/types.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { FillEvent, LifecycleEvent, OrderEvent, OrderSnapshot } from '../core/events.ts';
import type { BasketEvent } from '../core/basket-events.ts';

export type { BasketCompleted, BasketEvent, BasketOrderResult, BasketPartial, BasketUnwound } from '../core/basket-events.ts';

export type { EventInfo, TradePrint, WalletTrade } from '../core/types.ts';
export type { FillEvent, HaltName, LifecycleEvent, OrderEvent, OrderRefs, OrderSnapshot, OrderStatus, SettlementStatus } from '../core/events.ts';
export { HALT_NAMES } from '../core/events.ts';
export { DENY_CODES, type DenyCode } from '../core/deny-codes.ts';

/**
 * The strategy interface. A strategy module default-exports `defineStrategy({...})`.
 * Bump STRATEGY_API_VERSION on any breaking change; the loader refuses a module built for
 * another major version. Hooks take ONE object argument, so new fields break nobody.
 *
 * Version 3 (additive): `ctx.position()` and `ctx.positions()` are the strategy's own (its fills
 * only), `ctx.account()` is the run's account, `ctx.order(ref)` finds an order by the `ref` its
 * intent set, and place and quote intents take `ref` and `group`, echoed on every event of the
 * order. Later additions, still version 3: a market snapshot names its `event` and its newest public
 * `lastTrade`, `rules.secondsDelay` is the market's matching delay, `ctx.event(id)` and
 * `ctx.events()` give the events of the strategy's markets, and `onTrade` (or `trades$`) hears
 * every public trade print of its tokens; `onWalletTrade` (or `walletTrades$`) hears every trade of
 * the wallets the run follows (`data.wallets`).
 */
export const STRATEGY_API_VERSION = 3;

/**
 * Older versions this clobot still loads, unchanged: a v1 module runs as is (its hooks ignore
 * `state`); v1 and v2 modules keep `ctx.position()` and `ctx.positions()` as the run's positions
 * (what they were before strategies had their own).
 */
export const SUPPORTED_API_VERSIONS: readonly number[] = [1, 2, 3];

export interface StrategyLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** One token as the strategy sees it: rules, newest book, newest prices, staleness. Frozen. */
export interface MarketSnapshot {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly outcome: string;
  readonly outcomeIndex: 0 | 1;
  readonly complementTokenId: TokenId | undefined;
  readonly question: string;
  readonly rules: MarketRules;
  readonly book: OrderBook | undefined;
  readonly prices: TokenPrices | undefined;
  readonly bestBid: Micros | undefined;
  readonly bestAsk: Micros | undefined;
  readonly mid: Micros | undefined;
  /** Milliseconds since the newest book arrived (by the clock), Infinity without a book. */
  readonly ageMs: number;
  /**
   * The event the market belongs to (id, slug, title, neg-risk and augmented flags, every market
   * it lists); absent when the venue or the recording names none.
   */
  readonly event?: EventInfo;
  /** The newest public trade print of the token (any trader's); absent before the first. */
  readonly lastTrade?: TradePrint;
}

/** An event with the snapshots of its outcomes the run follows (`ctx.event(id)`). */
export interface EventSnapshot {
  readonly event: EventInfo;
  /**
   * A snapshot of every tracked token of the event's markets (both outcomes of each), in the
   * order of `event.marketConditionIds`, YES (outcome index 0) before NO. A market of the event
   * the run does not follow has none: compare with `event.marketConditionIds`.
   */
  readonly markets: readonly MarketSnapshot[];
}

export interface PositionSnapshot {
  readonly tokenId: TokenId;
  readonly size: Micros;
  /** Average entry price of the open size. */
  readonly avgPrice: Micros;
  readonly realizedPnl: Micros;
}

/**
 * The run's account (`ctx.account()`): the same figures as the run summary's `account`, as Micros.
 * Cash is the venue's (live) or the configured balance moved by the run's fills (paper, backtest).
 */
export interface AccountSnapshot {
  readonly cash: Micros;
  /** What the run's open BUY orders promise. */
  readonly reserved: Micros;
  /** cash - reserved (what `ctx.balance()` gives). */
  readonly free: Micros;
  /** What the run's positions are worth: complete sets (a YES+NO pair, a full non-augmented neg-risk set) at 1 a set, the rest size × mark (at cost where a token has no mark). */
  readonly positionValue: Micros;
  /** cash + positionValue. */
  readonly equity: Micros;
  readonly realizedPnl: Micros;
  readonly unrealizedPnl: Micros;
  readonly fees: Micros;
  /** The run's positions: every strategy's fills together. */
  readonly positions: readonly PositionSnapshot[];
}

/** The narrow view a strategy gets. Every getter returns a frozen snapshot. */
export interface StrategyContext<P = unknown> {
  readonly strategyId: string;
  readonly params: P;
  readonly clock: Clock;
  readonly log: StrategyLogger;
  /** Tokens this strategy trades. */
  readonly tokenIds: readonly TokenId[];
  market(tokenId: TokenId): MarketSnapshot | undefined;
  markets(): readonly MarketSnapshot[];
  openOrders(tokenId?: TokenId): readonly OrderSnapshot[];
  /**
   * The strategy's own position in a token: its fills only, whatever other strategies of the run
   * hold (API version 3; a v1 or v2 module gets the run's position, as before).
   */
  position(tokenId: TokenId): PositionSnapshot;
  /** The strategy's own positions (the run's for a v1 or v2 module), tokens ever traded. */
  positions(): readonly PositionSnapshot[];
  /** Free collateral of the run (not reserved by open BUY orders of any strategy). */
  balance(): Micros;
  /** The run's account: cash, positions and PnL of every strategy together (API version 3). */
  account(): AccountSnapshot;
  /**
   * One of the strategy's orders by the `ref` its intent set (the newest with that ref) or by
   * its client order id; undefined when unknown, another strategy's, or long closed (API version 3).
   */
  order(refOrClientOrderId: string): OrderSnapshot | undefined;
  /**
   * Sets one of the strategy's own figures (`ctx.metric('spreadCaptured', 1.25)`): the latest value
   * of each name is kept, shown in the backtest's summary, table and report and the sweep table,
   * and exported as the gauge `clobot_strategy_value{strategy, name}`. `name`: 1 to 64 letters,
   * digits, `_`, `.` or `-`, starting with a letter; `value`: a finite number (else it throws).
   */
  metric(name: string, value: number): void;
  /**
   * An event by its id (`market.event.id`) with a snapshot of every outcome token of its markets
   * the run follows; undefined when no followed market belongs to it.
   */
  event(eventId: string): EventSnapshot | undefined;
  /** The events of the strategy's markets, each once, in the order of its tokens. */
  events(): readonly EventInfo[];
  /**
   * The strategy's running estimate of its liquidity rewards (docs/rewards.md): every sample of
   * the run (each `sampleMs` on its clock), each market that pays rewards is scored from the
   * book and our resting orders, and the market's reward for the sample is split between our
   * strategies by their scores. The same in live, paper and backtest runs. Apart from trading PnL.
   */
  rewards(): RewardsSnapshot;
}

/** `ctx.rewards()`: USDC accrued (estimated, unrounded), and per market. */
export interface RewardsSnapshot {
  /** How often the run samples, ms. */
  readonly sampleMs: number;
  /** Samples taken so far. */
  readonly samples: number;
  /** The strategy's estimated accrual so far, USDC. */
  readonly total: number;
  readonly markets: readonly {
    readonly conditionId: string;
    /** The strategy's accrual in the market, USDC. */
    readonly reward: number;
    /** Samples of the market so far, and those in which the run scored. */
    readonly samples: number;
    readonly scoringSamples: number;
    /** The run's share of the market at the latest sample, 0 to 1. */
    readonly lastShare: number;
    /**
     * Where the latest sample's share came from: the venue's own figure (live, `GET
     * /rewards/user/percentages`) or the model's estimate; and how many samples took the venue's.
     */
    readonly shareSource: 'venue' | 'model';
    readonly venueSamples: number;
    /** The model's share at the latest sample, beside the venue's (how far the model is from it). */
    readonly lastModelShare: number;
  }[];
}

type Out = OrderIntent[] | OrderIntent | void | undefined;

/**
 * The hooks. Each gets ONE object argument with the run's context (`ctx`), the strategy's own
 * state for this run (`state`: what `init` returned, undefined without `init`) and the input, and
 * returns intents (one, a list, or nothing).
 */
export interface StrategyHooks<P, S = undefined> {
  onStart?(args: { ctx: StrategyContext<P>; state: S }): Out;
  onBook?(args: { ctx: StrategyContext<P>; state: S; market: MarketSnapshot; book: OrderBook }): Out;
  onPrice?(args: { ctx: StrategyContext<P>; state: S; market: MarketSnapshot; prices: TokenPrices }): Out;
  /**
   * A public trade print on one of the strategy's tokens (anyone's trade, as the venue's market
   * data shows it: the WS market channel's `last_trade_price`, or a recording's trades);
   * `market.lastTrade` is this print.
   */
  onTrade?(args: { ctx: StrategyContext<P>; state: S; market: MarketSnapshot; trade: TradePrint }): Out;
  /**
   * A trade of a wallet the run follows (`data.wallets`: read from the venue's wallet analytics in
   * live and paper runs, replayed from the recording in backtests), in any market, each fill once
   * (a transaction with several fills is several calls with one `txHash`). Every strategy of the
   * run hears every followed wallet; `ctx.market(trade.tokenId)` is undefined for a market the
   * strategy does not trade.
   */
  onWalletTrade?(args: { ctx: StrategyContext<P>; state: S; trade: WalletTrade }): Out;
  /** A fill of one of our orders; always after that order's OrderAccepted. */
  onFill?(args: { ctx: StrategyContext<P>; state: S; fill: FillEvent }): Out;
  onOrderEvent?(args: { ctx: StrategyContext<P>; state: S; event: OrderEvent }): Out;
  /** A market closed, resolved, changed its tick size, was added or removed; a fill's settlement moved. */
  onLifecycle?(args: { ctx: StrategyContext<P>; state: S; event: LifecycleEvent }): Out;
  onTimer?(args: { ctx: StrategyContext<P>; state: S; now: number }): Out;
  /**
   * What became of one of the strategy's baskets (a `basket` intent): BasketCompleted, BasketPartial
   * (`hold`) or BasketUnwound (`unwind`), after the events and fills of its orders. A basket risk
   * denied is heard instead as one OrderDenied whose `clientOrderId` is the basket's id.
   */
  onBasket?(args: { ctx: StrategyContext<P>; state: S; event: BasketEvent }): Out;
  onStop?(args: { ctx: StrategyContext<P>; state: S }): Out;
}

/** The names of the hooks, in the order a loader checks them. */
export const HOOK_NAMES = ['onStart', 'onBook', 'onPrice', 'onTrade', 'onWalletTrade', 'onFill', 'onOrderEvent', 'onLifecycle', 'onTimer', 'onBasket', 'onStop'] as const;

/** The stream form, for authors who think in RxJS: intents as an Observable over the inputs. */
export interface StrategyStreams<P, S = undefined> {
  readonly ctx: StrategyContext<P>;
  readonly state: S;
  readonly books$: Observable<{ market: MarketSnapshot; book: OrderBook }>;
  readonly prices$: Observable<{ market: MarketSnapshot; prices: TokenPrices }>;
  /** Public trade prints of the strategy's tokens (what `onTrade` hears). */
  readonly trades$: Observable<{ market: MarketSnapshot; trade: TradePrint }>;
  /** Trades of the wallets the run follows (what `onWalletTrade` hears). */
  readonly walletTrades$: Observable<WalletTrade>;
  readonly fills$: Observable<FillEvent>;
  readonly orderEvents$: Observable<OrderEvent>;
  readonly lifecycle$: Observable<LifecycleEvent>;
  /** The strategy's baskets' outcomes (what `onBasket` hears). */
  readonly baskets$: Observable<BasketEvent>;
}

export interface StrategyDefinition<P = unknown, S = unknown> extends StrategyHooks<P, S> {
  readonly apiVersion: number;
  readonly name: string;
  readonly description?: string;
  /** Validates and defaults the config's `params`. */
  readonly params?: z.ZodType<P>;
  /**
   * The top-level keys of `params` that may change while the strategy runs (an `updateParams`
   * command; the strategy hears `ParamsUpdated` in onLifecycle and reads `ctx.params` anew). A
   * key not listed is refused, naming it. Absent: none.
   */
  readonly updatable?: readonly string[];
  /**
   * Builds the strategy's state for one run, before `onStart`: every hook of that run gets it as
   * `state`. The definition itself is shared (by runs in one process, by sweep workers) and frozen.
   */
  init?(args: { ctx: StrategyContext<P> }): S;
  /** `onTimer` period, ms on the run's clock. */
  readonly timerIntervalMs?: number;
  /** Alternative to the hooks: build an intent stream from the input streams. */
  stream?(streams: StrategyStreams<P, S>): Observable<OrderIntent>;
}

/** What `defineStrategy` takes: a definition whose params type comes from its zod schema. */
export type StrategySpec<Schema extends z.ZodType, S> = Omit<StrategyDefinition<z.output<Schema>, S>, 'apiVersion' | 'params'> & {
  readonly params?: Schema;
  readonly apiVersion?: number;
};

/**
 * Makes a strategy module's default export: `export default defineStrategy({ name, params, init,
 * onBook })`. `ctx.params` is typed from the `params` schema and `state` from what `init`
 * returns, with no type arguments and no casts.
 */
export function defineStrategy<Schema extends z.ZodType = z.ZodType<Record<string, never>>, S = undefined>(
  definition: StrategySpec<Schema, S>,
): StrategyDefinition<z.output<Schema>, S> {
  return Object.freeze({ ...definition, apiVersion: definition.apiVersion ?? STRATEGY_API_VERSION }) as StrategyDefinition<z.output<Schema>, S>;
}
