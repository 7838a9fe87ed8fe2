import { interval } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { LifecycleEvent, MarketEvent } from '../core/events.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { TokenId, VenueState } from '../core/types.ts';
import type { StrategyError } from '../core/errors.ts';
import { MarketCache, type TrackedToken } from '../data/market-cache.ts';
import type { HeartbeatSupervisor } from '../execution/heartbeat.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { Portfolio, PortfolioTotals } from '../portfolio/portfolio.ts';
import { StrategyLedger, type StrategyFigures } from '../portfolio/strategy-ledger.ts';
import type { RiskEngine } from '../risk/risk-engine.ts';
import type { Micros } from '../core/fixed.ts';
import type { MemoryMetrics } from '../core/metrics.ts';
import type { AccountSync } from './account-sync.ts';
import type { CommandRunner } from './command-runner.ts';
import type { CommandResult, EngineCommand } from './commands.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { EngineCounts } from './engine-metrics.ts';
import { buildEngineParts, refreshCompleteSets } from './engine-parts.ts';
import { cancelUnsent, settleOrdersAtStop, type StopOptions } from './engine-stop.ts';
import type { EngineSummary, StopReport } from './engine-summary.ts';
import { figuresByStrategy, gatherSummary, type SummarySources } from './engine-summary-gather.ts';
import type { EventBus } from './event-bus.ts';
import type { FeeRates } from './fee-rates.ts';
import type { FillBook } from './fill-book.ts';
import type { ActiveHalt, HaltName, Halts } from './halts.ts';
import type { ExternalReasonKind, HealthState, RaisedHealthReason } from './health.ts';
import { DEFAULT_HEALTH_CHECK_MS, type HealthMonitor } from './health-monitor.ts';
import { watchHeartbeat } from './heartbeat-watch.ts';
import type { IntentRouter } from './intent-router.ts';
import type { MarketClears } from './market-clears.ts';
import type { MarketLifecycle } from './market-lifecycle.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { OrderSubmitter } from './order-submitter.ts';
import type { EngineOptions, MarketSettlement } from './ports.ts';
import type { Reconciler } from './reconciler.ts';
import type { RewardAccrual } from './reward-accrual.ts';
import type { RiskSnapshot } from './risk-snapshot.ts';
import { startStrategies } from './strategy-start.ts';
import type { StrategyHost } from './strategy-host.ts';
import type { UnbookedSells } from './unbooked-sells.ts';
import type { VenueOrderUpdates } from './venue-order-updates.ts';
import type { VenueStateTracker } from './venue-state-tracker.ts';
import { StrategyFault } from '../strategy/strategy-fault.ts';

export { DEFAULT_CLOSED_ORDER_RETENTION_MS } from './ports.ts';
export type { BatchTimings, EngineEvent, EngineExecutionSettings, EngineLogger, EngineOptions, EnginePersistence, EngineRestore, EngineStrategy, JournaledEvent, MarketSettlement } from './ports.ts';
export type { CommandResult, EngineCommand } from './commands.ts';
export type { HaltName } from './halts.ts';
export type { Health, HealthReason, HealthState, Permission } from './health.ts';
export { MAX_SUBMIT_ATTEMPTS } from './order-submitter.ts';
export { DEFAULT_DRAIN_MS, DEFAULT_STOP_DEADLINE_MS } from './engine-stop.ts';

/**
 * The core, the same in every mode: market events in, strategies called, intents checked by
 * risk, orders batched and handed to the execution edge, results and fills fed back to the
 * strategies and the portfolio. Every timer runs on the injected clock. The work is done by its
 * parts: the strategy host, the intent router (with the risk snapshot), the order submitter and
 * canceller, the reconciler and the fill book, built and wired by engine-parts.ts; this class
 * holds them, runs start and stop, and is the run's one face to them (the heartbeat's watch:
 * heartbeat-watch.ts; when strategies start: strategy-start.ts; our orders at a stop:
 * engine-stop.ts; the run summary gathered from the parts: engine-summary-gather.ts).
 */
