import type { Observable } from 'rxjs';
import type { z } from 'zod';
import type { Clock } from '../core/clock.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderBook, TokenId, TokenPrices, MarketRules, ConditionId } from '../core/types.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { FillEvent, OrderEvent, OrderSnapshot } from '../core/events.ts';

export type { FillEvent, OrderEvent, OrderSnapshot, OrderStatus } from '../core/events.ts';

/**
 * The strategy interface. A strategy module default-exports `defineStrategy({...})`.
 * Bump STRATEGY_API_VERSION on any breaking change; the loader refuses a module built for
 * another major version. Hooks take ONE object argument, so new fields break nobody.
 */
export const STRATEGY_API_VERSION = 1;

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

export interface StrategyHooks<P> {
  onStart?(args: { ctx: StrategyContext<P> }): Out;
  onBook?(args: { ctx: StrategyContext<P>; market: MarketSnapshot; book: OrderBook }): Out;
  onPrice?(args: { ctx: StrategyContext<P>; market: MarketSnapshot; prices: TokenPrices }): Out;
  onFill?(args: { ctx: StrategyContext<P>; fill: FillEvent }): Out;
  onOrderEvent?(args: { ctx: StrategyContext<P>; event: OrderEvent }): Out;
  onTimer?(args: { ctx: StrategyContext<P>; now: number }): Out;
  onStop?(args: { ctx: StrategyContext<P> }): Out;
}

/** The stream form, for authors who think in RxJS: intents as an Observable over the inputs. */
export interface StrategyStreams<P> {
  readonly ctx: StrategyContext<P>;
  readonly books$: Observable<{ market: MarketSnapshot; book: OrderBook }>;
  readonly prices$: Observable<{ market: MarketSnapshot; prices: TokenPrices }>;
  readonly fills$: Observable<FillEvent>;
  readonly orderEvents$: Observable<OrderEvent>;
}

export interface StrategyDefinition<P = unknown> extends StrategyHooks<P> {
  readonly apiVersion: number;
  readonly name: string;
  readonly description?: string;
  /** Validates and defaults the config's `params`. */
  readonly params?: z.ZodType<P>;
  /** `onTimer` period, ms on the run's clock. */
  readonly timerIntervalMs?: number;
  /** Alternative to the hooks: build an intent stream from the input streams. */
  readonly stream?: (streams: StrategyStreams<P>) => Observable<OrderIntent>;
}

/** Typed helper for strategy modules: `export default defineStrategy({ name, params, onBook })`. */
export function defineStrategy<P>(definition: Omit<StrategyDefinition<P>, 'apiVersion'> & { apiVersion?: number }): StrategyDefinition<P> {
  return Object.freeze({ ...definition, apiVersion: definition.apiVersion ?? STRATEGY_API_VERSION });
}
