import { ConfigError } from '../core/errors.ts';
import type { OrderRequest } from '../core/intents.ts';
import { CHECKS } from './checks/index.ts';
import { basketEventCap } from './checks/basket-event-cap.ts';
import { deny } from './deny.ts';
import { engineGates } from './engine-gates.ts';
import {
  CHECK_DENY_CODE,
  CHECK_NAMES,
  DEFAULT_CHECK_ORDER,
  DENY_CODES,
  type CheckName,
  type Denial,
  type DenyCode,
  type RiskCheck,
  type RiskLimits,
  type RiskOpenOrder,
  type RiskState,
} from './types.ts';

export interface RiskEngineOptions {
  /**
   * The optional checks to run, in order; default DEFAULT_CHECK_ORDER. A check not listed never
   * runs; the engine gates run whatever this says.
   */
  readonly checks?: readonly CheckName[];
  readonly limits: RiskLimits;
}

/** Limits counted in Micros (collateral or shares). */
const MICROS_LIMITS = [
  'maxOrderNotional',
  'maxPositionPerToken',
  'maxPositionPerMarket',
  'maxGrossExposure',
  'maxNegRiskEventExposure',
  'dailyLossLimit',
] as const satisfies readonly (keyof RiskLimits)[];
/** Limits counted in whole things (orders, rejects). */
const COUNT_LIMITS = ['maxOpenOrders', 'maxOrdersPerSecond', 'maxConsecutiveRejects'] as const satisfies readonly (keyof RiskLimits)[];
const MS_LIMITS = ['staleBookMs'] as const satisfies readonly (keyof RiskLimits)[];
const KNOWN_LIMITS: readonly (keyof RiskLimits)[] = [...MICROS_LIMITS, ...COUNT_LIMITS, ...MS_LIMITS];

/**
 * Runs the engine gates (engine-gates.ts: halt, heartbeat, reconciling; always, whatever the
 * config), then the configured checks, over one order request against a state snapshot; the
 * first denial wins. Pure apart from the per-code denial counters. A check that throws (a malformed number in
 * the state, a bug) denies with that check's own code: risk fails closed.
 */
export class RiskEngine {
  /** The checks this engine runs, in order. */
  readonly checkOrder: readonly CheckName[];
  readonly limits: Readonly<RiskLimits>;
  readonly #checks: readonly RiskCheck[];
  readonly #counts: Record<DenyCode, number>;

  /** Throws ConfigError naming the key on an unknown or repeated check or a bad limit value. */
  constructor(opts: RiskEngineOptions) {
    this.checkOrder = Object.freeze([...validateChecks(opts.checks ?? DEFAULT_CHECK_ORDER)]);
    this.limits = Object.freeze(validateLimits(opts.limits));
    this.#checks = this.checkOrder.map((name) => CHECKS[name]);
    this.#counts = zeroCounts();
  }

  /** The first denial in configured order, or undefined when every check allows the order. */
  check(req: OrderRequest, state: RiskState): Denial | undefined {
    const denial = this.#evaluate(req, state);
    if (denial !== undefined) this.#counts[denial.code]++;
    return denial;
  }

  /**
   * Checks requests in sequence, one result per request (same index). Each accepted request is
   * added to a working copy of the state's open orders (resting its full size) and recent order
   * times (at `state.now`), so a batch cannot jointly break a limit its orders pass one by one
   * (open orders, order rate, self-cross, positions, exposure). `state` is not modified.
   */
  checkBatch(reqs: readonly OrderRequest[], state: RiskState): (Denial | undefined)[] {
    const working = new BatchState(state);
    const results: (Denial | undefined)[] = [];
    for (const req of reqs) {
      const denial = this.check(req, working);
      results.push(denial);
      if (denial === undefined) working.accepted(req);
    }
    return results;
  }

  /**
   * Checks a basket's legs as one: undefined when every leg may go, else ONE denial for the
   * whole basket (counted once; its message names the leg). The engine gates run for every leg
   * first, then the basket's joint event cap (`negRiskExposure` configured: BASKET_EVENT_CAP,
   * every leg filled), then the configured checks leg by leg with the earlier legs added to a
   * working copy of the state as resting orders, as `checkBatch` does: the worst case over the
   * legs (all of them filling) is what each check sees.
   */
  checkBasket(legs: readonly OrderRequest[], state: RiskState): Denial | undefined {
    const denial = this.#evaluateBasket(legs, state);
    if (denial !== undefined) this.#counts[denial.code]++;
    return denial;
  }

