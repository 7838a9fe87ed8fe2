import type { LifecycleEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderIntent } from '../core/intents.ts';
import type { StrategyError } from '../core/errors.ts';
import type { VenueState } from '../core/types.ts';
import type { MarketCache } from '../data/market-cache.ts';
import type { HeartbeatSupervisor } from '../execution/heartbeat.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import { completeSetShape } from '../portfolio/complete-sets.ts';
import { Portfolio } from '../portfolio/portfolio.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import { RiskEngine } from '../risk/risk-engine.ts';
import type { RiskLimits } from '../risk/types.ts';
import { AccountSync } from './account-sync.ts';
import { CommandRunner } from './command-runner.ts';
import type { CommandResult, EngineCommand } from './commands.ts';
import { EngineDesk } from './engine-desk.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import { FeeRates } from './fee-rates.ts';
import { FillBook } from './fill-book.ts';
import { Flattener } from './flattener.ts';
import { Halts } from './halts.ts';
import { DEFAULT_SUBMIT_UNKNOWN_LIMIT_MS, HealthMonitor } from './health-monitor.ts';
import { heartbeatOf } from './heartbeat-watch.ts';
import { IntentRouter } from './intent-router.ts';
import { MarketClears } from './market-clears.ts';
import { MarketLifecycle } from './market-lifecycle.ts';
import { OrderCanceller } from './order-canceller.ts';
import { OrderSubmitter } from './order-submitter.ts';
import type { EngineOptions, EngineRestore, EngineStrategy } from './ports.ts';
import { Reconciler } from './reconciler.ts';
import { RewardAccrual } from './reward-accrual.ts';
import { RiskSnapshot } from './risk-snapshot.ts';
import { RunTally } from './run-tally.ts';
import { StrategyHost } from './strategy-host.ts';
import { UnbookedSells } from './unbooked-sells.ts';
import { VenueOrderUpdates } from './venue-order-updates.ts';
import { VenueStateTracker } from './venue-state-tracker.ts';

/** With the user channel, how long a SELL waiting on a cancelled SELL's matched size waits for the channel's word before a lookup, ms. */
const CHANNEL_LOOKUP_DELAY_MS = 500;

/** The order id the venue-state probe cancels: nobody's (a cancel of it changes nothing at the venue). */
const VENUE_PROBE_ORDER_ID = `0x${'0'.repeat(64)}`;

/** What the parts call on the engine itself (its public face: TradingEngine). */
export interface EngineHooks {
  /** A lifecycle event for the strategies concerned (TradingEngine.lifecycle). */
  readonly lifecycle: (event: LifecycleEvent) => void;
  /** A strategy's intents (TradingEngine.handleIntents). */
  readonly intents: (strategyId: string, intents: readonly OrderIntent[]) => void;
  /** A command applied as an operator's would be (TradingEngine.command). */
  readonly command: (command: EngineCommand) => CommandResult;
  /** A strategy faulted. */
  readonly fault: (strategyId: string, err: StrategyError) => void;
}

/** The engine's parts, built and wired to one another. */
export interface EngineParts {
  readonly desk: EngineDesk;
  readonly portfolio: Portfolio;
  readonly risk: RiskEngine;
  readonly heartbeat: HeartbeatSupervisor | undefined;
  readonly tally: RunTally;
  readonly halts: Halts;
  readonly canceller: OrderCanceller;
  readonly venue: VenueStateTracker;
  readonly reconciler: Reconciler;
  readonly venueOrders: VenueOrderUpdates;
  readonly health: HealthMonitor;
  readonly submitter: OrderSubmitter;
  readonly fills: FillBook;
  /** Live only: shares our closed SELLs may have sold beyond their booked fills. */
  readonly unbooked: UnbookedSells | undefined;
  readonly markets: MarketLifecycle;
  readonly clears: MarketClears;
  readonly feeRates: FeeRates;
  readonly account: AccountSync;
  readonly snapshot: RiskSnapshot;
  readonly rewards: RewardAccrual;
  readonly host: StrategyHost;
  readonly router: IntentRouter;
  readonly flattener: Flattener;
  readonly commands: CommandRunner;
}

/**
 * Builds the engine's parts from the run's options and wires each to the others it calls (the
 * market cache and the strategy ledger are the engine's own, made before): the order in which they
 * are made is the order in which the event bus's listeners hear (the store's journal, the tally,
 * the run's hook, the health model). A previous life's orders, fills and settlements are put back,
 * and the strategies added (not started).
 */