export class TradingEngine {
  readonly cache = new MarketCache();
  /** The run's account: every strategy's fills together (its cash the venue's, live). */
  readonly portfolio: Portfolio;
  /** Each strategy's positions, PnL, fees and turnover (its own fills). */
  readonly ledger = new StrategyLedger();
  readonly risk: RiskEngine;
  readonly heartbeat: HeartbeatSupervisor | undefined;
  readonly #opts: EngineOptions;
  readonly #desk: EngineDesk;
  readonly #host: StrategyHost;
  readonly #snapshot: RiskSnapshot;
  readonly #canceller: OrderCanceller;
  readonly #venueOrders: VenueOrderUpdates;
  readonly #reconciler: Reconciler;
  readonly #submitter: OrderSubmitter;
  readonly #fills: FillBook;
  /** Live only: shares our closed SELLs may have sold beyond their booked fills. */
  readonly #unbooked: UnbookedSells | undefined;
  readonly #router: IntentRouter;
  readonly #markets: MarketLifecycle;
  readonly #clears: MarketClears;
  readonly #feeRates: FeeRates;
  readonly #account: AccountSync;
  readonly #halts: Halts;
  readonly #health: HealthMonitor;
  readonly #commands: CommandRunner;
  readonly #venue: VenueStateTracker;
  /** Our estimated liquidity rewards (docs/rewards.md), apart from trading PnL. */
  readonly rewards: RewardAccrual;
  /** What the run summary reads (engine-summary-gather.ts). */
  readonly #summarySources: SummarySources;
  #stopReport: StopReport | undefined;
  readonly #alerts: string[] = [];

  constructor(options: EngineOptions) {
    this.#opts = options;
    const parts = buildEngineParts(options, this.cache, this.ledger, {
      lifecycle: (event) => this.lifecycle(event),
      intents: (id, intents) => this.handleIntents(id, intents),
      command: (command) => this.command(command),
      fault: (id, err) => this.#onFault(id, err),
    });
    this.#desk = parts.desk;
    this.portfolio = parts.portfolio;
    this.risk = parts.risk;
    this.heartbeat = parts.heartbeat;
    this.#halts = parts.halts;
    this.#canceller = parts.canceller;
    this.#venue = parts.venue;
    this.#reconciler = parts.reconciler;
    this.#venueOrders = parts.venueOrders;
    this.#health = parts.health;
    this.#submitter = parts.submitter;
    this.#fills = parts.fills;
    this.#unbooked = parts.unbooked;
    this.#markets = parts.markets;
    this.#clears = parts.clears;
    this.#feeRates = parts.feeRates;
    this.#account = parts.account;
    this.#snapshot = parts.snapshot;
    this.rewards = parts.rewards;
    this.#host = parts.host;
    this.#router = parts.router;
    this.#commands = parts.commands;
    this.#summarySources = { ...parts, ledger: this.ledger, strategies: options.strategies };
  }

  get clock(): Clock {
    return this.#opts.clock;
  }

  get tracker(): OrderTracker {
    return this.#desk.tracker;
  }

  /** The engine's counts (read from `metrics`). */
  get counters(): EngineCounts {
    return this.#desk.counters;
  }

  /** The engine's one stream of events (orders, fills, denials, batches and their timings, health, lifecycle, halts, commands, faults). */
  get bus(): EventBus {
    return this.#desk.bus;
  }

  /** The run's metrics (docs/metrics.md): what the summary is built from. */
  get metrics(): MemoryMetrics {
    return this.#desk.metrics;
  }

  /**
   * Applies a command (halt, resume, stop or start one strategy, cancel all, update params), at
   * once and in order, journals it and answers what it did (commands.ts).
   */
  command(command: EngineCommand): CommandResult {
    return this.#commands.run(command);
  }

  /**
   * What the venue takes now, as its answers say (docs/venue-states.md): `open`, `restarting`,
   * `cancelOnly` or `postOnly`; `since` when it began, `retryAfterMs` the venue's estimate.
   */
  venueState(): { readonly state: VenueState; readonly since: number; readonly retryAfterMs?: number } {
    const v = this.#venue;
    return v.retryAfterMs === undefined ? { state: v.state, since: v.since } : { state: v.state, since: v.since, retryAfterMs: v.retryAfterMs };
  }

  /**
   * The run's health and trading permission with their reasons (health.ts), looked at now. The
   * bus carries `HealthChanged` whenever either (or a reason) changes.
   */
  health(): HealthState {
    return this.#health.current();
  }

  /**
   * Raises a reason of the run's health that a part outside the engine sees (a silent feed, the
   * venue's restricted mode, a rate budget fallen back to local); it holds until cleared.
   */
  healthReason(reason: RaisedHealthReason): void {
    this.#health.raise(reason);
  }

  /** Clears a raised reason: every one of `kind`, or one connection's `feedSilent`. */
  clearHealthReason(kind: ExternalReasonKind, connection?: number): void {
    this.#health.clear(kind, connection);
  }

  /** Number of order batches still waiting for an answer. */
  get inFlight(): number {
    return this.#submitter.inFlight;
  }

  strategyState(id: string): string | undefined {
    return this.#host.state(id);
  }

  /** Each hosted strategy: its state, its params now (`ctx.params`) and the keys `updateParams` may set. */
  strategies(): { id: string; name: string; state: string; params: unknown; updatable: readonly string[] }[] {
    const host = this.#host;
    return Object.entries(host.states()).map(([id, state]) => {
      const definition = host.definition(id);
      return { id, name: definition?.name ?? id, state, params: host.params(id), updatable: definition?.updatable ?? [] };
    });
  }

