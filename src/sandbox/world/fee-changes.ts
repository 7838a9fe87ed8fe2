import { ConfigError, ParameterError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxMarket } from './model.ts';
import type { World } from './world.ts';

/** `SandboxOptions.feeChange`: the venue changes its markets' fee rate once while the sandbox runs. */
export interface FeeChangeOptions {
  /** When, ms after the sandbox starts; absent: no scheduled change (the admin route still works). */
  readonly afterMs?: number;
  /** The new taker (base) fee of the markets changed, basis points. */
  readonly takerBps?: number;
  /** How many open markets change: the first N the venue lists. Default: every market. */
  readonly markets?: number;
}

/** What one fee change did. */
export interface FeeChangeStep {
  readonly conditionId: ConditionId;
  readonly previousTakerBps: number;
  readonly takerBps: number;
  readonly makerBps: number;
}

/** The fee fields of a market, writable: only this file changes them. */
interface FeeFields {
  takerBaseFee: number;
  updatedAt: number;
}

/**
 * A market's fee rate changed while it trades, as the venue does: its base fee (`taker_base_fee`
 * on the market, `base_fee` on `GET /fee-rate`) takes the new value, and taker fills from then
 * on pay it (the matching engine's `setTakerFee`). The maker rate stays (resting buys hold
 * collateral for it). `tick(now)` applies the scheduled change when due; `change` applies one now
 * (the admin route).
 */
export class FeeChanges {
  readonly #world: World;
  readonly #engine: MatchingEngine;
  #due: { at: number; takerBps: number; markets: number } | undefined;

  constructor(world: World, engine: MatchingEngine) {
    this.#world = world;
    this.#engine = engine;
  }

  /** Schedules the options' change (none when `afterMs` is absent). */
  schedule(options: FeeChangeOptions, startMs: number): void {
    checkFeeChangeOptions(options);
    if (options.afterMs === undefined) return;
    this.#due = { at: startMs + options.afterMs, takerBps: options.takerBps!, markets: options.markets ?? Number.MAX_SAFE_INTEGER };
  }

  /** Applies the scheduled change once it is due. */
  tick(now: number): FeeChangeStep[] {
    const due = this.#due;
    if (due === undefined || due.at > now) return [];
    this.#due = undefined;
    const steps: FeeChangeStep[] = [];
    for (const market of this.#world.markets) {
      if (steps.length >= due.markets) break;
      if (market.closed || !market.enableOrderBook) continue;
      steps.push(this.#apply(market, due.takerBps, now));
    }
    return steps;
  }

  /** Changes one market's taker fee now. */
  change(conditionId: ConditionId, takerBps: number, now: number): FeeChangeStep {
    const market = this.#world.marketByConditionId(conditionId);
    if (market === undefined) throw new ParameterError('feeChange', 'conditionId', `no market ${conditionId}`);
    return this.#apply(market, takerBps, now);
  }

  #apply(market: SandboxMarket, takerBps: number, now: number): FeeChangeStep {
    const previousTakerBps = market.takerBaseFee;
    this.#engine.setTakerFee(market.conditionId, takerBps);
    const fields = market as FeeFields;
    fields.takerBaseFee = takerBps;
    fields.updatedAt = now;
    return { conditionId: market.conditionId, previousTakerBps, takerBps, makerBps: market.makerBaseFee };
  }
}

/** Checks the options; a ConfigError names the one that is wrong. */
export function checkFeeChangeOptions(options: FeeChangeOptions): void {
  const int = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`sandbox.feeChange.${name}: must be an integer in ${min}..${max}, was ${value}`);
  };
  int('afterMs', options.afterMs, 0, 30 * 86_400_000);
  int('takerBps', options.takerBps, 0, 10_000);
  int('markets', options.markets, 1, 100_000);
  if (options.afterMs !== undefined && options.takerBps === undefined) throw new ConfigError('sandbox.feeChange.takerBps: required with afterMs (the new taker fee, basis points)');
}