  #evaluateBasket(legs: readonly OrderRequest[], state: RiskState): Denial | undefined {
    const label = (i: number, d: Denial): Denial => deny(d.code, d.check, `basket leg ${i} (token ${legs[i]!.tokenId}): ${d.message}`);
    for (let i = 0; i < legs.length; i++) {
      const gated = engineGates(legs[i]!, state);
      if (gated !== undefined) return label(i, gated);
    }
    if (this.checkOrder.includes('negRiskExposure')) {
      try {
        const capped = basketEventCap(legs, state, this.limits);
        if (capped !== undefined) return capped;
      } catch (err) {
        return deny('BASKET_EVENT_CAP', 'negRiskExposure', `basket event cap failed closed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const working = new BatchState(state);
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i]!;
      const denial = this.#evaluate(leg, working);
      if (denial !== undefined) return label(i, denial);
      working.accepted(leg);
    }
    return undefined;
  }

  /** Denials so far by code (every code present, 0 when never seen); a frozen copy. */
  counts(): Readonly<Record<DenyCode, number>> {
    return Object.freeze({ ...this.#counts });
  }

  /** Sets every counter back to 0 (e.g. at the start of a trading day). */
  resetCounts(): void {
    for (const code of DENY_CODES) this.#counts[code] = 0;
  }

  #evaluate(req: OrderRequest, state: RiskState): Denial | undefined {
    const gated = engineGates(req, state);
    if (gated !== undefined) return gated;
    const checks = this.#checks;
    for (let i = 0; i < checks.length; i++) {
      const name = this.checkOrder[i] as CheckName;
      let denial: Denial | undefined;
      try {
        denial = (checks[i] as RiskCheck)(req, state, this.limits);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        denial = deny(CHECK_DENY_CODE[name], name, `${name} failed closed: ${reason}`);
      }
      if (denial !== undefined) return denial;
    }
    return undefined;
  }
}

/**
 * The working copy of a batch's state: its own open orders and order times, the rest read
 * through. A class rather than an object literal with a getter (each literal with an accessor
 * builds its own accessor pair and leaves checks reading a fresh shape); `dailyPnl` is still
 * read from the taken state only when a check asks (computing it walks the portfolio), and the
 * open orders are copied only when a check first reads them (the default checks of a taker
 * batch read none): until then the accepted requests wait in a list of their own.
 */
class BatchState implements RiskState {
  readonly now: number;
  readonly markets: RiskState['markets'];
  /** The taken open orders and the batch's accepted ones, once a check has read them. */
  #openOrders: RiskOpenOrder[] | undefined;
  /** Requests accepted before any check read the open orders. */
  readonly #acceptedBefore: OrderRequest[] = [];
  readonly positions: RiskState['positions'];
  readonly recentOrderTimes: number[];
  readonly consecutiveRejects: number;
  readonly heartbeat: RiskState['heartbeat'];
  readonly manualHalt: boolean;
  readonly haltReason: string | undefined;
  readonly reconciling: RiskState['reconciling'];
  readonly cleared: RiskState['cleared'];
  readonly venueState: RiskState['venueState'];
  readonly outside: RiskState['outside'];
  readonly strategyCost: RiskState['strategyCost'];
  readonly #taken: RiskState;

  constructor(taken: RiskState) {
    this.#taken = taken;
    this.now = taken.now;
    this.markets = taken.markets;
    this.positions = taken.positions;
    this.recentOrderTimes = [...taken.recentOrderTimes];
    this.consecutiveRejects = taken.consecutiveRejects;
    this.heartbeat = taken.heartbeat;
    this.manualHalt = taken.manualHalt;
    this.haltReason = taken.haltReason;
    this.reconciling = taken.reconciling;
    this.cleared = taken.cleared;
    this.venueState = taken.venueState;
    this.outside = taken.outside;
    this.strategyCost = taken.strategyCost;
  }

  get openOrders(): readonly RiskOpenOrder[] {
    if (this.#openOrders === undefined) {
      const open = [...this.#taken.openOrders];
      for (const req of this.#acceptedBefore) open.push(restingOf(req));
      this.#openOrders = open;
    }
    return this.#openOrders;
  }

  /** An order of the batch passed: it rests its full size, sent now, for the checks of the next. */
  accepted(req: OrderRequest): void {
    if (this.#openOrders === undefined) this.#acceptedBefore.push(req);
    else this.#openOrders.push(restingOf(req));
    this.recentOrderTimes.push(this.now);
  }

  get dailyPnl(): number {
    return this.#taken.dailyPnl;
  }
}

/** An accepted request as an open order resting its full size. */
function restingOf(req: OrderRequest): RiskOpenOrder {
  return { clientOrderId: req.clientOrderId, strategyId: req.strategyId, tokenId: req.tokenId, conditionId: req.conditionId, side: req.side, price: req.price, remaining: req.size };
}

function zeroCounts(): Record<DenyCode, number> {
  const counts = {} as Record<DenyCode, number>;
  for (const code of DENY_CODES) counts[code] = 0;
  return counts;
}

function validateChecks(checks: readonly string[]): CheckName[] {
  const known: ReadonlySet<string> = new Set(CHECK_NAMES);
  const seen = new Set<string>();
  checks.forEach((name, i) => {
    if (!known.has(name)) {
      throw new ConfigError(`risk.checks[${i}]: unknown check '${name}', expected one of ${CHECK_NAMES.join(', ')}`);
    }
    if (seen.has(name)) throw new ConfigError(`risk.checks[${i}]: check '${name}' listed twice`);
    seen.add(name);
  });
  return [...checks] as CheckName[];
}

/**
 * Checks each limit and returns a copy holding only the limit keys, so a config's whole `risk`
 * section (with `checks`, `haltFile`, ...) can be passed as is; the config loader is the one
 * that rejects unknown keys, with the file and line.
 */
function validateLimits(limits: RiskLimits): RiskLimits {
  const fail = (key: string, rule: string, value: unknown): never => {
    throw new ConfigError(`risk.limits.${key}: must be ${rule}, was ${String(value)}`);
  };
  for (const key of MICROS_LIMITS) {
    const v = limits[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) fail(key, 'a whole number of micros >= 0', v);
  }
  for (const key of COUNT_LIMITS) {
    const v = limits[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) fail(key, 'a whole number >= 0', v);
  }
  for (const key of MS_LIMITS) {
    const v = limits[key];
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) fail(key, 'a finite number of ms >= 0', v);
  }
  const copy: Record<string, unknown> = {};
  for (const key of KNOWN_LIMITS) if (limits[key] !== undefined) copy[key] = limits[key];
  if (limits.strategyBudgets !== undefined) {
    for (const [id, v] of Object.entries(limits.strategyBudgets)) {
      if (!(Number.isSafeInteger(v) && v >= 0)) throw new ConfigError(`strategies[${id}].budget: must be a whole number of micros >= 0, was ${String(v)}`);
    }
    copy['strategyBudgets'] = Object.freeze({ ...limits.strategyBudgets });
  }
  return copy;
}
