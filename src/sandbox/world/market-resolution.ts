import { ConfigError, ParameterError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxMarket } from './model.ts';
import { Prng } from './prng.ts';
import type { World } from './world.ts';

/** `SandboxOptions.resolution`: markets that close and resolve while the sandbox runs. */
export interface ResolutionOptions {
  /** Open markets that reach their end date during the run: the first N the venue lists. Default 0. */
  readonly markets?: number;
  /** Their end dates fall at seeded times within this long after the sandbox starts, ms. Default 60,000. */
  readonly withinMs?: number;
  /** A closed market resolves this long after it closed, ms. Default 2,000. */
  readonly resolveAfterMs?: number;
}

export const DEFAULT_RESOLVE_WITHIN_MS = 60_000;
export const DEFAULT_RESOLVE_AFTER_MS = 2_000;
/** End dates fall no sooner than this after start, so a run has time to trade first, ms. */
const MIN_END_OFFSET_MS = 1_000;

/** The fields of a market its lifecycle changes (the routes only read them). */
interface MarketStatus {
  endDate: number;
  updatedAt: number;
  closed: boolean;
  acceptingOrders: boolean;
  enableOrderBook: boolean;
  winnerIndex: 0 | 1 | undefined;
}

/** What one close or resolve did. */
export interface ResolutionStep {
  readonly conditionId: ConditionId;
  readonly closed: boolean;
  /** Outcome index that won; undefined until resolved. */
  readonly winnerIndex: 0 | 1 | undefined;
  /** Open orders the close cancelled (every owner's). */
  readonly canceled: number;
  /** Collateral paid out for winning tokens at resolution, micros. */
  readonly redeemed: number;
}

/**
 * Markets reaching their end date and resolving, as the venue does it: at the end date the market
 * closes (`closed: true`, `accepting_orders: false`, `enable_order_book: false`) and every open
 * order in it is cancelled, whoever placed it; some time later it resolves: one token gets
 * `winner: true` and its holders are paid 1 collateral a share (the sandbox redeems at once what
 * a wallet would redeem on chain), the other token is worth nothing and is burnt.
 *
 * Which markets and when is seeded: `schedule` moves the end dates of the first N open markets
 * the venue lists to seeded times shortly after start, and draws each one's winner from the seed.
 * `tick(now)` (on the sandbox clock) closes and resolves what is due; `close` and `resolve` do it
 * at once (the admin routes). This class is the one writer of a market's status fields; the
 * routes serialise whatever the market holds now.
 */
export class MarketResolutions {
  readonly #world: World;
  readonly #engine: MatchingEngine;
  /** Markets whose end date this lifecycle watches, with the winner drawn for them. */
  readonly #scheduled = new Map<ConditionId, { market: SandboxMarket; winnerIndex: 0 | 1; resolveAt: number | undefined }>();
  #resolveAfterMs = DEFAULT_RESOLVE_AFTER_MS;
  readonly #listeners: (() => void)[] = [];

  constructor(world: World, engine: MatchingEngine) {
    this.#world = world;
    this.#engine = engine;
  }

