import { ConfigError } from '../core/errors.ts';
import { checkKeyForm, displayKey, parseOverrideValue, resolveOverrideKey, type ConfigOverride } from '../config/config-overrides.ts';

/**
 * One strategy parameter set to a value, for a run started in code (`runBacktest({ overrides })`).
 * The command line's `--set` and `--sweep` set any config key instead (config-overrides.ts).
 */
export interface ParamOverride {
  readonly strategyId: string;
  /** Path inside the strategy's `params`, e.g. ['size'] or ['quote', 'levels']. */
  readonly path: readonly string[];
  readonly value: unknown;
}

/** A swept key: the values to try, as the user wrote them. */
export interface SweepAxis {
  /** The key's short form: a strategy parameter as `<id>.<path>` (`mm.size`), any other key as written (`backtest.queueModel`). */
  readonly name: string;
  readonly values: readonly unknown[];
  readonly texts: readonly string[];
}

/**
 * Parses `--sweep <key>=<v1>,<v2>,...`. The key is any config key path (`backtest.queueModel`,
 * `strategies.mm.params.size`) or a strategy parameter, `<strategyId>.<path>` or, when the run has
 * one strategy, just `<path>` (`size`); see config-overrides.ts. Values are YAML scalars: `5`,
 * `0.25`, `true`, `abc`. Each point's values are checked later exactly as the YAML is.
 */
export function parseSweepAxis(spec: string, strategyIds: readonly string[], enabledIds: readonly string[] = strategyIds): SweepAxis {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`--sweep ${spec}: expected <key>=<v1>,<v2>,... (e.g. mm.size=5,10,20 or backtest.queueModel=conservative,optimistic)`);
  const key = spec.slice(0, eq).trim();
  const texts = spec
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  if (texts.length === 0 || texts.some((t) => t === '')) throw new ConfigError(`--sweep ${spec}: every value must be non-empty`);
  checkKeyForm('--sweep', key);
  const resolved = resolveOverrideKey(key, strategyIds, enabledIds);
  if ('problem' in resolved) throw new ConfigError(`${key} (--sweep ${key}): ${resolved.problem}`);
  return { name: displayKey(key, strategyIds, enabledIds), values: texts.map(parseOverrideValue), texts };
}

/** Every combination of the axes' values, the first axis varying slowest. */
export function sweepGrid(axes: readonly SweepAxis[]): ConfigOverride[][] {
  let grid: ConfigOverride[][] = [[]];
  for (const axis of axes) {
    const next: ConfigOverride[][] = [];
    for (const point of grid) {
      for (const value of axis.values) next.push([...point, { flag: '--sweep', key: axis.name, value }]);
    }
    grid = next;
  }
  return grid;
}

/** A short, file-name-safe label of a grid point: `mm.size=5_backtest.queueModel=optimistic`. */
export function pointLabel(point: readonly ConfigOverride[]): string {
  if (point.length === 0) return 'base';
  return point.map((o) => `${o.key}=${String(o.value)}`.replace(/[^A-Za-z0-9_.=+-]/g, '-')).join('_');
}

/** A copy of `params` with the overrides of one strategy applied (nested objects created as needed). */
export function applyOverrides(strategyId: string, params: Readonly<Record<string, unknown>>, overrides: readonly ParamOverride[]): Record<string, unknown> {
  const out = structuredClone(params) as Record<string, unknown>;
  for (const o of overrides) {
    if (o.strategyId !== strategyId) continue;
    let node: Record<string, unknown> = out;
    for (const key of o.path.slice(0, -1)) {
      const child = node[key];
      if (typeof child !== 'object' || child === null || Array.isArray(child)) {
        const fresh: Record<string, unknown> = {};
        node[key] = fresh;
        node = fresh;
      } else {
        node = child as Record<string, unknown>;
      }
    }
    node[o.path[o.path.length - 1]!] = o.value;
  }
  return out;
}
