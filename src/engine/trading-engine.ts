import { Subject, Subscription, Observable, interval, merge, mergeMap, EMPTY, catchError, defer, timer, of, from, concatMap, tap, finalize, race, take } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { ClobotError, isOutcomeUnknown, RateLimitError, StrategyError, VenueRejectError } from '../core/errors.ts';
import { MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import { MarketCache, type TokenState, type TrackedToken } from '../data/market-cache.ts';
import { batchWithin } from '../execution/batcher.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import type { ExecutionClient, PreparedOrder, SubmitResult, VenueFill, VenueOrderState } from '../execution/execution-client.ts';
import { HeartbeatSupervisor, type HeartbeatHealth } from '../execution/heartbeat.ts';
import { OrderTracker, OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import { diffQuotes } from '../execution/quote-diff.ts';
import { Portfolio } from '../portfolio/portfolio.ts';
import { RiskEngine } from '../risk/risk-engine.ts';
import type { CheckName, RiskLimits, RiskMarketView, RiskOpenOrder, RiskState } from '../risk/types.ts';
import { LazyMap } from '../core/lazy-map.ts';
import type { FillEvent, OrderEvent } from '../core/events.ts';
import type { MarketSnapshot, StrategyContext, StrategyDefinition, StrategyLogger } from '../strategy/api.ts';
import type { OrderIntent, OrderRequest, PlaceIntent } from '../core/intents.ts';
import { StrategyRunner } from '../strategy/strategy-runner.ts';
import { EngineCounters, type EngineSummary } from './engine-summary.ts';

export interface EngineLogger extends StrategyLogger {
  child(bindings: Record<string, unknown>): EngineLogger;
}

export interface EngineStrategy {
  readonly id: string;
  readonly definition: StrategyDefinition;
  readonly params: unknown;
  readonly tokenIds: readonly TokenId[];
}

export interface EngineExecutionSettings {
  readonly maxBatchWaitMs: number;
  readonly maxBatchSize: number;
  /** Quote-target tolerance: price in ticks of the token, size as a share of the wanted size. */
  readonly quoteTolerance: { readonly priceTicks: number; readonly sizeShare: number };
  /** Wait before looking up the orders of an outcome-unknown post. */
  readonly reconcileDelayMs: number;
  /** How often open orders are compared with the venue's (orphans are cancelled). 0 = never. */
  readonly syncIntervalMs: number;
  readonly maxInFlightBatches: number;
  /**
   * How long a finished order stays in memory (late fills of it are still booked), ms; older ones
   * are dropped so a long run does not grow without bound. The store keeps them all. Default 1 h.
   */
  readonly closedOrderRetentionMs?: number;
}

const NO_TIMES: readonly number[] = Object.freeze([]);

/** Default of EngineExecutionSettings.closedOrderRetentionMs. */
export const DEFAULT_CLOSED_ORDER_RETENTION_MS = 3_600_000;

export interface EngineOptions {
  readonly clock: Clock;
  readonly execution: ExecutionClient;
  readonly marketEvents$: Observable<MarketEvent>;
  readonly tokens: readonly TrackedToken[];
  readonly strategies: readonly EngineStrategy[];
  readonly risk: { readonly checks?: readonly CheckName[]; readonly limits: RiskLimits };
  readonly settings: EngineExecutionSettings;
  readonly heartbeat?: { readonly intervalMs: number; readonly initialId?: string };
  readonly startingBalance: Micros;
  /** Prefix of client order ids (unique per run). 8 hex characters. */
  readonly runId: string;
  readonly log: EngineLogger;
  /** Journal hook: every engine event (orders, fills, denials), for persistence. */
  readonly onEvent?: (event: EngineEvent) => void;
  /** Returns HTTP 429 count from the venue edge, for the summary. */
  readonly http429?: () => number;
  /** Durable state (the run store); absent: nothing survives the process. */
  readonly persistence?: EnginePersistence;
  /** State of a previous life of this run, to resume from. */
  readonly restore?: EngineRestore;
  /** What to do at start with restored orders still open at the venue. Default 'cancel'. */
  readonly orphans?: 'cancel' | 'adopt';
}

/**
 * What the engine needs from a store. Orders are written when created and on every change,
 * with their hash before they are posted; each tick's writes share one transaction.
 */
export interface EnginePersistence {
  /** Next client order id sequence number, durably reserved (never handed out twice). */
  nextClientSeq(): number;
  transaction<T>(fn: () => T): T;
  /**
   * Calls back once what was written so far is committed (`false`: it rolled back). Order posts
   * wait for it, so an order's hash is durable before the order leaves. Absent: at once.
   */
  afterCommit?(callback: (committed: boolean) => void): void;
  orderCreated(record: OrderRecord, at: number): void;
  orderChanged(record: OrderRecord, at: number, reason?: string): void;
  fill(fill: FillEvent): void;
  heartbeatId(id: string, at: number): void;
  journal(event: EngineEvent): void;
  /**
   * A market event that changed the cache, before the strategies see it (in the same per-tick
   * transaction as what it causes): the store journals it so the run can be replayed offline.
   */
  marketEvent?(event: MarketEvent): void;
}

export interface EngineRestore {
  readonly orders: readonly { readonly request: OrderRequest; readonly orderId: string | undefined; readonly status: string; readonly filled: Micros; readonly updatedAt: number }[];
  readonly fills: readonly FillEvent[];
  readonly heartbeatId?: string;
}

export type EngineEvent =
  | { readonly type: 'order'; readonly strategyId: string; readonly event: OrderEvent }
  | { readonly type: 'fill'; readonly strategyId: string; readonly fill: FillEvent }
  | { readonly type: 'heartbeat'; readonly health: HeartbeatHealth; readonly at: number }
  | { readonly type: 'fault'; readonly strategyId: string; readonly message: string; readonly at: number };

/** Longest wait in `stop()` for order posts still in flight to be answered, ms (clock time). */
export const DEFAULT_DRAIN_MS = 10_000;

/** How often a throttled (429) or paused (503) batch is posted before its orders count as rejected. */
export const MAX_SUBMIT_ATTEMPTS = 6;

/** Retry-After of a definite, retryable refusal (429, 503), else undefined. */
function retryableRefusal(err: unknown): number | undefined {
  if (err instanceof RateLimitError) return Math.max(100, err.retryAfterMs ?? 1_000);
  if (err instanceof VenueRejectError && (err.status === 429 || err.status === 503)) return Math.max(100, err.retryAfterMs ?? 1_000);
  return undefined;
}

const DEFAULT_SETTINGS: EngineExecutionSettings = {
  maxBatchWaitMs: 20,
  maxBatchSize: MAX_ORDERS_PER_BATCH,
  quoteTolerance: { priceTicks: 0, sizeShare: 0.25 },
  reconcileDelayMs: 1_000,
  syncIntervalMs: 15_000,
  maxInFlightBatches: 4,
};

/**
 * The core, the same in every mode: market events in, strategies called, intents checked by
 * risk, orders batched and handed to the execution edge, results and fills fed back to the
 * strategies and the portfolio. Every timer runs on the injected clock.
 */
export class TradingEngine {
  readonly cache = new MarketCache();
  readonly tracker = new OrderTracker();
  readonly portfolio: Portfolio;
  readonly risk: RiskEngine;
  /** Whether a check reads the recent order times (the order-rate check with a limit). */
  readonly #ratesChecked: boolean;
  readonly counters = new EngineCounters();
  readonly heartbeat: HeartbeatSupervisor | undefined;
  readonly #opts: EngineOptions;
  readonly #settings: EngineExecutionSettings;
  readonly #runners = new Map<string, StrategyRunner>();
  readonly #tokenToStrategies = new Map<TokenId, StrategyRunner[]>();
  readonly #orders$ = new Subject<OrderRecord>();
  /** Whole batches that skip the batcher's timer (maxBatchWaitMs 0: one strategy call, one post). */
  readonly #batches$ = new Subject<OrderRecord[]>();
  readonly #cancels$ = new Subject<OrderRecord>();
  readonly #subs = new Subscription();
  readonly #recentOrderTimes: number[] = [];
  /** Trades booked, by order id then trade id (dropped with the order, see closedOrderRetentionMs). */
  readonly #seenTrades = new Map<string, Map<string, { confirmed: boolean }>>();
  /** Markets (condition ids) with outcome-unknown orders under reconciliation. */
  readonly #reconciling = new Map<string, number>();
  #consecutiveRejects = 0;
  #seq = 0;
  #manualHalt: string | undefined;
  #dayStart: { day: number; pnl: Micros } | undefined;
  #stopped = false;
  #inFlight = 0;
  /** Emits when the last in-flight order batch is answered. */
  readonly #settled$ = new Subject<void>();

  constructor(options: EngineOptions) {
    this.#opts = options;
    this.#settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.portfolio = new Portfolio(options.startingBalance);
    this.risk = new RiskEngine({ checks: options.risk.checks, limits: options.risk.limits });
    this.#ratesChecked = this.risk.checkOrder.includes('orderRate') && this.risk.limits.maxOrdersPerSecond !== undefined;
    for (const token of options.tokens) this.cache.track(token);
    if (options.heartbeat && options.execution.heartbeat) {
      const exec = options.execution;
      const persistence = options.persistence;
      this.heartbeat = new HeartbeatSupervisor({
        clock: options.clock,
        beat: (prev) => exec.heartbeat!(prev),
        intervalMs: options.heartbeat.intervalMs,
        initialId: options.heartbeat.initialId ?? options.restore?.heartbeatId,
        onAck: persistence ? (id, at) => persistence.heartbeatId(id, at) : undefined,
      });
    }
    if (options.restore) this.#restore(options.restore);
    const persistence = options.persistence;
    if (persistence) {
      this.tracker.listen({
        created: (record, at) => persistence.orderCreated(record, at),
        changed: (record, at, reason) => persistence.orderChanged(record, at, reason),
      });
    }
    for (const s of options.strategies) this.#addStrategy(s);
  }

  get clock(): Clock {
    return this.#opts.clock;
  }

  strategyState(id: string): string | undefined {
    return this.#runners.get(id)?.state;
  }

  /** Starts every stream and strategy. Market events flow from now on. */
  start(): void {
    const { clock, execution } = this.#opts;
    const scheduler = clock.scheduler;
    // order path: batch on the clock, prepare (hash/sign), submit, apply per-item results
    this.#subs.add(
      merge(this.#orders$.pipe(batchWithin(this.#settings.maxBatchWaitMs, this.#batchSize(), scheduler)), this.#batches$)
        .pipe(mergeMap((batch) => this.#submitBatch(batch), this.#settings.maxInFlightBatches))
        .subscribe(),
    );
    this.#subs.add(
      this.#cancels$
        .pipe(
          batchWithin(this.#settings.maxBatchWaitMs, 100, scheduler),
          mergeMap((batch) => this.#cancelBatch(batch), 2),
        )
        .subscribe(),
    );
    this.#subs.add(execution.fills$.subscribe((fill) => this.#transaction(() => this.#onVenueFill(fill))));
    if (this.#opts.restore) this.#reconcileRestored();
    this.#subs.add(this.#opts.marketEvents$.subscribe({ next: (e) => this.onMarketEvent(e), error: (err: unknown) => this.#opts.log.error('market data failed', { err: String(err) }) }));
    if (this.heartbeat) {
      let previous: HeartbeatHealth = 'idle';
      this.#subs.add(
        this.heartbeat.health$.subscribe((health) => {
          this.#emit({ type: 'heartbeat', health, at: clock.now() });
          if (health === 'lost') this.#onHeartbeatLost();
          if (previous === 'lost' && health === 'healthy') this.#sync('heartbeat recovered');
          if (health !== previous) this.#opts.log.info('heartbeat', { health });
          previous = health;
        }),
      );
      this.heartbeat.start();
    }
    if (this.#settings.syncIntervalMs > 0) {
      this.#subs.add(interval(this.#settings.syncIntervalMs, scheduler).subscribe(() => this.#sync('periodic')));
    }
    for (const runner of this.#runners.values()) {
      runner.start();
      const every = runner.definition.timerIntervalMs;
      if (every) this.#subs.add(interval(every, scheduler).subscribe(() => runner.timer(clock.now())));
    }
  }

  /**
   * Stops strategies (their onStop intents still go out), waits (up to `drainMs` of clock time)
   * for the order batches in flight to be answered, cancels our open orders unless `keepOrders`,
   * then closes the streams. Without the wait, an order the venue takes after the cancel-all
   * would be left resting, and its answer lost.
   */
  async stop(options: { keepOrders?: boolean; drainMs?: number } = {}): Promise<void> {
    if (this.#stopped) return;
    for (const runner of this.#runners.values()) runner.stop();
    this.#stopped = true;
    if (!options.keepOrders) {
      // orders not answered yet are cancelled once the venue acknowledges them; orders waiting
      // to be posted again (after a 429) are not posted again
      for (const record of this.tracker.open()) record.cancelWhenLive = true;
    }
    // one chain on the clock (no promise hop between the drain and the cancel-all, so a
    // simulated clock advanced by the caller runs both)
    await new Promise<void>((resolve) => {
      this.#drain$(options.drainMs ?? DEFAULT_DRAIN_MS)
        .pipe(
          concatMap(() => (options.keepOrders ? of(undefined) : this.#cancelEverything$())),
          // a last look at our fills: one in the moments before the cancel-all is booked too
          concatMap(() => this.#flushFills$()),
        )
        .subscribe({ complete: () => resolve(), error: () => resolve() });
    });
    this.heartbeat?.stop();
    this.#subs.unsubscribe();
    this.#orders$.complete();
    this.#batches$.complete();
    this.#cancels$.complete();
    // orders still waiting in the batcher (never prepared, so never sent) will not go out now
    const now = this.#opts.clock.now();
    for (const record of this.tracker.open()) {
      if (record.status !== 'PENDING_SUBMIT' || record.orderId !== undefined) continue;
      this.tracker.transition(record, 'CANCELED', now, 'not sent: the engine stopped');
      this.#emitOrderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: undefined, reason: 'not sent: the engine stopped', tsInit: now });
    }
  }

  /** Halts new orders (kill switch) until `resume()`. */
  halt(reason: string): void {
    this.#manualHalt = reason;
    this.#opts.log.warn('trading halted', { reason });
  }

  resume(): void {
    this.#manualHalt = undefined;
  }

  get halted(): string | undefined {
    return this.#manualHalt;
  }

  onMarketEvent(event: MarketEvent): void {
    this.#transaction(() => this.#onMarketEvent(event));
  }

  #onMarketEvent(event: MarketEvent): void {
    const changes = this.cache.apply(event);
    if (changes.length > 0) this.#opts.persistence?.marketEvent?.(event);
    for (const change of changes) {
      const runners = this.#tokenToStrategies.get(change.state.token.tokenId);
      if (!runners) continue;
      if (change.kind === 'book' && change.state.book) {
        const snapshot = this.#marketSnapshot(change.state);
        for (const runner of runners) runner.book(snapshot, change.state.book);
      } else if (change.kind === 'prices' && change.state.prices) {
        const snapshot = this.#marketSnapshot(change.state);
        for (const runner of runners) runner.prices(snapshot, change.state.prices);
      }
    }
  }

  summary(): EngineSummary {
    const totals = this.portfolio.totals((tokenId) => this.#mark(tokenId));
    return this.counters.summary({
      totals,
      deniedByCode: this.risk.counts(),
      http429: this.#opts.http429?.() ?? 0,
      heartbeats: this.heartbeat ? { ...this.heartbeat.stats } : { sent: 0, acknowledged: 0, missed: 0 },
      openOrders: this.tracker.open().length,
      strategies: Object.fromEntries([...this.#runners].map(([id, r]) => [id, r.state])),
    });
  }

  // ---------------------------------------------------------------- strategies

  #addStrategy(spec: EngineStrategy): void {
    const engine = this;
    const log = this.#opts.log.child({ strategy: spec.id });
    const ctx: StrategyContext = Object.freeze({
      strategyId: spec.id,
      params: spec.params,
      clock: this.#opts.clock,
      log,
      tokenIds: Object.freeze([...spec.tokenIds]),
      market(tokenId: TokenId) {
        const state = engine.cache.get(tokenId);
        return state ? engine.#marketSnapshot(state) : undefined;
      },
      markets() {
        return spec.tokenIds.map((id) => engine.cache.get(id)).filter((s): s is TokenState => !!s).map((s) => engine.#marketSnapshot(s));
      },
      openOrders(tokenId?: TokenId) {
        return engine.tracker.open({ strategyId: spec.id, tokenId }).map((r) => engine.tracker.snapshot(r));
      },
      position(tokenId: TokenId) {
        return Object.freeze(engine.portfolio.position(tokenId));
      },
      positions() {
        return Object.freeze(engine.portfolio.positions().map((p) => Object.freeze(p)));
      },
      balance() {
        return engine.#freeBalance();
      },
    });
    const runner = new StrategyRunner(
      spec.id,
      spec.definition,
      ctx,
      (id, intents) => this.handleIntents(id, intents),
      (id, err) => this.#onFault(id, err),
    );
    this.#runners.set(spec.id, runner);
    for (const tokenId of spec.tokenIds) {
      const list = this.#tokenToStrategies.get(tokenId) ?? [];
      list.push(runner);
      this.#tokenToStrategies.set(tokenId, list);
    }
  }

  #onFault(id: string, err: StrategyError): void {
    this.counters.faults++;
    this.#opts.log.error('strategy faulted', { strategy: id, error: err.message });
    this.#emit({ type: 'fault', strategyId: id, message: err.message, at: this.#opts.clock.now() });
    // a faulted strategy's orders are cancelled: nobody is managing them any more
    for (const record of this.tracker.open({ strategyId: id })) this.#requestCancel(record);
  }

  #marketSnapshot(state: TokenState): MarketSnapshot {
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

  // ---------------------------------------------------------------- intents

  /** Entry point of strategy output (public for tests and the RxJS form). */
  handleIntents(strategyId: string, intents: readonly OrderIntent[]): void {
    if (this.#stopped && !this.#runners.get(strategyId)) return;
    const places: PlaceIntent[] = [];
    for (const intent of intents) {
      switch (intent.kind) {
        case 'place':
          places.push(intent);
          break;
        case 'cancel': {
          const record = this.tracker.byClientId(intent.clientOrderId);
          if (record && record.request.strategyId === strategyId) this.#requestCancel(record);
          break;
        }
        case 'cancelAll':
          for (const record of this.tracker.open({ strategyId, conditionId: intent.conditionId, tokenId: intent.tokenId })) {
            this.#requestCancel(record);
          }
          break;
        case 'quote': {
          const state = this.cache.get(intent.tokenId);
          const tick = state?.rules.tickSize ?? 10_000;
          const resting = this.tracker
            .open({ strategyId, tokenId: intent.tokenId })
            .filter((r) => r.status !== 'CANCEL_PENDING' && !r.cancelWhenLive)
            .map((r) => ({ clientOrderId: r.request.clientOrderId, side: r.request.side, price: r.request.price, remaining: this.tracker.remaining(r) }));
          const diff = diffQuotes(intent, resting, {
            priceMicros: this.#settings.quoteTolerance.priceTicks * tick,
            sizeShare: this.#settings.quoteTolerance.sizeShare,
          });
          for (const id of diff.cancel) {
            const record = this.tracker.byClientId(id);
            if (record) this.#requestCancel(record);
          }
          for (const p of diff.place) {
            places.push({ kind: 'place', tokenId: intent.tokenId, side: p.side, price: p.price, size: p.size, orderType: 'GTC', postOnly: true, tag: 'quote' });
          }
          break;
        }
      }
    }
    if (places.length > 0) this.#placeAll(strategyId, places);
  }

  #placeAll(strategyId: string, places: readonly PlaceIntent[]): void {
    const now = this.#opts.clock.now();
    this.#forgetClosed(now);
    const requests: OrderRequest[] = [];
    for (const intent of places) {
      const state = this.cache.get(intent.tokenId);
      // field by field: an object spread with added keys takes V8's slow path (about 4 µs an order)
      requests.push({
        kind: 'place',
        tokenId: intent.tokenId,
        side: intent.side,
        price: intent.price,
        size: intent.size,
        orderType: intent.orderType ?? 'GTC',
        postOnly: intent.postOnly,
        expiresAt: intent.expiresAt,
        tag: intent.tag,
        strategyId,
        clientOrderId: this.#nextClientOrderId(),
        conditionId: state?.token.conditionId ?? '',
        createdAt: now,
      });
    }
    const riskState = this.#riskState(now);
    const verdicts = this.risk.checkBatch(requests, riskState);
    const approved: OrderRecord[] = [];
    requests.forEach((request, i) => {
      const denial = verdicts[i];
      if (denial) {
        this.counters.denied++;
        if (denial.code === 'RECONCILING') this.counters.deniedReconciling++;
        this.#emitOrderEvent(strategyId, { type: 'OrderDenied', clientOrderId: request.clientOrderId, code: denial.code, reason: denial.message, tsInit: now });
        return;
      }
      approved.push(this.tracker.add(request, now));
      this.#recentOrderTimes.push(now);
    });
    if (this.#settings.maxBatchWaitMs <= 0) {
      // no waiting for more: what this call produced goes out now, in posts of at most 15
      const size = this.#batchSize();
      for (let i = 0; i < approved.length; i += size) this.#batches$.next(approved.slice(i, i + size));
    } else {
      for (const record of approved) this.#orders$.next(record);
    }
  }

  /** Drops finished orders older than the retention from memory (with the trades booked on them). */
  #forgetClosed(now: number): void {
    const retention = this.#settings.closedOrderRetentionMs ?? DEFAULT_CLOSED_ORDER_RETENTION_MS;
    for (const record of this.tracker.forget(now - retention)) {
      if (record.orderId !== undefined) this.#seenTrades.delete(record.orderId);
    }
  }

  #tradesOf(orderId: string): Map<string, { confirmed: boolean }> {
    let trades = this.#seenTrades.get(orderId);
    if (trades === undefined) {
      trades = new Map();
      this.#seenTrades.set(orderId, trades);
    }
    return trades;
  }

  #batchSize(): number {
    return Math.max(1, Math.min(this.#settings.maxBatchSize, MAX_ORDERS_PER_BATCH));
  }

  #nextClientOrderId(): string {
    const seq = this.#opts.persistence ? this.#opts.persistence.nextClientSeq() : ++this.#seq;
    return `${this.#opts.runId}${seq.toString(16).padStart(24, '0')}`;
  }

  #transaction<T>(fn: () => T): T {
    const persistence = this.#opts.persistence;
    return persistence ? persistence.transaction(fn) : fn();
  }

  /** Puts back orders and fills of a previous life; open orders are reconciled on start. */
  #restore(restore: EngineRestore): void {
    for (const fill of restore.fills) {
      this.#tradesOf(fill.orderId).set(fill.tradeId, { confirmed: fill.confirmed });
      this.portfolio.applyFill(fill);
    }
    for (const order of restore.orders) {
      this.tracker.restore(order.request, {
        orderId: order.orderId,
        status: order.status as OrderRecord['status'],
        filled: order.filled,
        at: order.updatedAt,
      });
    }
  }

  /**
   * After a restart: every restored order that may still rest is looked up by its hash. Not at
   * the venue: it was never received (or is gone). At the venue and open: adopted or cancelled
   * as configured. Nothing restored is ever posted again.
   */
  #reconcileRestored(): void {
    const { execution, clock } = this.#opts;
    const policy = this.#opts.orphans ?? 'cancel';
    const open = this.tracker.open();
    for (const record of open) {
      if (!record.orderId) {
        this.tracker.transition(record, 'CANCELED', clock.now(), 'never sent before the restart');
        continue;
      }
      const market = record.request.conditionId;
      this.#reconciling.set(market, (this.#reconciling.get(market) ?? 0) + 1);
      this.#subs.add(
        this.#lookupWithRetry(record.orderId, 5)
          .pipe(
            catchError((err: unknown) => {
              this.#opts.log.error('restart reconciliation failed', { orderId: record.orderId, err: String(err) });
              return EMPTY;
            }),
            finalize(() => {
              const left = (this.#reconciling.get(market) ?? 1) - 1;
              if (left <= 0) this.#reconciling.delete(market);
              else this.#reconciling.set(market, left);
            }),
          )
          .subscribe((state) => {
            const now = clock.now();
            if (!state) {
              this.tracker.transition(record, 'REJECTED', now, 'not at the venue after the restart');
              return;
            }
            this.#applyVenueState(record, state);
            if (state.sizeMatched > record.filled) this.tracker.setFilled(record, state.sizeMatched, now);
            if (OPEN_STATUSES.has(record.status)) {
              this.counters.reconciledFound++;
              if (policy === 'cancel') this.#requestCancel(record);
            }
          }),
      );
    }
  }

  /**
   * The snapshot risk checks one batch against. Built for what the checks read, not for every
   * market: market views and positions are computed on first look (a batch on one token costs one
   * view, whatever the number of markets tracked), the day's PnL only when a check asks for it.
   */
  #riskState(now: number): RiskState {
    const cutoff = now - 1_000;
    const times = this.#recentOrderTimes;
    while (times.length > 0 && times[0]! <= cutoff) times.shift();
    const cache = this.cache;
    const portfolio = this.portfolio;
    const markets = new LazyMap<TokenId, RiskMarketView>(
      () => cache.tokenIds(),
      (tokenId) => {
        const state = cache.get(tokenId);
        return state === undefined ? undefined : riskMarketView(state);
      },
    );
    const positions = new LazyMap<TokenId, Micros>(
      () => portfolio.tokenIds(),
      (tokenId) => portfolio.size(tokenId),
    );
    const openOrders: RiskOpenOrder[] = [];
    for (const r of this.tracker.open()) {
      openOrders.push({
        clientOrderId: r.request.clientOrderId,
        strategyId: r.request.strategyId,
        tokenId: r.request.tokenId,
        conditionId: r.request.conditionId,
        side: r.request.side,
        price: r.request.price,
        remaining: r.status === 'CANCEL_PENDING' ? 0 : this.tracker.remaining(r),
      });
    }
    let dailyPnl: Micros | undefined;
    const dayPnl = (): Micros => (dailyPnl ??= this.#dailyPnl(now));
    return {
      now,
      markets,
      openOrders,
      positions,
      // only the order-rate check reads them
      recentOrderTimes: this.#ratesChecked ? times : NO_TIMES,
      consecutiveRejects: this.#consecutiveRejects,
      get dailyPnl() {
        return dayPnl();
      },
      heartbeat: this.heartbeat?.health ?? 'idle',
      manualHalt: this.#manualHalt !== undefined,
      haltReason: this.#manualHalt,
      reconciling: this.#reconciling,
    };
  }

  #dailyPnl(now: number): Micros {
    const totals = this.portfolio.totals((id) => this.#mark(id));
    const pnl = totals.realizedPnl + totals.unrealizedPnl - totals.fees;
    const day = Math.floor(now / 86_400_000);
    if (!this.#dayStart || this.#dayStart.day !== day) this.#dayStart = { day, pnl };
    return pnl - this.#dayStart.pnl;
  }

  #mark(tokenId: TokenId): Micros | undefined {
    const book = this.cache.get(tokenId)?.book;
    const bid = book?.bids[0]?.price;
    const ask = book?.asks[0]?.price;
    if (bid !== undefined && ask !== undefined) return Math.round((bid + ask) / 2);
    return bid ?? ask ?? book?.lastTradePrice;
  }

  #freeBalance(): Micros {
    let reserved = 0;
    for (const r of this.tracker.open()) {
      if (r.request.side === 'BUY') reserved += Math.floor((this.tracker.remaining(r) * r.request.price) / MICROS_PER_UNIT);
    }
    return this.portfolio.balance() - reserved;
  }

  // ---------------------------------------------------------------- orders out

  #submitBatch(batch: readonly OrderRecord[]): Observable<unknown> {
    const { execution, clock } = this.#opts;
    const live = this.#dropCancelled(batch);
    if (live.length === 0) return EMPTY;
    this.#inFlight++;
    return execution.prepare(live.map((r) => r.request)).pipe(
      tap((orders) => {
        // the hash is stored BEFORE the post: a restart finds and reconciles it by that hash
        const at = clock.now();
        this.#transaction(() => orders.forEach((p, i) => this.tracker.setOrderId(live[i]!, p.orderId, at)));
        this.counters.batches++;
      }),
      // the hashes are committed before the post (the tick's transaction may still be open)
      concatMap((orders) => this.#committed().pipe(concatMap(() => this.#send(live, orders, 1)))),
      catchError((err: unknown) => {
        // preparing (building, signing) or storing the hashes failed: nothing left the process
        this.#refuse(live, err);
        return EMPTY;
      }),
      finalize(() => {
        this.#inFlight--;
        if (this.#inFlight === 0) this.#settled$.next();
      }),
    );
  }

  /** Emits once what the engine wrote so far is committed; errors when it was rolled back. */
  #committed(): Observable<void> {
    return new Observable<void>((subscriber) => {
      const persistence = this.#opts.persistence;
      const go = (committed: boolean): void => {
        if (!committed) {
          subscriber.error(new ClobotError('the order hashes were not committed to the store; the orders were not sent'));
          return;
        }
        subscriber.next();
        subscriber.complete();
      };
      if (persistence?.afterCommit) persistence.afterCommit(go);
      else go(true);
    });
  }

  /** Orders cancelled while they waited (in the batcher or for a retry) never leave. */
  #dropCancelled(batch: readonly OrderRecord[]): OrderRecord[] {
    const now = this.#opts.clock.now();
    return batch.filter((r) => {
      if (!r.cancelWhenLive) return true;
      this.tracker.transition(r, 'CANCELED', now, 'cancelled before submission');
      this.#emitOrderEvent(r.request.strategyId, { type: 'OrderCanceled', clientOrderId: r.request.clientOrderId, orderId: undefined, reason: 'cancelled before submission', tsInit: now });
      return false;
    });
  }

  /**
   * Posts prepared orders. A 429 or a 503 (trading paused) is a definite "not taken": the same
   * signed orders (same hashes, so never a duplicate) are posted again after the venue's
   * Retry-After, up to MAX_SUBMIT_ATTEMPTS, so a throttling storm loses no intent.
   */
  #send(records: readonly OrderRecord[], prepared: readonly PreparedOrder[], attempt: number): Observable<unknown> {
    const { execution, clock } = this.#opts;
    if (attempt === 1) this.counters.submitted += prepared.length;
    return execution.submit(prepared).pipe(
      tap((results) => this.#transaction(() => this.#applyResults(records, results))),
      catchError((err: unknown) => {
        const retryAfterMs = retryableRefusal(err);
        if (retryAfterMs !== undefined && attempt < MAX_SUBMIT_ATTEMPTS && !this.#stopped) {
          this.counters.resubmitted += prepared.length;
          this.#opts.log.warn('batch throttled; posting the same orders again', { orders: prepared.length, retryAfterMs, attempt });
          return timer(retryAfterMs, clock.scheduler).pipe(
            concatMap(() => {
              const still = this.#dropCancelled(records);
              if (still.length === 0) return EMPTY;
              const keep = new Set(still);
              return this.#send(still, prepared.filter((_, i) => keep.has(records[i]!)), attempt + 1);
            }),
          );
        }
        this.#onSubmitError(records, prepared, err);
        return EMPTY;
      }),
    );
  }

  #applyResults(records: readonly OrderRecord[], results: readonly SubmitResult[]): void {
    const now = this.#opts.clock.now();
    records.forEach((record, i) => {
      const result = results[i];
      const strategyId = record.request.strategyId;
      if (!result) {
        this.#markUnknown([record], 'no result for this item');
        return;
      }
      if (result.ok) {
        this.counters.accepted++;
        this.#consecutiveRejects = 0;
        if (record.orderId !== result.orderId && result.orderId) this.tracker.setOrderId(record, result.orderId, now);
        // a matched order may already be filled; fills arrive through fills$
        if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN') {
          const next = result.status === 'MATCHED' && record.filled >= record.request.size ? 'FILLED' : record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE';
          this.tracker.transition(record, next, now);
        }
        if ((record.request.orderType === 'FAK' || record.request.orderType === 'FOK') && record.status !== 'FILLED') {
          // FAK/FOK never rest: once the venue has answered, what did not fill is gone (its
          // fills still arrive through fills$ and are booked on this record)
          this.tracker.transition(record, 'CANCELED', now, 'FAK/FOK: unfilled remainder killed at the venue');
        }
        this.#emitOrderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: result.orderId, tsInit: now });
        if (record.cancelWhenLive) this.#requestCancel(record);
      } else {
        this.counters.rejected++;
        this.#consecutiveRejects++;
        this.tracker.transition(record, 'REJECTED', now, result.errorMsg);
        this.#emitOrderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: result.errorMsg, tsInit: now });
      }
    });
  }

  #onSubmitError(records: readonly OrderRecord[], prepared: readonly PreparedOrder[], err: unknown): void {
    if (prepared.length > 0 && isOutcomeUnknown(err)) {
      this.#markUnknown(records, err instanceof Error ? err.message : String(err));
      return;
    }
    this.#refuse(records, err);
  }

  /** The batch was refused as a whole (4xx, 503 or 429 past the retries) or never sent. */
  #refuse(records: readonly OrderRecord[], err: unknown): void {
    const now = this.#opts.clock.now();
    const reason = err instanceof VenueRejectError ? `${err.status} ${err.venueMessage}` : err instanceof RateLimitError ? `429 ${err.message}` : err instanceof Error ? err.message : String(err);
    for (const record of records) {
      this.counters.rejected++;
      this.tracker.transition(record, 'REJECTED', now, reason);
      this.#emitOrderEvent(record.request.strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason, tsInit: now });
    }
    if (!(err instanceof RateLimitError)) this.#consecutiveRejects += records.length;
    this.#opts.log.warn('batch refused', { orders: records.length, reason });
  }

  /**
   * Orders whose post may or may not have reached the venue: SUBMIT_UNKNOWN, their markets closed
   * to new orders, and a lookup by the precomputed hash after a delay. Found: adopted with the
   * venue's state. Not found: the venue never took it (REJECTED); the intent is not re-sent.
   */
  #markUnknown(records: readonly OrderRecord[], reason: string): void {
    const { clock, execution } = this.#opts;
    const now = clock.now();
    for (const record of records) {
      this.counters.submitUnknown++;
      this.tracker.transition(record, 'SUBMIT_UNKNOWN', now, reason);
      const market = record.request.conditionId;
      this.#reconciling.set(market, (this.#reconciling.get(market) ?? 0) + 1);
      this.#emitOrderEvent(record.request.strategyId, { type: 'OrderSubmitUnknown', clientOrderId: record.request.clientOrderId, orderId: record.orderId ?? '', tsInit: now });
    }
    this.#opts.log.warn('order outcome unknown; reconciling by hash', { orders: records.length, reason });
    const lookups = records.map((record) =>
      timer(this.#settings.reconcileDelayMs, clock.scheduler).pipe(
        mergeMap(() => this.#lookupWithRetry(record.orderId!, 5)),
        tap((state) => this.#adoptLookup(record, state)),
        catchError((err: unknown) => {
          this.#opts.log.error('reconciliation failed; order left SUBMIT_UNKNOWN', { orderId: record.orderId, err: String(err) });
          return EMPTY;
        }),
        finalize(() => {
          const market = record.request.conditionId;
          const left = (this.#reconciling.get(market) ?? 1) - 1;
          if (left <= 0) this.#reconciling.delete(market);
          else this.#reconciling.set(market, left);
        }),
      ),
    );
    this.#subs.add(from(lookups).pipe(mergeMap((l) => l, 4)).subscribe());
  }

  #lookupWithRetry(orderId: string, attempts: number): Observable<VenueOrderState | undefined> {
    return defer(() => this.#opts.execution.order(orderId)).pipe(
      catchError((err: unknown) => {
        if (attempts <= 1) throw err;
        return timer(this.#settings.reconcileDelayMs, this.#opts.clock.scheduler).pipe(mergeMap(() => this.#lookupWithRetry(orderId, attempts - 1)));
      }),
    );
  }

  #adoptLookup(record: OrderRecord, state: VenueOrderState | undefined): void {
    const now = this.#opts.clock.now();
    const strategyId = record.request.strategyId;
    if (record.status !== 'SUBMIT_UNKNOWN') return;
    if (!state) {
      this.tracker.transition(record, 'REJECTED', now, 'not found at the venue after an outcome-unknown post');
      this.counters.reconciledMissing++;
      this.#emitOrderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: 'not received by the venue', tsInit: now });
      return;
    }
    this.counters.reconciledFound++;
    this.#applyVenueState(record, state);
    this.#emitOrderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: state.orderId, tsInit: now });
    // a cancel asked for while the outcome was unknown is carried out now that the order is found
    if (record.cancelWhenLive) this.#requestCancel(record);
  }

  #applyVenueState(record: OrderRecord, state: VenueOrderState): void {
    const now = this.#opts.clock.now();
    switch (state.status) {
      case 'LIVE':
      case 'DELAYED':
        this.tracker.transition(record, state.sizeMatched > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, 'venue state');
        break;
      case 'MATCHED':
        this.tracker.transition(record, 'FILLED', now, 'venue state');
        break;
      case 'CANCELED':
      case 'UNMATCHED':
        this.tracker.transition(record, 'CANCELED', now, 'venue state');
        break;
    }
  }

  // ---------------------------------------------------------------- cancels

  #requestCancel(record: OrderRecord): void {
    if (!OPEN_STATUSES.has(record.status) || record.status === 'CANCEL_PENDING') return;
    if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN' || !record.orderId) {
      record.cancelWhenLive = true;
      return;
    }
    this.tracker.transition(record, 'CANCEL_PENDING', this.#opts.clock.now());
    this.#cancels$.next(record);
  }

  #cancelBatch(batch: readonly OrderRecord[]): Observable<unknown> {
    const ids = batch.map((r) => r.orderId!).filter(Boolean);
    return this.#opts.execution.cancel(ids).pipe(
      tap((outcome) => {
        const now = this.#opts.clock.now();
        const canceled = new Set(outcome.canceled);
        for (const record of batch) {
          if (canceled.has(record.orderId!)) {
            this.counters.canceled++;
            this.tracker.transition(record, 'CANCELED', now);
            this.#emitOrderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: 'cancelled', tsInit: now });
          } else {
            // not cancelled: already filled or gone; the sync settles its true state (a record
            // that a fill closed meanwhile stays closed)
            if (record.status === 'CANCEL_PENDING') this.tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, outcome.notCanceled[record.orderId!] ?? 'not cancelled');
          }
        }
      }),
      catchError((err: unknown) => {
        const now = this.#opts.clock.now();
        for (const record of batch) {
          if (record.status === 'CANCEL_PENDING') this.tracker.transition(record, record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE', now, 'cancel failed');
        }
        this.#opts.log.warn('cancel failed; will retry on the next sync', { orders: batch.length, err: String(err) });
        return EMPTY;
      }),
    );
  }

  /** Emits once no order batch is in flight (at once when none is), or after `maxMs` on the clock. */
  #drain$(maxMs: number): Observable<unknown> {
    if (this.#inFlight === 0) return of(undefined);
    return race(this.#settled$, timer(maxMs, this.#opts.clock.scheduler)).pipe(take(1));
  }

  #flushFills$(): Observable<unknown> {
    const execution = this.#opts.execution;
    if (!execution.flushFills) return of(undefined);
    return execution.flushFills().pipe(
      catchError((err: unknown) => {
        this.#opts.log.warn('last fills poll on stop failed', { err: String(err) });
        return of(undefined);
      }),
    );
  }

  #cancelEverything$(): Observable<unknown> {
    const { execution, clock } = this.#opts;
    return defer(() => {
      for (const record of this.tracker.open()) record.cancelWhenLive = true;
      return execution.cancelAll();
    }).pipe(
      tap((outcome) => {
        const now = clock.now();
        for (const id of outcome.canceled) {
          const record = this.tracker.byOrderId(id);
          if (record && OPEN_STATUSES.has(record.status)) {
            this.counters.canceled++;
            this.tracker.transition(record, 'CANCELED', now, 'stop');
          }
        }
      }),
      catchError((err: unknown) => {
        this.#opts.log.error('cancel-all on stop failed', { err: String(err) });
        return of(undefined);
      }),
    );
  }

  // ---------------------------------------------------------------- fills

  #onVenueFill(fill: VenueFill): void {
    const record = this.tracker.byOrderId(fill.orderId);
    if (!record) return; // not ours (or from before this run: reconciliation adopts it)
    const trades = this.#tradesOf(fill.orderId);
    const seen = trades.get(fill.tradeId);
    const confirmed = fill.status === 'CONFIRMED';
    const failed = fill.status === 'FAILED';
    if (seen) {
      if (confirmed && !seen.confirmed) seen.confirmed = true;
      return;
    }
    if (failed) return;
    trades.set(fill.tradeId, { confirmed });
    const now = this.#opts.clock.now();
    this.tracker.setFilled(record, Math.min(record.request.size, record.filled + fill.size), now);
    this.counters.fills++;
    this.portfolio.applyFill({ tokenId: fill.tokenId, side: fill.side, price: fill.price, size: fill.size, fee: fill.fee });
    if (record.filled >= record.request.size) this.tracker.transition(record, 'FILLED', now);
    else if (record.status === 'LIVE' || record.status === 'PENDING_SUBMIT') this.tracker.transition(record, 'PARTIALLY_FILLED', now);
    const event: FillEvent = Object.freeze({
      type: 'OrderFilled',
      clientOrderId: record.request.clientOrderId,
      orderId: fill.orderId,
      tradeId: fill.tradeId,
      tokenId: fill.tokenId,
      side: fill.side,
      price: fill.price,
      size: fill.size,
      fee: fill.fee,
      liquidity: fill.liquidity,
      confirmed,
      tsEvent: fill.tsEvent,
      tsInit: fill.tsInit,
    });
    this.#opts.persistence?.fill(event);
    this.#emit({ type: 'fill', strategyId: record.request.strategyId, fill: event });
    this.#runners.get(record.request.strategyId)?.fill(event);
  }

  // ---------------------------------------------------------------- heartbeat and sync

  #onHeartbeatLost(): void {
    const now = this.#opts.clock.now();
    this.counters.heartbeatLost++;
    for (const record of this.tracker.open()) {
      if (record.status === 'LIVE' || record.status === 'PARTIALLY_FILLED' || record.status === 'CANCEL_PENDING') {
        this.tracker.transition(record, 'CANCELED', now, 'cancelled by the venue: heartbeat lost');
        this.#emitOrderEvent(record.request.strategyId, {
          type: 'OrderCanceled',
          clientOrderId: record.request.clientOrderId,
          orderId: record.orderId,
          reason: 'heartbeat lost',
          tsInit: now,
        });
      }
    }
    this.#opts.log.warn('heartbeat lost: open orders taken as cancelled by the venue');
  }

  /**
   * Compares our open orders with the venue's: orders we think open but the venue does not list
   * take the venue's state; venue orders of this run we do not track as open are orphans and are
   * cancelled.
   */
  #sync(why: string): void {
    const { execution } = this.#opts;
    if (this.#stopped) return;
    this.#subs.add(
      execution
        .openOrders()
        .pipe(
          tap((venueOrders) => {
            const now = this.#opts.clock.now();
            const venueIds = new Set(venueOrders.map((o) => o.orderId));
            const orphans: string[] = [];
            for (const vo of venueOrders) {
              const record = this.tracker.byOrderId(vo.orderId);
              if (!record) {
                if (vo.clientOrderId?.startsWith(this.#opts.runId)) orphans.push(vo.orderId);
                continue;
              }
              if (!OPEN_STATUSES.has(record.status) || record.cancelWhenLive) orphans.push(vo.orderId);
            }
            for (const record of this.tracker.open()) {
              if (record.status !== 'LIVE' && record.status !== 'PARTIALLY_FILLED') continue;
              if (record.orderId && !venueIds.has(record.orderId)) {
                // gone at the venue: filled (fills settle it) or cancelled; look it up
                this.#subs.add(
                  execution
                    .order(record.orderId)
                    .pipe(catchError(() => of(undefined)))
                    .subscribe((state) => {
                      if (state) this.#applyVenueState(record, state);
                      else this.tracker.transition(record, 'CANCELED', now, 'not at the venue');
                    }),
                );
              }
            }
            if (orphans.length > 0) {
              this.counters.orphansCancelled += orphans.length;
              this.#opts.log.warn('cancelling orphan orders', { count: orphans.length, why });
              this.#subs.add(execution.cancel(orphans).pipe(catchError(() => EMPTY)).subscribe());
            }
          }),
          catchError((err: unknown) => {
            this.#opts.log.warn('order sync failed', { err: String(err), why });
            return EMPTY;
          }),
        )
        .subscribe(),
    );
  }

  #emit(event: EngineEvent): void {
    this.#opts.persistence?.journal(event);
    this.#opts.onEvent?.(event);
  }

  #emitOrderEvent(strategyId: string, event: OrderEvent): void {
    const frozen = Object.freeze(event);
    this.#emit({ type: 'order', strategyId, event: frozen });
    this.#runners.get(strategyId)?.orderEvent(frozen);
  }

  /** Number of order batches still waiting for an answer. */
  get inFlight(): number {
    return this.#inFlight;
  }
}

/** What risk needs of one token's market state. */
function riskMarketView(state: TokenState): RiskMarketView {
  const book = state.book;
  const bestBid = book?.bids[0]?.price;
  const bestAsk = book?.asks[0]?.price;
  return {
    tokenId: state.token.tokenId,
    conditionId: state.token.conditionId,
    outcomeIndex: state.token.outcomeIndex,
    complementTokenId: state.token.complementTokenId,
    negRiskMarketId: state.token.negRiskMarketId,
    tickSize: state.rules.tickSize,
    minOrderSize: state.rules.minOrderSize,
    acceptingOrders: state.rules.acceptingOrders,
    bestBid,
    bestAsk,
    mid: bestBid !== undefined && bestAsk !== undefined ? Math.round((bestBid + bestAsk) / 2) : undefined,
    bookTsInit: book ? state.bookSeenAt : undefined,
  };
}
