import type { CompleteSetShape } from '../portfolio/complete-sets.ts';
import type { Observable } from 'rxjs';
import type { BasketEvent } from '../core/basket-events.ts';
import type { Clock } from '../core/clock.ts';
import type { Micros } from '../core/fixed.ts';
import type { MemoryMetrics } from '../core/metrics.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { FillEvent, LifecycleEvent, MarketEvent, OrderEvent } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';
import type { HeartbeatHealth } from '../execution/heartbeat.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import type { Settlement } from '../portfolio/portfolio.ts';
import type { CheckName, RiskLimits } from '../risk/types.ts';
import type { StrategyDefinition, StrategyLogger } from '../strategy/api.ts';
import type { CommandResult, EngineCommand } from './commands.ts';
import type { HaltName } from './halts.ts';
import type { HealthState } from './health.ts';
import type { RewardAccrualSettings, RewardsNote } from './reward-accrual.ts';

/**
 * The engine's ports: what it is built from (options, strategies, settings) and what the
 * adapters above it plug in (the store's EnginePersistence and EngineRestore, the journal's
 * EngineEvent). The engine never imports its adapters; they import these.
 */

export interface EngineLogger extends StrategyLogger {
  child(bindings: Record<string, unknown>): EngineLogger;
}

export interface EngineStrategy {
  readonly id: string;
  readonly definition: StrategyDefinition;
  readonly params: unknown;
  /**
   * The params as the config wrote them (before the strategy's schema): an `updateParams`
   * command sets its keys over these and checks the whole again, as the config's load does.
   * Absent: `params` are taken as written.
   */
  readonly configParams?: Readonly<Record<string, unknown>>;
  readonly tokenIds: readonly TokenId[];
  /** The most collateral the strategy may commit (its positions at cost plus its open BUYs), Micros: the strategyBudget check. Absent: no budget. */
  readonly budget?: Micros;
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
  /**
   * How long the venue is taken to stay post-only after its matching engine restarted, when it
   * does not say (docs/venue-states.md), ms. Default 120,000 (the venue's documented 2 minutes).
   */
  readonly postOnlyAfterRestartMs?: number;
}

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
  /**
   * A listener of the engine's event bus from its construction (subscribed after the store's
   * journal and the tally); `engine.bus.subscribe` adds more.
   */
  readonly onEvent?: (event: EngineEvent) => void;
  /**
   * The run's metrics (see src/core/metrics.ts and docs/metrics.md); the engine writes its counts,
   * denials by code, tick-to-trade and halts there, and the summary is read from it. Default: its own.
   */
  readonly metrics?: MemoryMetrics;
  /** A monotonic stopwatch in ms for the timings of batches (tick-to-trade). Default performance.now. */
  readonly stopwatch?: () => number;
  /** A halt cancels our resting orders (default); false keeps them resting (`execution.cancelOnHalt`). */
  readonly cancelOnHalt?: boolean;
  /** Returns HTTP 429 count from the venue edge, for the summary (read into `metrics`; the app's transport collector does the same). */
  readonly http429?: () => number;
  /** Durable state (the run store); absent: nothing survives the process. */
  readonly persistence?: EnginePersistence;
  /** State of a previous life of this run, to resume from. */
  readonly restore?: EngineRestore;
  /** What to do at start with restored orders still open at the venue. Default 'cancel'. */
  readonly orphans?: 'cancel' | 'adopt';
  /** A strategy hook that throws is counted and the strategy runs on (backtest `keepGoing`); default: the strategy is stopped. */
  readonly keepGoingOnFault?: boolean;
  /**
   * Live: where the account is read (the venue's balance and positions), at start and every
   * `intervalMs`; the cash is then the venue's. Absent (paper, backtest): cash starts at
   * `startingBalance`.
   */
  readonly account?: { readonly source: AccountSource; readonly intervalMs: number };
  /**
   * The health model (health.ts): an order in SUBMIT_UNKNOWN past `submitUnknownLimitMs` (default
   * 30 s) is a reason; the state is looked at every `checkEveryMs` of clock time (default 1 s; 0:
   * only on the events that change it and when asked).
   */
  readonly health?: { readonly submitUnknownLimitMs?: number; readonly checkEveryMs?: number };
  /** How our liquidity rewards are estimated (docs/rewards.md); default: every minute, the books showing our orders. */
  readonly rewards?: RewardAccrualSettings;
  /**
   * Live: looks at one market now (its close, resolution, game start) and hands what it finds to
   * `marketEvents$`, resolving once those are out; the engine asks when the venue cancelled an
   * order of ours there that it did not cancel itself (src/engine/venue-order-updates.ts). Absent:
   * the engine waits `reconcileDelayMs` for its own reason before taking the venue's.
   */
  readonly marketLook?: MarketLook;
}

/** See EngineOptions.marketLook: `at` is the venue's time of the cancel that asked (ms). */
export type MarketLook = (conditionId: ConditionId, at: number) => Promise<void>;

/** One reading of the account at the venue. */
export interface AccountReading {
  /** Collateral the venue holds for the account (its balance: our open orders are not deducted). */
  readonly cash: Micros;
  /** Shares held per token as the venue lists them (tokens of markets outside the run included). */
  readonly positions: ReadonlyMap<TokenId, Micros>;
}

