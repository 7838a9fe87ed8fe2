import { interval, type Subscription } from 'rxjs';
import type { BasketEvent } from '../core/basket-events.ts';
import type { Clock } from '../core/clock.ts';
import { bestAsk, bestBid, midPrice } from '../core/book.ts';
import type { StrategyError } from '../core/errors.ts';
import { lifecycleTokens, type FillEvent, type LifecycleEvent, type OrderEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { EventInfo, TokenId, WalletTrade } from '../core/types.ts';
import type { MarketCache, MarketChange, TokenState } from '../data/market-cache.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { Portfolio, PositionView } from '../portfolio/portfolio.ts';
import { freeBalance, reservedByOpenBuys } from '../portfolio/free-balance.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { AccountSnapshot, EventSnapshot, MarketSnapshot, RewardsSnapshot, StrategyContext } from '../strategy/api.ts';
import { StrategyRunner } from '../strategy/strategy-runner.ts';
import { EarlyWalletTrades } from './early-wallet-trades.ts';
import type { EngineListener } from './engine-desk.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import type { MetricLabels, MetricsSink } from '../core/metrics.ts';
import type { EngineLogger, EngineStrategy } from './ports.ts';

export interface StrategyHostOptions {
  readonly clock: Clock;
  readonly log: EngineLogger;
  readonly cache: MarketCache;
  readonly tracker: OrderTracker;
  readonly portfolio: Portfolio;
  /**
   * Each strategy's own positions: what `ctx.position()` gives a module of API version 3 (v1 and
   * v2 modules, and every module without a ledger, get the run's portfolio).
   */
  readonly ledger?: StrategyLedger;
  /** A token's mark, for `ctx.account()` (unmarked: positions at cost). */
  readonly mark?: (tokenId: TokenId) => Micros | undefined;
  /** Where `ctx.metric` writes (the run's metrics); default: nowhere. */
  readonly metrics?: MetricsSink;
  /** `ctx.rewards()`: the strategy's running reward estimate (the engine's RewardAccrual). */
  readonly rewards?: (strategyId: string) => RewardsSnapshot;
  /** Where a strategy's intents go. */
  readonly onIntents: (strategyId: string, intents: readonly OrderIntent[]) => void;
  /** Called once when a strategy faults (it has already been stopped). */
  readonly onFault: (strategyId: string, err: StrategyError) => void;
  /** A strategy's hook that throws is reported and the strategy runs on (backtest `keepGoing`); default: it is stopped. */
  readonly keepGoing?: boolean;
}

/** `ctx.rewards()` of a host without an accrual. */
const NO_REWARDS: RewardsSnapshot = Object.freeze({ sampleMs: 0, samples: 0, total: 0, markets: Object.freeze([]) });

/** A strategy's own figure's name (`ctx.metric`). */
const METRIC_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * Hosts the strategies: one guarded runner each, a frozen context over the engine's state, and
 * frozen market snapshots built once per change and shared by every strategy of the token. Order
 * events and fills reach the strategy that owns the order; timers run on the clock.
 */
export class StrategyHost implements EngineListener {
  readonly #opts: StrategyHostOptions;
  readonly #runners = new Map<string, StrategyRunner>();
  readonly #byToken = new Map<TokenId, StrategyRunner[]>();
  /** Each strategy's current tokens (what its `ctx.tokenIds` returns). */
  readonly #tokens = new Map<string, { tokenIds: readonly TokenId[] }>();
  /** Each strategy's params (what its `ctx.params` returns; replaced by an update). */
  readonly #params = new Map<string, { value: unknown }>();
  /** The tick size each token had at its last change, to tell strategies when it moves. */
  readonly #ticks = new Map<TokenId, Micros>();
  /** Wallet trades heard before the strategies started (early-wallet-trades.ts). */
  readonly #early = new EarlyWalletTrades();

  constructor(options: StrategyHostOptions) {
    this.#opts = options;
  }

  add(spec: EngineStrategy): void {
    const { cache, tracker, portfolio, clock, ledger } = this.#opts;
    // the strategy's tokens, replaced (never mutated) when markets join or leave the run
    const held = { tokenIds: Object.freeze([...spec.tokenIds]) };
    this.#tokens.set(spec.id, held);
    const params = { value: spec.params };
    this.#params.set(spec.id, params);
    // API version 3 sees its own positions; v1 and v2 modules the run's, as they always did
    const own = ledger !== undefined && spec.definition.apiVersion >= 3;
    const position = own ? (tokenId: TokenId) => ledger.position(spec.id, tokenId) : (tokenId: TokenId) => portfolio.position(tokenId);
    const positions = own ? () => ledger.positions(spec.id) : () => portfolio.positions();
    const ctx: StrategyContext = Object.freeze({
      strategyId: spec.id,
      get params() {
        return params.value;
      },
      clock,
      log: this.#opts.log.child({ strategy: spec.id }),
      get tokenIds() {
        return held.tokenIds;
      },
      market: (tokenId: TokenId) => {
        const state = cache.get(tokenId);
        return state ? this.snapshot(state) : undefined;
      },
      markets: () => held.tokenIds.map((id) => cache.get(id)).filter((s): s is TokenState => !!s).map((s) => this.snapshot(s)),
      openOrders: (tokenId?: TokenId) => tracker.open({ strategyId: spec.id, tokenId }).map((r) => tracker.snapshot(r)),
      position: (tokenId: TokenId) => Object.freeze(position(tokenId)),
      positions: () => frozenPositions(positions()),
      balance: () => this.freeBalance(),
      account: () => this.account(),
      order: (refOrClientOrderId: string) => {
        const record = tracker.byRef(spec.id, refOrClientOrderId);
        return record === undefined ? undefined : tracker.snapshot(record);
      },
      metric: (name: string, value: number) => this.#metric(spec.id, name, value),
      event: (eventId: string) => this.event(eventId),
      events: () => this.#eventsOf(held.tokenIds),
      rewards: () => this.#opts.rewards?.(spec.id) ?? NO_REWARDS,
    });
    const runner = new StrategyRunner(spec.id, spec.definition, ctx, this.#opts.onIntents, this.#opts.onFault, this.#opts.keepGoing);
    this.#runners.set(spec.id, runner);
    for (const tokenId of spec.tokenIds) {
      const list = this.#byToken.get(tokenId) ?? [];
      list.push(runner);
      this.#byToken.set(tokenId, list);
    }
  }

  /** The labels of each (strategy, name) figure, made once (the sink keys series by labels object). */
  readonly #metricLabels = new Map<string, MetricLabels>();

  #metric(strategyId: string, name: string, value: number): void {
    if (typeof name !== 'string' || !METRIC_NAME.test(name)) throw new TypeError(`ctx.metric: name ${JSON.stringify(name)} must be 1 to 64 letters, digits, _, . or -, starting with a letter`);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`ctx.metric ${name}: value must be a finite number, was ${String(value)}`);
    const key = `${strategyId}\u0000${name}`;
    let labels = this.#metricLabels.get(key);
    if (labels === undefined) this.#metricLabels.set(key, (labels = Object.freeze({ strategy: strategyId, name })));
    this.#opts.metrics?.set(ENGINE_METRICS.strategyValue, value, labels);
  }

  /**
   * A strategy's tokens change while the run goes on (markets added to or removed from its
   * selection): `ctx.tokenIds` and `ctx.markets()` show the new set, and the token's market
   * events reach the strategy from now on, or no longer.
   */
  changeTokens(strategyId: string, added: readonly TokenId[], removed: readonly TokenId[]): void {
    const runner = this.#runners.get(strategyId);
    const held = this.#tokens.get(strategyId);
    if (runner === undefined || held === undefined) return;
    const gone = new Set(removed);
    const next = held.tokenIds.filter((id) => !gone.has(id));
    for (const id of added) if (!next.includes(id)) next.push(id);
    held.tokenIds = Object.freeze(next);
    for (const id of removed) {
      const list = this.#byToken.get(id)?.filter((r) => r !== runner);
      if (list === undefined || list.length === 0) this.#byToken.delete(id);
      else this.#byToken.set(id, list);
    }
    for (const id of added) {
      const list = this.#byToken.get(id) ?? [];
      if (!list.includes(runner)) list.push(runner);
      this.#byToken.set(id, list);
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

  /** Stops one strategy (its onStop intents still go out); false when it was not running. */
  stopOne(strategyId: string): boolean {
    const runner = this.#runners.get(strategyId);
    if (runner === undefined || !runner.running) return false;
    runner.stop();
    return true;
  }

  /** Starts a stopped or faulted strategy again (fresh state); false when it is running or unknown. */
  restart(strategyId: string): boolean {
    return this.#runners.get(strategyId)?.restart() ?? false;
  }

  /** Tells one strategy of a lifecycle event (a strategy started again while the run is halted hears Halted). */
  tellOne(strategyId: string, event: LifecycleEvent): void {
    this.#runners.get(strategyId)?.lifecycle(Object.freeze(event));
  }

  /** The definition a strategy runs (undefined when unknown). */
  definition(strategyId: string): EngineStrategy['definition'] | undefined {
    return this.#runners.get(strategyId)?.definition;
  }

  /** A strategy's params now. */
  params(strategyId: string): unknown {
    return this.#params.get(strategyId)?.value;
  }

  /** Replaces a strategy's params: `ctx.params` returns them from now on (the engine then tells it, ParamsUpdated). */
  setParams(strategyId: string, value: unknown): void {
    const held = this.#params.get(strategyId);
    if (held !== undefined) held.value = value;
  }

  /** Hands the market changes of one event to the strategies of each token. */
  dispatch(changes: readonly MarketChange[]): void {
    for (const change of changes) {
      const tokenId = change.state.token.tokenId;
      const runners = this.#byToken.get(tokenId);
      if (!runners) continue;
      const tickSize = change.state.rules.tickSize;
      const previousTickSize = this.#ticks.get(tokenId);
      if (previousTickSize !== tickSize) {
        this.#ticks.set(tokenId, tickSize);
        if (previousTickSize !== undefined) {
          const event = Object.freeze({ type: 'TickSizeChanged' as const, tokenId, previousTickSize, tickSize, tsInit: this.#opts.clock.now() });
          for (const runner of runners) runner.lifecycle(event);
        }
      }
      if (change.kind === 'book' && change.state.book) {
        const snapshot = this.snapshot(change.state);
        for (const runner of runners) runner.book(snapshot, change.state.book);
      } else if (change.kind === 'prices' && change.state.prices) {
        const snapshot = this.snapshot(change.state);
        for (const runner of runners) runner.prices(snapshot, change.state.prices);
      } else if (change.kind === 'trade' && change.state.lastTrade) {
        const snapshot = this.snapshot(change.state);
        for (const runner of runners) runner.trade(snapshot, change.state.lastTrade);
      }
    }
  }

  /**
   * A trade of a followed wallet: every strategy hears it (frozen once, shared). Before the
   * strategies started it is held (early-wallet-trades.ts) until `deliverEarlyWalletTrades`.
   */
  walletTrade(trade: WalletTrade): void {
    const frozen = Object.freeze(trade);
    if (this.#early.hold(frozen)) return;
    for (const runner of this.#runners.values()) runner.walletTrade(frozen);
  }

  /** After the start (and the known books): the wallet trades heard before it, oldest first; from then on each as it comes. */
  deliverEarlyWalletTrades(): void {
    for (const trade of this.#early.release(this.#opts.log)) this.walletTrade(trade);
  }

  orderEvent(strategyId: string, event: OrderEvent): void {
    this.#runners.get(strategyId)?.orderEvent(event);
  }

  fill(strategyId: string, fill: FillEvent): void {
    this.#runners.get(strategyId)?.fill(fill);
  }

  /** What became of one of the strategy's baskets (frozen by the basket executor). */
  basket(strategyId: string, event: BasketEvent): void {
    this.#runners.get(strategyId)?.basket(event);
  }

  /**
   * Tells strategies what happened to a market or a fill: a settlement change to the strategy
   * that owns the order, a market event to the strategies trading one of its tokens (every
   * strategy for a market added to the run).
   */
  lifecycle(event: LifecycleEvent): void {
    const frozen = Object.freeze(event);
    if (frozen.type === 'SettlementChanged') {
      const owner = this.#opts.tracker.byClientId(frozen.clientOrderId)?.request.strategyId;
      if (owner !== undefined) this.#runners.get(owner)?.lifecycle(frozen);
      return;
    }
    if (frozen.type === 'ParamsUpdated') {
      this.#runners.get(frozen.strategyId)?.lifecycle(frozen);
      return;
    }
    if (frozen.type === 'TickSizeChanged') this.#ticks.set(frozen.tokenId, frozen.tickSize);
    const tokens = lifecycleTokens(frozen);
    if (tokens.length === 0) {
      for (const runner of this.#runners.values()) runner.lifecycle(frozen);
      return;
    }
    const told = new Set<StrategyRunner>();
    for (const tokenId of tokens) {
      for (const runner of this.#byToken.get(tokenId) ?? []) {
        if (told.has(runner)) continue;
        told.add(runner);
        runner.lifecycle(frozen);
      }
    }
  }

  /**
   * An event with a snapshot of each of its tracked tokens, in the order of the event's markets
   * (YES before NO); undefined when no tracked token belongs to it.
   */
  event(eventId: string): EventSnapshot | undefined {
    const cache = this.#opts.cache;
    const event = cache.event(eventId);
    if (event === undefined) return undefined;
    const order = new Map(event.marketConditionIds.map((c, i) => [c.toLowerCase(), i]));
    const rank = (s: TokenState): number => (order.get(s.token.conditionId.toLowerCase()) ?? order.size) * 2 + s.token.outcomeIndex;
    const states = cache
      .eventTokens(eventId)
      .map((id) => cache.get(id))
      .filter((s): s is TokenState => s !== undefined);
    // a stable sort: markets the event does not list (a stale listing) keep their tracked order, last
    states.sort((a, b) => rank(a) - rank(b));
    return Object.freeze({ event, markets: Object.freeze(states.map((s) => this.snapshot(s))) });
  }

  /** The events of some tokens, each once, in token order. */
  #eventsOf(tokenIds: readonly TokenId[]): readonly EventInfo[] {
    const out = new Map<string, EventInfo>();
    for (const id of tokenIds) {
      const event = this.#opts.cache.get(id)?.token.event;
      if (event !== undefined && !out.has(event.id)) out.set(event.id, this.#opts.cache.event(event.id) ?? event);
    }
    return Object.freeze([...out.values()]);
  }

  /** A frozen view of one token's market for the strategies. */
  snapshot(state: TokenState): MarketSnapshot {
    const book = state.book;
    const bid = bestBid(book);
    const ask = bestAsk(book);
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
      bestBid: bid,
      bestAsk: ask,
      mid: midPrice(bid, ask),
      ageMs: book && state.bookSeenAt !== undefined ? Math.max(0, now - state.bookSeenAt) : Infinity,
      // always both keys (undefined when unknown): one object shape for every snapshot
      event: state.token.event,
      lastTrade: state.lastTrade,
    });
  }

  /** Balance less what our open buys hold. */
  freeBalance(): Micros {
    return freeBalance(this.#opts.portfolio.balance(), this.#opts.tracker.open());
  }

  /** The run's account, as `ctx.account()` gives it. */
  account(): AccountSnapshot {
    const { portfolio, mark } = this.#opts;
    const totals = portfolio.totals(mark ?? noMark);
    const reserved = reservedByOpenBuys(this.#opts.tracker.open());
    return Object.freeze({
      cash: totals.cash,
      reserved,
      free: totals.cash - reserved,
      positionValue: totals.positionValue,
      equity: totals.cash + totals.positionValue,
      realizedPnl: totals.realizedPnl,
      unrealizedPnl: totals.unrealizedPnl,
      fees: totals.fees,
      positions: frozenPositions(portfolio.positions()),
    });
  }
}

const noMark = (): undefined => undefined;

function frozenPositions(list: readonly PositionView[]): readonly PositionView[] {
  return Object.freeze(list.map((p) => Object.freeze(p)));
}
