import { ConfigError, ParameterError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxMarket } from './model.ts';
import { Prng } from './prng.ts';
import type { World } from './world.ts';

/** `SandboxOptions.gameStarts`: sports markets whose game starts while the sandbox runs. */
export interface GameStartOptions {
  /** Open sports markets whose game starts during the run: the first N the venue lists. Default 0. */
  readonly markets?: number;
  /** Their starts fall at seeded times within this long after the sandbox starts, ms. Default 60,000. */
  readonly withinMs?: number;
}

export const DEFAULT_GAME_START_WITHIN_MS = 60_000;
/** Starts fall no sooner than this after the sandbox starts, so a run has time to quote first, ms. */
const MIN_START_OFFSET_MS = 1_000;
/** A sports market's matching delay when it lists none, seconds (the venue holds marketable orders on games). */
export const SPORTS_SECONDS_DELAY = 3;

/** The fields of a market its game start changes (the routes only read them). */
interface GameFields {
  gameStartTime?: number;
  secondsDelay: number;
  updatedAt: number;
}

/** What one game start did. */
export interface GameStartStep {
  readonly conditionId: ConditionId;
  readonly gameStartTime: number;
  /** Resting orders the clear cancelled (every owner's). */
  readonly canceled: number;
}

/**
 * Sports markets' game starts, as the venue handles them: a sports market lists its
 * `game_start_time`, holds marketable orders for its `seconds_delay` (3 s when it listed none),
 * and at the start clears its whole book: every resting order cancelled, whoever placed it.
 * Nothing is pushed to say so; the book is empty until makers quote again (the synthetic flow
 * does, at its pace).
 *
 * Which markets and when is seeded: `schedule` gives the first N open sports markets (topic
 * `sports`, listing order) seeded start times shortly after start; `tick(now)` (on the sandbox
 * clock) clears what is due; `start` does it at once (the admin route).
 */
export class GameStarts {
  readonly #world: World;
  readonly #engine: MatchingEngine;
  /** Markets with a game start this sandbox clears, with whether it did. */
  readonly #scheduled = new Map<ConditionId, { market: SandboxMarket; started: boolean }>();

  constructor(world: World, engine: MatchingEngine) {
    this.#world = world;
    this.#engine = engine;
  }

  /** Gives the first `markets` open sports markets seeded starts in [start + 1 s, start + withinMs]. Returns them. */
  schedule(options: GameStartOptions, startMs: number): SandboxMarket[] {
    checkGameStartOptions(options);
    const count = options.markets ?? 0;
    const withinMs = options.withinMs ?? DEFAULT_GAME_START_WITHIN_MS;
    const rng = Prng.from(this.#world.seed, 'game-starts');
    const chosen: SandboxMarket[] = [];
    for (const market of this.#world.markets) {
      if (chosen.length >= count) break;
      if (market.event.topic !== 'sports' || market.closed || !market.acceptingOrders || !market.enableOrderBook) continue;
      const at = startMs + rng.int(Math.min(MIN_START_OFFSET_MS, withinMs), withinMs);
      this.#list(market, at, startMs);
      chosen.push(market);
    }
    return chosen;
  }

  /** Clears the books of the scheduled markets whose game has started. */
  tick(now: number): GameStartStep[] {
    const steps: GameStartStep[] = [];
    for (const entry of this.#scheduled.values()) {
      const at = entry.market.gameStartTime;
      if (!entry.started && at !== undefined && at <= now) steps.push(this.#clear(entry, now));
    }
    return steps;
  }

  /** Starts a market's game now (a sports market or any other): its start time is now, its book cleared. Once per market. */
  start(conditionId: ConditionId, now: number): GameStartStep {
    const market = this.#world.marketByConditionId(conditionId);
    if (market === undefined) throw new ParameterError('gameStart', 'conditionId', `no market ${conditionId}`);
    let entry = this.#scheduled.get(market.conditionId);
    if (entry?.started === true) throw new ParameterError('gameStart', 'conditionId', `the game of market ${market.conditionId} already started`);
    if (entry === undefined) entry = this.#list(market, now, now);
    else writable(market).gameStartTime = now;
    return this.#clear(entry, now);
  }

  /** Markets with a game start, in listing order. */
  scheduled(): readonly { readonly market: SandboxMarket; readonly started: boolean }[] {
    return [...this.#scheduled.values()];
  }

  #list(market: SandboxMarket, at: number, now: number): { market: SandboxMarket; started: boolean } {
    const fields = writable(market);
    fields.gameStartTime = at;
    if (fields.secondsDelay <= 0) fields.secondsDelay = SPORTS_SECONDS_DELAY;
    fields.updatedAt = now;
    const entry = { market, started: false };
    this.#scheduled.set(market.conditionId, entry);
    return entry;
  }

  #clear(entry: { market: SandboxMarket; started: boolean }, now: number): GameStartStep {
    entry.started = true;
    const { market } = entry;
    const byOwner = new Map<string, string[]>();
    for (const order of this.#engine.openOrders({ conditionId: market.conditionId })) {
      if (order.status !== 'LIVE') continue;
      const ids = byOwner.get(order.owner);
      if (ids) ids.push(order.id);
      else byOwner.set(order.owner, [order.id]);
    }
    let canceled = 0;
    for (const [owner, ids] of byOwner) canceled += this.#engine.cancelOrders(ids, owner, now).canceled.length;
    return { conditionId: market.conditionId, gameStartTime: market.gameStartTime ?? now, canceled };
  }
}

/** Checks the options; a ConfigError names the one that is wrong. */
export function checkGameStartOptions(options: GameStartOptions): void {
  const int = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`sandbox.gameStarts.${name}: must be an integer in ${min}..${max}, was ${value}`);
  };
  int('markets', options.markets, 0, 100_000);
  int('withinMs', options.withinMs, 1, 30 * 86_400_000);
}

/** The game fields of a market, writable: only this file changes them. */
function writable(market: SandboxMarket): GameFields {
  return market;
}