/** Reads the account at the venue (the live edge implements it over the venue's routes). */
export interface AccountSource {
  read(): Promise<AccountReading>;
}

/**
 * What the store keeps of the account: the cash when it was set (the venue's, or the configured
 * start; fills stored later move it), the marks the figures used, and the positions held
 * outside the bot. `clobot status` reads the newest one, so it shows what the run showed.
 */
export interface AccountNote {
  readonly at: number;
  readonly source: 'venue' | 'configured';
  /** Set: the cash was set to this (a balance anchor). */
  readonly cash?: Micros;
  readonly marks: Readonly<Record<TokenId, Micros>>;
  readonly outside: readonly { readonly tokenId: TokenId; readonly size: Micros }[];
  /** The complete sets the held tokens make (pairs, full neg-risk event sets): valued at their payout. */
  readonly sets?: CompleteSetShape;
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
  /** A stored fill whose trade FAILED on chain is void: no longer a fill of the run (kept apart, with when). */
  voidFill?(fill: FillEvent, at: number): void;
  heartbeatId(id: string, at: number): void;
  /** An engine event for the journal (the journal is the bus's first listener; batches are not journaled). */
  journal(event: JournaledEvent): void;
  /**
   * A market event that changed the cache, before the strategies see it: the store journals it
   * so the run can be replayed offline. It may be written after the tick's own commit (the store
   * defers market events off the order path, docs/store.md); a kill loses at most one turn's.
   */
  marketEvent?(event: MarketEvent): void;
  /** The account's state (AccountNote): at start, after each reading of the venue, at stop. */
  account?(note: AccountNote): void;
  /** A resolved market's positions were settled (in the tick's transaction). */
  settlement?(settlement: MarketSettlement): void;
  /** Our reward accrual after a sample (docs/rewards.md): the store keeps the latest. */
  rewards?(note: RewardsNote): void;
}

/** A resolved market's positions settled at their payouts (market-lifecycle.ts). */
export interface MarketSettlement {
  readonly conditionId: string;
  /** The token that paid 1; undefined: no winner (each paid 0.5). */
  readonly winnerTokenId: TokenId | undefined;
  /** One per token of the market (size 0 where nothing was held). */
  readonly tokens: readonly Settlement[];
  /** Cash received, Σ tokens. */
  readonly proceeds: Micros;
  /** PnL realized by the settlement, Σ tokens. */
  readonly realizedPnl: Micros;
  /** When the resolution was seen (epoch ms, the run's clock). */
  readonly at: number;
}

export interface EngineRestore {
  readonly orders: readonly { readonly request: OrderRequest; readonly orderId: string | undefined; readonly status: string; readonly filled: Micros; readonly updatedAt: number }[];
  readonly fills: readonly FillEvent[];
  readonly heartbeatId?: string;
  /** Markets this run already settled (restored after the fills). */
  readonly settlements?: readonly MarketSettlement[];
  /** The reward accrual of the previous lives (the store's note). */
  readonly rewards?: RewardsNote;
}

/**
 * The timings of one order batch, in seconds on the engine's stopwatch, taken when its post is
 * handed to the execution edge. Tick-to-trade runs from the start of the engine turn that made
 * the batch's first order (the market event its strategy answered) to that hand-over: the
 * strategy, risk, the batcher's wait, building and signing, and storing the hashes. In a backtest
 * the waits on the simulated clock take no real time, so it is the engine's own work.
 */
export interface BatchTimings {
  readonly tickToTradeSeconds: number;
  /** From the first order's turn until the batch began to be prepared (strategy, risk, batcher wait, lane wait). */
  readonly queuedSeconds: number;
  /** Building, hashing and signing the orders, and committing their hashes to the store. */
  readonly prepareSeconds: number;
}

export type EngineEvent =
  | { readonly type: 'order'; readonly strategyId: string; readonly event: OrderEvent }
  | { readonly type: 'fill'; readonly strategyId: string; readonly fill: FillEvent }
  | { readonly type: 'heartbeat'; readonly health: HeartbeatHealth; readonly at: number }
  | { readonly type: 'fault'; readonly strategyId: string; readonly message: string; readonly at: number; readonly stack?: string }
  | { readonly type: 'lifecycle'; readonly event: LifecycleEvent }
  /** An order batch handed to the execution edge (not journaled: its timings are metrics). */
  | { readonly type: 'batch'; readonly orders: number; readonly at: number; readonly timings: BatchTimings }
  /** What became of a strategy's basket (a `basket` intent): the journal keeps it. */
  | { readonly type: 'basket'; readonly strategyId: string; readonly event: BasketEvent }
  /** A command applied (or refused), with what it did: the journal keeps it. */
  | { readonly type: 'command'; readonly command: EngineCommand; readonly result: CommandResult; readonly at: number }
  /** The run's health, permission or their reasons changed (health.ts); `previous` is the state before. */
  | { readonly type: 'HealthChanged'; readonly previous: HealthState; readonly state: HealthState; readonly at: number };

/** What the store's journal keeps of the engine's events: all but order batches. */
export type JournaledEvent = Exclude<EngineEvent, { readonly type: 'batch' }>;

/** The engine's halt names, for the events' readers. */
export type { HaltName };
