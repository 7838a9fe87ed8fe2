import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderBook, TokenId, TokenPrices, MarketRules, ConditionId } from '../core/types.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { FillEvent, LifecycleEvent, OrderEvent, OrderSnapshot } from '../core/events.ts';

export type { FillEvent, LifecycleEvent, OrderEvent, OrderSnapshot, OrderStatus, SettlementStatus } from '../core/events.ts';
export { DENY_CODES, type DenyCode } from '../core/deny-codes.ts';

/**
 * The strategy interface. A strategy module default-exports `defineStrategy({...})`.
 * Bump STRATEGY_API_VERSION on any breaking change; the loader refuses a module built for
 * another major version. Hooks take ONE object argument, so new fields break nobody.
 */
export const STRATEGY_API_VERSION = 2;

/** Older versions this clobot still loads: a v1 module runs as is (its hooks ignore `state`). */
export const SUPPORTED_API_VERSIONS: readonly number[] = [1, 2];

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
}

export interface PositionSnapshot {
  readonly tokenId: TokenId;
  readonly size: Micros;
  /** Average entry price of the open size. */
  readonly avgPrice: Micros;
  readonly realizedPnl: Micros;
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
  position(tokenId: TokenId): PositionSnapshot;
  positions(): readonly PositionSnapshot[];
  /** Free collateral (not reserved by open BUY orders). */
  balance(): Micros;
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
  /** A fill of one of our orders; always after that order's OrderAccepted. */
  onFill?(args: { ctx: StrategyContext<P>; state: S; fill: FillEvent }): Out;
  onOrderEvent?(args: { ctx: StrategyContext<P>; state: S; event: OrderEvent }): Out;
  /** A market closed, resolved, changed its tick size, was added or removed; a fill's settlement moved. */
  onLifecycle?(args: { ctx: StrategyContext<P>; state: S; event: LifecycleEvent }): Out;
  onTimer?(args: { ctx: StrategyContext<P>; state: S; now: number }): Out;
  onStop?(args: { ctx: StrategyContext<P>; state: S }): Out;
}

/** The names of the hooks, in the order a loader checks them. */
export const HOOK_NAMES = ['onStart', 'onBook', 'onPrice', 'onFill', 'onOrderEvent', 'onLifecycle', 'onTimer', 'onStop'] as const;

/** The stream form, for authors who think in RxJS: intents as an Observable over the inputs. */
export interface StrategyStreams<P, S = undefined> {
  readonly ctx: StrategyContext<P>;
  readonly state: S;
  readonly books$: Observable<{ market: MarketSnapshot; book: OrderBook }>;
  readonly prices$: Observable<{ market: MarketSnapshot; prices: TokenPrices }>;
  readonly fills$: Observable<FillEvent>;
  readonly orderEvents$: Observable<OrderEvent>;
  readonly lifecycle$: Observable<LifecycleEvent>;
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