  /**
   * Reads the account before the run starts (call it before `start`): live, the venue's cash and
   * positions (a rejection when they cannot be read); paper and backtest, the configured cash is
   * noted in the store when the run begins. See AccountSync.
   */
  loadAccount(): Promise<void> {
    return this.#account.load(this.#opts.restore !== undefined);
  }

  /** Starts every stream and strategy. Market events flow from now on. */
  start(): void {
    const { clock, execution, log } = this.#opts;
    const desk = this.#desk;
    const subs = desk.subs;
    this.#account.start();
    this.#submitter.start();
    this.#canceller.start();
    subs.add(execution.fills$.subscribe((fill) => desk.transaction(() => this.#fills.onVenueFill(fill))));
    if (execution.orderUpdates$) {
      subs.add(
        execution.orderUpdates$.subscribe((update) =>
          desk.transaction(() => {
            this.#venueOrders.heard(update);
            this.#unbooked?.venueState(update.state);
          }),
        ),
      );
    }

    if (this.#opts.restore) this.#reconciler.reconcileRestored(this.#opts.orphans ?? 'cancel');
    subs.add(this.#opts.marketEvents$.subscribe({ next: (e) => this.onMarketEvent(e), error: (err: unknown) => log.error('market data failed', { err: String(err) }) }));
    if (this.heartbeat) watchHeartbeat(this.heartbeat, desk, this.#reconciler, this.#opts);
    const syncEvery = desk.settings.syncIntervalMs;
    if (syncEvery > 0) subs.add(interval(syncEvery, clock.scheduler).subscribe(() => this.#reconciler.sync('periodic')));
    const checkEvery = this.#opts.health?.checkEveryMs ?? DEFAULT_HEALTH_CHECK_MS;
    if (checkEvery > 0) subs.add(interval(checkEvery, clock.scheduler).subscribe(() => this.#health.check()));
    this.#health.started();
    this.rewards.start();
    startStrategies({ desk, options: this.#opts, host: this.#host, cache: this.cache, halts: this.#halts, reconciler: this.#reconciler, unbooked: this.#unbooked, tell: (work) => this.#tell(work) });
  }

  /**
   * Stops strategies (their onStop intents still go out), waits (up to `drainMs` of clock time)
   * for the order batches in flight to be answered, cancels our open orders unless `keepOrders`,
   * then closes the streams. Without the wait, an order the venue takes after the cancel-all
   * would be left resting, and its answer lost. The cancel is verified: retried and checked
   * against the venue's open orders for up to `deadlineMs`; the outcome is `stopReport`.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    const desk = this.#desk;
    if (desk.stopped) return;
    desk.releaseHeldFills();
    this.#host.stop();
    desk.stopped = true;
    const parts = { desk, submitter: this.#submitter, canceller: this.#canceller, fills: this.#fills, reconciler: this.#reconciler, log: this.#opts.log };
    await settleOrdersAtStop(parts, options, (report) => {
      this.#stopReport = report;
    });
    // our orders rested (and scored at the venue) until the cancel-all was answered: the reward
    // estimate samples until then, so it covers the same samples as the venue's accounting
    this.rewards.stop();
    // a sample still waiting for the venue's figure of our share is booked before the summary
    await this.rewards.settled();
    // the marks and positions outside as the summary shows them, for `clobot status`
    desk.transaction(() => this.#account.record());
    this.heartbeat?.stop();
    this.#venue.stop();
    desk.subs.unsubscribe();
    this.#health.stopped();
    this.#submitter.complete();
    this.#canceller.complete();
    cancelUnsent(desk, this.#opts.clock.now());
  }

  /**
   * Raises a named halt (default `manual`): the `halt` command. New orders are denied (an engine
   * gate, whatever the configured checks) until it is lifted.
   */
  halt(reason: string, name: HaltName = 'manual'): CommandResult {
    return this.command({ type: 'halt', name, reason });
  }

  /** Records a fault that ended the run or halted trading; listed in the summary's `alerts`. */
  alert(message: string): void {
    this.#alerts.push(message);
  }

  /** The verified stop's outcome, once `stop()` cancelled (undefined before, or with `keepOrders`). */
  get stopReport(): StopReport | undefined {
    return this.#stopReport;
  }

  /** Lifts a named halt (default `manual`): the `resume` command. */
  resume(name: HaltName = 'manual'): CommandResult {
    return this.command({ type: 'resume', name });
  }

  /** Why trading is halted (the reasons of the halts on), undefined when it is not. */
  get halted(): string | undefined {
    return this.#halts.reason;
  }

  /** The halts on, in the order raised. */
  get halts(): readonly ActiveHalt[] {
    return this.#halts.active();
  }

  onMarketEvent(event: MarketEvent): void {
    // without a store, no closure per event (a backtest hands over hundreds of thousands)
    const desk = this.#desk;
    // the start of this tick: orders its strategies place measure tick-to-trade from here
    desk.tickAt = desk.stopwatch();
    this.#health.marketData();
    const persistence = desk.persistence;
    try {
      if (persistence === undefined) this.#onMarketEvent(event);
      else persistence.transaction(() => this.#onMarketEvent(event));
    } finally {
      desk.tickAt = 0;
    }
  }

  /**
   * A market closed, resolved, was added or removed, or a fill's settlement moved: the run's
   * part that saw it calls this, and the strategies concerned hear it (`onLifecycle`).
   */
  lifecycle(event: LifecycleEvent): void {
    this.#desk.emit({ type: 'lifecycle', event });
    this.#host.lifecycle(event);
  }

  /**
   * Markets joined or left the run while it goes on (the app's market refresher): `track` are the
   * new tokens (the cache tracks them from now on), and each listed strategy's tokens gain
   * `added` and lose `removed` (its ctx.tokenIds, ctx.markets() and the market events it hears).
   * Strategies are told by `lifecycle` (MarketAdded, MarketRemoved), which the caller sends after.
   */
  changeTokens(track: readonly TrackedToken[], byStrategy: ReadonlyMap<string, { readonly added: readonly TokenId[]; readonly removed: readonly TokenId[] }>): void {
    for (const token of track) this.cache.track(token);
    if (track.length > 0) refreshCompleteSets(this.cache, this.portfolio, this.ledger);
    for (const [id, change] of byStrategy) this.#host.changeTokens(id, change.added, change.removed);
  }

  /** Entry point of strategy output (public for tests and the RxJS form). */
  handleIntents(strategyId: string, intents: readonly OrderIntent[]): void {
    this.#router.handle(strategyId, intents);
  }

  /**
   * Each strategy's fills, turnover, fees and PnL at `mark` (default: the run's marks), adding up
   * to the run's (StrategyLedger.figures); every hosted strategy has a row, traded or not.
   */
  strategyFigures(mark: (tokenId: TokenId) => Micros | undefined = (tokenId) => this.#snapshot.mark(tokenId)): StrategyFigures[] {
    return figuresByStrategy(this.#summarySources, mark);
  }

  /** The run summary now (gathered from the parts: engine-summary-gather.ts). */
  summary(): EngineSummary {
    return gatherSummary(this.#summarySources, this.#stopReport, this.#alerts);
  }

  /** The run's account figures at the run's marks (cash, position value, fees, realized and unrealized PnL), Micros. */
  accountTotals(): PortfolioTotals {
    return this.portfolio.totals((tokenId) => this.#snapshot.mark(tokenId));
  }

  /** Markets this run settled at their resolution, in order. */
  settlements(): MarketSettlement[] {
    return this.#markets.settlements();
  }

  /** Strategy work outside a market event, in one store transaction (as a market event's). */
  #tell(work: () => void): void {
    const persistence = this.#desk.persistence;
    if (persistence === undefined) work();
    else persistence.transaction(work);
  }

  #onMarketEvent(event: MarketEvent): void {
    if (event.type === 'marketClosed' || event.type === 'marketResolved') {
      this.#markets.onMarketEvent(event);
      return;
    }
    if (event.type === 'walletTrade') {
      this.#opts.persistence?.marketEvent?.(event);
      this.#host.walletTrade(event.trade);
      return;
    }
    if (event.type === 'feeRate') {
      this.#feeRates.onFeeRate(event);
      return;
    }
    if (event.type === 'marketCleared') {
      this.#clears.onCleared(event);
      return;
    }
    if (event.type === 'book') this.#clears.onBook(event.book);
    const changes = this.cache.apply(event);
    this.rewards.observe(changes);
    if (changes.length > 0) this.#opts.persistence?.marketEvent?.(event);
    this.#host.dispatch(changes);
  }

  #onFault(id: string, err: StrategyError): void {
    const desk = this.#desk;
    const at = desk.clock.now();
    // the stack is the strategy's own frames (StrategyFault): one line in the log, the first fault in the summary (the tally)
    desk.log.error('strategy faulted', { strategy: id, error: err.message, stack: err.stack });
    desk.emit({ type: 'fault', strategyId: id, message: err.message, at, stack: err.stack });
    if (err instanceof StrategyFault && !err.stopped) return;
    // a faulted strategy's orders are cancelled: nobody is managing them any more
    for (const record of desk.tracker.open({ strategyId: id })) this.#canceller.request(record);
  }
}