export function buildEngineParts(options: EngineOptions, cache: MarketCache, ledger: StrategyLedger, hooks: EngineHooks): EngineParts {
  const desk = new EngineDesk(options);
  const portfolio = new Portfolio(options.startingBalance);
  const risk = new RiskEngine({ checks: options.risk.checks, limits: withBudgets(options.risk.limits, options.strategies) });
  for (const token of options.tokens) cache.track(token);
  refreshCompleteSets(cache, portfolio, ledger);
  const heartbeat = heartbeatOf(options, desk);
  const halts = new Halts();
  // the bus's listeners after the store's journal: the tally (metrics, summary), then the run's hook
  const tally = RunTally.attach(desk, { heartbeat: heartbeat?.stats, http429: options.http429, onEvent: options.onEvent });
  const canceller = new OrderCanceller(desk);
  // parts made later, called (once made) by the parts made before them
  const later: { health?: HealthMonitor; host?: StrategyHost; router?: IntentRouter; account?: AccountSync; snapshot?: RiskSnapshot; flattener?: Flattener } = {};
  const venue = new VenueStateTracker({
    desk,
    tell: hooks.lifecycle,
    // a cancel of an order id nobody has: an order route the venue answers (425 while it restarts)
    probe: () => options.execution.cancel([VENUE_PROBE_ORDER_ID]),
    // the venue's state changed: the health model's reason, the cancels held through a restart
    changed: (state: VenueState, retryAfterMs: number | undefined) => {
      if (state === 'open') later.health!.clear('venueRestricted');
      else later.health!.raise({ kind: 'venueRestricted', state, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
      canceller.venueChanged();
    },
    settings: { postOnlyAfterRestartMs: desk.settings.postOnlyAfterRestartMs },
  });
  canceller.venue = venue;
  const reconciler = new Reconciler(desk, canceller, options.runId);
  const venueOrders = new VenueOrderUpdates(desk, reconciler, canceller, options.marketLook);
  // the health model hears the events after the journal, the tally and the run's hook
  const health = new HealthMonitor({
    clock: options.clock,
    bus: desk.bus,
    heartbeat: () => heartbeat?.health,
    halts,
    reconciling: reconciler.markets,
    tracker: desk.tracker,
    strategies: () => later.host!.states(),
    submitUnknownLimitMs: options.health?.submitUnknownLimitMs ?? DEFAULT_SUBMIT_UNKNOWN_LIMIT_MS,
    // the flattener is made below (a look before that finds no flatten)
    flattening: () => later.flattener?.under,
  });
  desk.bus.subscribe(health.listener);
  later.health = health;
  const submitter = new OrderSubmitter(desk, canceller, reconciler, venue);
  const fills = new FillBook(desk, portfolio, hooks.lifecycle, ledger);
  let unbooked: UnbookedSells | undefined;
  // live: fills reach us after the venue matched them (a read of our trades, the user channel),
  // so a SELL may find shares sold that we have not booked; a simulated edge books them at once
  if (options.execution.fillsSnapshot$) {
    // with the user channel, its cancellation message (the matched size) usually settles a doubt before a lookup would
    const lookupDelayMs = options.execution.orderUpdates$ ? CHANNEL_LOOKUP_DELAY_MS : 0;
    unbooked = new UnbookedSells(desk, (orderId) => fills.bookedSize(orderId), (conditionId) => later.router!.wakeHolds(conditionId), { lookupDelayMs });
    canceller.notCancelled = (record, reason) => reconciler.notCancelled(record, reason);
  }
  const markets = new MarketLifecycle({
    desk,
    cache,
    portfolio,
    ledger,
    canceller,
    tell: hooks.lifecycle,
    sync: (why) => reconciler.sync(why),
    cashMoved: (at, effect) => later.account!.cashMoved(at, effect),
  });
  const clears = new MarketClears({ desk, tell: hooks.lifecycle, sync: (why) => reconciler.sync(why) });
  const feeRates = new FeeRates(desk, cache, hooks.lifecycle);
  const account = new AccountSync(desk, portfolio, (tokenId) => later.snapshot!.mark(tokenId), options.account);
  later.account = account;
  fills.cashMoved = (at, effect) => account.cashMoved(at, effect);
  account.unbooked = () => fills.unbookedBuys();
  const snapshot = new RiskSnapshot({
    cache,
    portfolio,
    tracker: desk.tracker,
    ratesChecked: risk.checkOrder.includes('orderRate') && risk.limits.maxOrdersPerSecond !== undefined,
    heartbeat: () => heartbeat?.health ?? 'idle',
    haltReason: () => halts.described,
    consecutiveRejects: () => desk.consecutiveRejects,
    reconciling: reconciler.gate,
    venueState: () => venue.state,
    cleared: clears.gate,
    outside: account.outsideHoldings,
    positionOf: (tokenId) => fills.riskSize(tokenId),
    strategyCost: (strategyId) => ledger.costBasis(strategyId),
  });
  later.snapshot = snapshot;
  const rewards = new RewardAccrual({ clock: options.clock, cache, tracker: desk.tracker, settings: options.rewards, log: options.log });
  rewards.onSample = (total) => {
    desk.metrics.set(ENGINE_METRICS.rewardsAccrued, total);
    const store = desk.persistence;
    if (store?.rewards !== undefined) desk.transaction(() => store.rewards!(rewards.note(options.clock.now())));
  };
  if (options.restore?.rewards) rewards.restore(options.restore.rewards);
  const host = new StrategyHost({
    rewards: (id) => rewards.snapshot(id),
    clock: options.clock,
    log: options.log,
    cache,
    tracker: desk.tracker,
    portfolio,
    ledger,
    mark: (tokenId) => snapshot.mark(tokenId),
    metrics: desk.metrics,
    onIntents: hooks.intents,
    onFault: hooks.fault,
    keepGoing: options.keepGoingOnFault,
  });
  later.host = host;
  desk.listen(host);
  const router = new IntentRouter({
    desk,
    cache,
    risk,
    snapshot,
    canceller,
    submitter,
    fills,
    runId: options.runId,
    hosts: (id) => host.has(id),
    held: (tokenId) => portfolio.size(tokenId) ?? 0,
    cash: () => portfolio.balance(),
    unbooked,
    running: (id) => host.state(id) === 'RUNNING',
    basket: (id, event) => {
      desk.emit({ type: 'basket', strategyId: id, event });
      host.basket(id, event);
    },
    // the kill switch tripped: a latched halt (resting orders cancelled, strategies told)
    killSwitch: (why) => {
      if (!halts.has('killSwitch')) hooks.command({ type: 'halt', name: 'killSwitch', reason: `kill switch: ${why}` });
    },
  });
  if (options.restore) restorePreviousLife(options.restore, desk, fills, markets);
  const persistence = options.persistence;
  if (persistence) {
    desk.tracker.listen({
      created: (record, at) => persistence.orderCreated(record, at),
      changed: (record, at, reason) => persistence.orderChanged(record, at, reason),
    });
  }
  for (const s of options.strategies) host.add(s);
  const configParams = new Map<string, Readonly<Record<string, unknown>>>();
  for (const s of options.strategies) if (s.configParams) configParams.set(s.id, s.configParams);
  later.router = router;
  const flattener = new Flattener({ desk, cache, ledger, closePositions: (id, sells) => router.closePositions(id, sells) });
  later.flattener = flattener;
  const commands = new CommandRunner({
    desk,
    host,
    canceller,
    halts,
    tell: hooks.lifecycle,
    cancelOnHalt: options.cancelOnHalt ?? true,
    configParams,
    flattener,
  });
  return { desk, portfolio, risk, heartbeat, tally, halts, canceller, venue, reconciler, venueOrders, health, submitter, fills, unbooked, markets, clears, feeRates, account, snapshot, rewards, host, router, flattener, commands };
}

/** The complete sets the tracked markets can form (pairs, full neg-risk event sets): valued at their payout. */
export function refreshCompleteSets(cache: MarketCache, portfolio: Portfolio, ledger: StrategyLedger): void {
  const shape = completeSetShape([...cache.states()].map((s) => s.token));
  portfolio.setCompleteSets(shape);
  ledger.setCompleteSets(shape);
}

/** Puts back orders and fills of a previous life; open orders are reconciled on start. */
function restorePreviousLife(restore: EngineRestore, desk: EngineDesk, fills: FillBook, markets: MarketLifecycle): void {
  // the orders first: each fill is booked for the strategy of its order
  for (const order of restore.orders) {
    desk.tracker.restore(order.request, {
      orderId: order.orderId,
      status: order.status as OrderRecord['status'],
      filled: order.filled,
      at: order.updatedAt,
    });
  }
  fills.restore(restore.fills);
  if (restore.settlements) markets.restore(restore.settlements);
}

/** The risk limits with each strategy's budget (EngineStrategy.budget) as `strategyBudgets`. */
function withBudgets(limits: RiskLimits, strategies: readonly EngineStrategy[]): RiskLimits {
  const budgets: Record<string, Micros> = {};
  let any = false;
  for (const s of strategies) {
    if (s.budget === undefined) continue;
    budgets[s.id] = s.budget;
    any = true;
  }
  return any ? { ...limits, strategyBudgets: { ...limits.strategyBudgets, ...budgets } } : limits;
}