  /**
   * Gives the first `count` open markets (listing order) end dates at seeded times in
   * [start + 1 s, start + withinMs] and a seeded winner. Returns the markets chosen.
   */
  schedule(options: ResolutionOptions, startMs: number): SandboxMarket[] {
    const count = options.markets ?? 0;
    const withinMs = options.withinMs ?? DEFAULT_RESOLVE_WITHIN_MS;
    this.#resolveAfterMs = options.resolveAfterMs ?? DEFAULT_RESOLVE_AFTER_MS;
    checkResolutionOptions(options);
    const rng = Prng.from(this.#world.seed, 'resolution');
    const chosen: SandboxMarket[] = [];
    for (const market of this.#world.markets) {
      if (chosen.length >= count) break;
      if (market.closed || !market.acceptingOrders || !market.enableOrderBook || this.#scheduled.has(market.conditionId)) continue;
      const endDate = startMs + rng.int(Math.min(MIN_END_OFFSET_MS, withinMs), withinMs);
      const winnerIndex: 0 | 1 = rng.chance(0.5) ? 0 : 1;
      writable(market).endDate = endDate;
      this.#scheduled.set(market.conditionId, { market, winnerIndex, resolveAt: undefined });
      chosen.push(market);
    }
    if (chosen.length > 0) this.#scheduled$();
    return chosen;
  }

  /**
   * One market reaches its end date at `endDate` (its listed end date moves there) and resolves to
   * `winnerIndex` `resolveAfterMs` after it closes (the near-end episodes, flow/near-end-episodes.ts).
   */
  add(conditionId: ConditionId, endDate: number, winnerIndex: 0 | 1, now: number): SandboxMarket {
    const market = this.#market(conditionId);
    if (market.closed) throw new ParameterError('resolution', 'conditionId', `market ${conditionId} is closed already`);
    if (this.#scheduled.has(market.conditionId)) throw new ParameterError('resolution', 'conditionId', `market ${conditionId} is due to resolve already`);
    const status = writable(market);
    status.endDate = endDate;
    status.updatedAt = now;
    this.#scheduled.set(market.conditionId, { market, winnerIndex, resolveAt: undefined });
    this.#scheduled$();
    return market;
  }

  /** Changes the winner a scheduled market will resolve to (before it resolves). */
  setWinner(conditionId: ConditionId, winnerIndex: 0 | 1): void {
    const entry = this.#scheduled.get(this.#market(conditionId).conditionId);
    if (entry === undefined) throw new ParameterError('resolution', 'conditionId', `market ${conditionId} is not due to resolve`);
    if (entry.market.winnerIndex !== undefined) throw new ParameterError('resolution', 'conditionId', `market ${conditionId} resolved already`);
    entry.winnerIndex = winnerIndex;
  }

  /** True when this lifecycle closes the market at its end date. */
  isScheduled(conditionId: ConditionId): boolean {
    return this.#scheduled.has(conditionId);
  }

  /** Calls `listener` whenever markets are scheduled (the sandbox starts checking end dates then). */
  onScheduled(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #scheduled$(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Closes the scheduled markets whose end date has come and resolves those due. */
  tick(now: number): ResolutionStep[] {
    const steps: ResolutionStep[] = [];
    for (const entry of this.#scheduled.values()) {
      const { market } = entry;
      if (!market.closed && market.endDate <= now) steps.push(this.close(market.conditionId, now));
      if (market.closed && market.winnerIndex === undefined && entry.resolveAt !== undefined && entry.resolveAt <= now) {
        steps.push(this.resolve(market.conditionId, entry.winnerIndex, now));
      }
    }
    return steps;
  }

  /**
   * Closes a market now: no new orders, every open order in it cancelled. Closing twice does
   * nothing more. A scheduled market closed before its end date (the admin route) ends now: it
   * resolves `resolveAfterMs` later to its drawn winner, as at its end date.
   */
  close(conditionId: ConditionId, now: number): ResolutionStep {
    const market = this.#market(conditionId);
    let canceled = 0;
    if (!market.closed) {
      const entry = this.#scheduled.get(market.conditionId);
      if (entry !== undefined) entry.resolveAt = now + this.#resolveAfterMs;
      canceled = this.#cancelEveryOrder(market, now);
      this.#engine.setAcceptingOrders(market.conditionId, false);
      const status = writable(market);
      status.closed = true;
      status.acceptingOrders = false;
      status.enableOrderBook = false;
      if (status.endDate > now) status.endDate = now;
      status.updatedAt = now;
    }
    return { conditionId: market.conditionId, closed: true, winnerIndex: market.winnerIndex, canceled, redeemed: 0 };
  }

  /**
   * Resolves a market now (closing it first if it is open): outcome `winnerIndex` pays 1. A market
   * resolves once; resolving it again with another winner is an error.
   */
  resolve(conditionId: ConditionId, winnerIndex: 0 | 1, now: number): ResolutionStep {
    const market = this.#market(conditionId);
    if (market.winnerIndex !== undefined) {
      if (market.winnerIndex !== winnerIndex) throw new ParameterError('resolve', 'winner', `market ${market.conditionId} already resolved to outcome ${market.winnerIndex}`);
      return { conditionId: market.conditionId, closed: true, winnerIndex, canceled: 0, redeemed: 0 };
    }
    const closing = this.close(market.conditionId, now);
    const redeemed = this.#redeem(market, winnerIndex);
    const status = writable(market);
    status.winnerIndex = winnerIndex;
    status.updatedAt = now;
    const entry = this.#scheduled.get(market.conditionId);
    if (entry !== undefined) entry.resolveAt = undefined;
    return { conditionId: market.conditionId, closed: true, winnerIndex, canceled: closing.canceled, redeemed };
  }

  /** Markets this lifecycle closes on their end date, in listing order. */
  scheduled(): readonly SandboxMarket[] {
    return [...this.#scheduled.values()].map((e) => e.market);
  }

  #market(conditionId: ConditionId): SandboxMarket {
    const market = this.#world.marketByConditionId(conditionId);
    if (market === undefined) throw new ParameterError('resolution', 'conditionId', `no market ${conditionId}`);
    return market;
  }

  #cancelEveryOrder(market: SandboxMarket, now: number): number {
    const byOwner = new Map<string, string[]>();
    for (const order of this.#engine.openOrders({ conditionId: market.conditionId })) {
      const ids = byOwner.get(order.owner);
      if (ids) ids.push(order.id);
      else byOwner.set(order.owner, [order.id]);
    }
    let canceled = 0;
    for (const [owner, ids] of byOwner) canceled += this.#engine.cancelOrders(ids, owner, now).canceled.length;
    return canceled;
  }

  /**
   * Pays every holder of the winning token 1 collateral a share and burns both tokens: the
   * market's complete sets become collateral again, so the ledger's conservation still holds.
   */
  #redeem(market: SandboxMarket, winnerIndex: 0 | 1): number {
    const ledger = this.#engine.ledger;
    const winner = market.tokens[winnerIndex].tokenId;
    const loser = market.tokens[winnerIndex === 0 ? 1 : 0].tokenId;
    let paid = 0;
    for (const address of ledger.addresses()) {
      const account = ledger.account(address);
      const won = account.tokens.get(winner);
      if (won !== undefined) {
        const amount = won.free + won.reserved;
        account.collateral += amount;
        paid += amount;
        won.free = 0;
        won.reserved = 0;
      }
      const lost = account.tokens.get(loser);
      if (lost !== undefined) {
        lost.free = 0;
        lost.reserved = 0;
      }
    }
    ledger.adjustCompleteSets(market.conditionId, -paid);
    return paid;
  }
}

/** Checks the options; a ConfigError names the one that is wrong. */
export function checkResolutionOptions(options: ResolutionOptions): void {
  const int = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`sandbox.resolution.${name}: must be an integer in ${min}..${max}, was ${value}`);
  };
  int('markets', options.markets, 0, 100_000);
  int('withinMs', options.withinMs, 1, 30 * 86_400_000);
  int('resolveAfterMs', options.resolveAfterMs, 0, 30 * 86_400_000);
}

/** The status fields of a market, writable: only this file changes them. */
function writable(market: SandboxMarket): MarketStatus {
  return market;
}
