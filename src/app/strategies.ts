import { ConfigError } from '../core/errors.ts';
import type { RunConfig, StrategyConfig } from '../config/run-config.ts';
import { applyOverrides, type ParamOverride } from '../backtest/param-overrides.ts';
import type { StrategyDefinition } from '../strategy/api.ts';
import { loadStrategy, type LoadedStrategy } from '../strategy/loader.ts';

export interface RunStrategy {
  readonly config: StrategyConfig;
  /** Where the strategy sits in the config's `strategies` (for messages). */
  readonly index: number;
  readonly loaded: LoadedStrategy;
}

export interface LoadRunStrategiesOptions {
  /** Strategy parameters set for this run (a sweep point). */
  readonly overrides?: readonly ParamOverride[];
  /** Definitions by strategy id, instead of importing the config's modules (tests). */
  readonly definitions?: Readonly<Record<string, StrategyDefinition>>;
}

/**
 * The config's enabled strategies, each loaded by the strategy loader (module, definition check,
 * params parsed with any override applied): what live, paper and backtest runs trade. Refuses a
 * config without an enabled strategy and an override naming none of them.
 */
export async function loadRunStrategies(config: RunConfig, options: LoadRunStrategiesOptions = {}): Promise<RunStrategy[]> {
  const enabled = config.strategies.filter((s) => s.enabled);
  if (enabled.length === 0) throw new ConfigError(`strategies (${config.source.file}): no enabled strategy`);
  for (const o of options.overrides ?? []) {
    if (!enabled.some((s) => s.id === o.strategyId)) throw new ConfigError(`--sweep ${o.strategyId}.${o.path.join('.')}: no enabled strategy '${o.strategyId}'`);
  }
  const out: RunStrategy[] = [];
  for (const [index, s] of config.strategies.entries()) {
    if (!s.enabled) continue;
    const loaded = await loadStrategy(s, {
      definition: options.definitions?.[s.id],
      params: options.overrides ? applyOverrides(s.id, s.params, options.overrides) : undefined,
    });
    out.push({ config: s, index, loaded });
  }
  return out;
}
