import type { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import { FLOW_OWNER_PREFIX } from './flow-accounts.ts';
import { actionsPerSecondIssue, DEFAULT_FLOW_PARAMS, MAX_FLOW_INTENSITY, type FlowParams } from './flow-params.ts';
import { MarketAgent, type AgentEnv, type FlowCounters, type FlowMarket, type FlowTradingMode } from './market-agent.ts';

export interface SyntheticFlowOptions {
  readonly engine: MatchingEngine;
  /** The markets to trade, in a fixed order (the round-robin order). */
  readonly markets: readonly FlowMarket[];
  readonly seed: number;
  /** Venue time: the flow runs on `clock.scheduler` and stamps engine calls with `clock.now()`. */
  readonly clock: Clock;
  /** Scales the action budget and taker arrivals. Default 1; > 0 and at most MAX_FLOW_INTENSITY. */
  readonly intensity?: number;
  readonly params?: Partial<FlowParams>;
  /** The sandbox's trading mode: no takers in `post-only`, only cancels in `cancel-only`. */
  readonly mode?: () => FlowTradingMode;
}

export interface FlowStats extends Readonly<Omit<FlowCounters, 'rejected'>> {
  readonly running: boolean;
  readonly markets: number;
  readonly intensity: number;
  /** The action budget before the intensity (`setActionsPerSecond`); the flow spends this × intensity a second. */
  readonly actionsPerSecond: number;
  readonly rejected: Readonly<Record<string, number>>;
}

/**
 * Synthetic order flow for the sandbox: maker and taker agents (market-agent.ts) trading in the
 * matching engine so books, prices and last trades move. Deterministic for a seed and a sequence
 * of clock times: each market draws from its own seeded stream, markets are visited round-robin
 * in a fixed order, and the number of visits per step follows from the clock alone.
 *
 * Markets are visited round-robin with a stride (`spreadingStride`), so neighbours in the list are
 * not visited in one burst. CPU is bounded: every `stepMs` the flow spends a budget of `actionsPerSecond × intensity`
 * agent actions per second of elapsed time (a visit costs one action plus one per order sent, per
 * cancel call and per trade printed; a visit's work is bounded), so a world of 5,000 markets costs what 200 do;
 * each market is just visited less often. The walk scales with the time since a market's last
 * visit (taker arrivals too, up to `maxTakersPerVisit`). A small world is visited at most
 * `maxVisitsPerMarketPerSecond` per market. At most one second of unspent budget is banked, and
 * an elapsed time above one second (a stalled event loop) counts as one second: the flow
 * catches up by slowing down, never by bursting.
 */
export class SyntheticFlow {
  readonly #env: AgentEnv;
  readonly #clock: Clock;
  readonly #markets: readonly FlowMarket[];
  readonly #agents: (MarketAgent | undefined)[];
  readonly #mode: () => FlowTradingMode;
  /** The budget before the intensity. */
  #baseActionsPerSecond: number;
  #actionsPerSecond: number;
  readonly #maxVisitsPerSecond: number;
  #cursor = 0;
  /** The round-robin's step through the market list (coprime with its length: every market once a cycle). */
  readonly #stride: number;
  /** Unspent actions (negative: a costly visit borrowed from the next step). */
  #carry = 0;
  #visitCarry = 0;
  #lastStepMs = 0;
  #orderSeq = 0;
  #timer: Subscription | undefined;

  constructor(options: SyntheticFlowOptions) {
    const intensity = options.intensity ?? 1;
    if (!(intensity > 0 && intensity <= MAX_FLOW_INTENSITY)) {
      throw new ConfigError(`sandbox.flow.intensity: must be > 0 and <= ${MAX_FLOW_INTENSITY}, was ${intensity}`);
    }
    const params: FlowParams = { ...DEFAULT_FLOW_PARAMS, ...options.params };
    if (!(params.stepMs > 0)) throw new ConfigError(`sandbox.flow.stepMs: must be > 0, was ${params.stepMs}`);
    const budgetIssue = actionsPerSecondIssue(params.actionsPerSecond);
    if (budgetIssue !== undefined) throw new ConfigError(`sandbox.flow.actionsPerSecond: ${budgetIssue}`);
    this.#clock = options.clock;
    this.#markets = options.markets;
    this.#agents = new Array<MarketAgent | undefined>(options.markets.length).fill(undefined);
    this.#mode = options.mode ?? (() => 'normal');
    this.#baseActionsPerSecond = params.actionsPerSecond;
    this.#actionsPerSecond = params.actionsPerSecond * intensity;
    this.#maxVisitsPerSecond = params.maxVisitsPerMarketPerSecond * options.markets.length;
    this.#stride = spreadingStride(options.markets.length);
    const counters: FlowCounters = {
      actions: 0,
      visits: 0,
      makerOrders: 0,
      takerOrders: 0,
      cancels: 0,
      cancelCalls: 0,
      trades: 0,
      deposits: 0,
      rejected: {},
    };
    this.#env = {
      engine: options.engine,
      params,
      intensity,
      seed: options.seed,
      counters,
      nextOrderId: () => `${FLOW_OWNER_PREFIX}o${++this.#orderSeq}`,
    };
  }

  get running(): boolean {
    return this.#timer !== undefined;
  }

  /** Starts stepping every `stepMs` on the clock's scheduler (no-op when running). */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#lastStepMs = this.#clock.now();
    this.#schedule();
  }

  /**
   * One fresh action per step rather than an action that reschedules itself: a virtual-time
   * scheduler chains every rescheduled action to the one before, which grows without bound.
   */
  #schedule(): void {
    this.#timer = this.#clock.scheduler.schedule(() => {
      if (this.#timer === undefined) return;
      this.#step(this.#clock.now());
      if (this.#timer !== undefined) this.#schedule();
    }, this.#env.params.stepMs);
  }

  /** Stops stepping; resting maker orders stay on the book. */
  stop(): void {
    const timer = this.#timer;
    this.#timer = undefined;
    timer?.unsubscribe();
  }

  /**
   * Changes the action budget (before the intensity) from the next step on: how fast the flow
   * moves books across a large world (`--flow-actions-per-second`, `POST /admin/flow`).
   */
  setActionsPerSecond(n: number): void {
    const issue = actionsPerSecondIssue(n);
    if (issue !== undefined) throw new ConfigError(`actionsPerSecond: ${issue}`);
    this.#baseActionsPerSecond = n;
    this.#actionsPerSecond = n * this.#env.intensity;
    this.#carry = Math.min(this.#carry, this.#actionsPerSecond);
  }

  /**
   * News in one market: its latent probability moves by `dp` (the maker re-centres at its next
   * visit, takers trade towards it); false when the flow does not trade the market or has not yet
   * visited it.
   */
  nudge(conditionId: string, dp: number): boolean {
    const i = this.#markets.findIndex((m) => m.conditionId === conditionId);
    return i >= 0 && this.#agents[i]?.nudge(dp) === true;
  }

  /** The agent of the market at `i` in the options' list, once it has been visited. */
  agent(i: number): MarketAgent | undefined {
    return this.#agents[i];
  }

  stats(): FlowStats {
    const c = this.#env.counters;
    return {
      running: this.running,
      markets: this.#markets.length,
      intensity: this.#env.intensity,
      actionsPerSecond: this.#baseActionsPerSecond,
      actions: c.actions,
      visits: c.visits,
      makerOrders: c.makerOrders,
      takerOrders: c.takerOrders,
      cancels: c.cancels,
      cancelCalls: c.cancelCalls,
      trades: c.trades,
      deposits: c.deposits,
      rejected: { ...c.rejected },
    };
  }

  #step(now: number): void {
    const n = this.#markets.length;
    const elapsedSec = Math.min(1, Math.max(0, now - this.#lastStepMs) / 1000);
    this.#lastStepMs = now;
    if (n === 0) return;
    this.#carry = Math.min(this.#carry + this.#actionsPerSecond * elapsedSec, this.#actionsPerSecond);
    this.#visitCarry = Math.min(this.#visitCarry + this.#maxVisitsPerSecond * elapsedSec, this.#maxVisitsPerSecond);
    const mode = this.#mode();
    while (this.#carry >= 1 && this.#visitCarry >= 1) {
      const i = this.#cursor;
      this.#cursor = (i + this.#stride) % n;
      let agent = this.#agents[i];
      if (agent === undefined) {
        agent = new MarketAgent(this.#markets[i] as FlowMarket, this.#env.seed);
        this.#agents[i] = agent;
      }
      this.#carry -= agent.visit(this.#env, now, mode);
      this.#visitCarry -= 1;
    }
  }
}

/**
 * A step through `n` markets that visits each once per cycle and puts consecutive visits far apart
 * in the list (about n × 0.618, the next one coprime with n): the markets one WS connection holds
 * (consecutive in the list) are visited all through the cycle rather than in one burst, as a
 * venue's activity is spread over its markets.
 */
function spreadingStride(n: number): number {
  if (n <= 2) return 1;
  let s = Math.max(1, Math.round(n * 0.618));
  while (gcd(s, n) !== 1) s++;
  return s;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
