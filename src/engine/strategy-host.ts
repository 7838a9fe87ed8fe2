import { interval, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { StrategyError } from '../core/errors.ts';
import type { FillEvent, OrderEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { TokenId } from '../core/types.ts';
import type { MarketCache, MarketChange, TokenState } from '../data/market-cache.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { MarketSnapshot, StrategyContext } from '../strategy/api.ts';
import { StrategyRunner } from '../strategy/strategy-runner.ts';
import type { EngineListener } from './engine-desk.ts';
import type { EngineLogger, EngineStrategy } from './ports.ts';

export interface StrategyHostOptions {
  readonly clock: Clock;
  readonly log: EngineLogger;
  readonly cache: MarketCache;
  readonly tracker: OrderTracker;
  readonly portfolio: Portfolio;
  /** Where a strategy's intents go. */
  readonly onIntents: (strategyId: string, intents: readonly OrderIntent[]) => void;
  /** Called once when a strategy faults (it has already been stopped). */
  readonly onFault: (strategyId: string, err: StrategyError) => void;
  /** A strategy's hook that throws is reported and the strategy runs on (backtest `keepGoing`); default: it is stopped. */
  readonly keepGoing?: boolean;
}

/**
 * Hosts the strategies: one guarded runner each, a frozen context over the engine's state, and
 * frozen market snapshots built once per change and shared by every strategy of the token. Order
 * events and fills reach the strategy that owns the order; timers run on the clock.
 */
export class StrategyHost implements EngineListener {
  readonly #opts: StrategyHostOptions;
  readonly #runners = new Map<string, StrategyRunner>();
  readonly #byToken = new Map<TokenId, StrategyRunner[]>();

  constructor(options: StrategyHostOptions) {
    this.#opts = options;
  }

  add(spec: EngineStrategy): void {
    const { cache, tracker, portfolio, clock } = this.#opts;
    const ctx: StrategyContext = Object.freeze({
      strategyId: spec.id,
      params: spec.params,
      clock,
      log: this.#opts.log.child({ strategy: spec.id }),
      tokenIds: Object.freeze([...spec.tokenIds]),
      market: (tokenId: TokenId) => {
        const state = cache.get(tokenId);
        return state ? this.snapshot(state) : undefined;
      },
      markets: () => spec.tokenIds.map((id) => cache.get(id)).filter((s): s is TokenState => !!s).map((s) => this.snapshot(s)),
      openOrders: (tokenId?: TokenId) => tracker.open({ strategyId: spec.id, tokenId }).map((r) => tracker.snapshot(r)),
      position: (tokenId: TokenId) => Object.freeze(portfolio.position(tokenId)),
      positions: () => Object.freeze(portfolio.positions().map((p) => Object.freeze(p))),
      balance: () => this.freeBalance(),
    });
    const runner = new StrategyRunner(spec.id, spec.definition, ctx, this.#opts.onIntents, this.#opts.onFault, this.#opts.keepGoing);
    this.#runners.set(spec.id, runner);
    for (const tokenId of spec.tokenIds) {
      const list = this.#byToken.get(tokenId) ?? [];
      list.push(runner);
      this.#byToken.set(tokenId, list);
    }
  }

  has(strategyId: string): boolean {
    return this.#runners.has(strategyId);
  }

  state(strategyId: string): string | undefined {
    return this.#runners.get(strategyId)?.state;
  }

  /** Every strategy's state by id. */
  states(): Record<string, string> {
    return Object.fromEntries([...this.#runners].map(([id, r]) => [id, r.state]));
  }

  /** Starts every strategy and its timer (on the clock; the timers end with `subs`). */
  start(subs: Subscription): void {
    const clock = this.#opts.clock;
    for (const runner of this.#runners.values()) {
      runner.start();
      const every = runner.definition.timerIntervalMs;
      if (every) subs.add(interval(every, clock.scheduler).subscribe(() => runner.timer(clock.now())));
    }
  }

  /** Stops every strategy (their onStop intents still go out). */
  stop(): void {
    for (const runner of this.#runners.values()) runner.stop();
  }

  /** Hands the market changes of one event to the strategies of each token. */
  dispatch(changes: readonly MarketChange[]): void {
    for (const change of changes) {
      const runners = this.#byToken.get(change.state.token.tokenId);
      if (!runners) continue;
      if (change.kind === 'book' && change.state.book) {
        const snapshot = this.snapshot(change.state);
        for (const runner of runners) runner.book(snapshot, change.state.book);
      } else if (change.kind === 'prices' && change.state.prices) {
        const snapshot = this.snapshot(change.state);
        for (const runner of runners) runner.prices(snapshot, change.state.prices);
      }
    }
  }

  orderEvent(strategyId: string, event: OrderEvent): void {
    this.#runners.get(strategyId)?.orderEvent(event);
  }

  fill(strategyId: string, fill: FillEvent): void {
    this.#runners.get(strategyId)?.fill(fill);
  }

  /** A frozen view of one token's market for the strategies. */
  snapshot(state: TokenState): MarketSnapshot {
    const book = state.book;
    const bestBid = book?.bids[0]?.price;
    const bestAsk = book?.asks[0]?.price;
    const now = this.#opts.clock.now();
    return Object.freeze({
      tokenId: state.token.tokenId,
      conditionId: state.token.conditionId,
      outcome: state.token.outcome,
      outcomeIndex: state.token.outcomeIndex,
      complementTokenId: state.token.complementTokenId,
      question: state.token.question,
      rules: state.rules,
      book,
      prices: state.prices,
      bestBid,
      bestAsk,
      mid: bestBid !== undefined && bestAsk !== undefined ? Math.round((bestBid + bestAsk) / 2) : undefined,
      ageMs: book && state.bookSeenAt !== undefined ? Math.max(0, now - state.bookSeenAt) : Infinity,
    });
  }

  /** Balance less what our open buys hold. */
  freeBalance(): Micros {
    const { tracker, portfolio } = this.#opts;
    let reserved = 0;
    for (const r of tracker.open()) {
      if (r.request.side === 'BUY') reserved += notional(r.request.price, tracker.remaining(r));
    }
    return portfolio.balance() - reserved;
  }
}
