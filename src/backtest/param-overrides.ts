import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../core/errors.ts';

/** One strategy parameter set to a value (a sweep point, or `--set`-like use). */
export interface ParamOverride {
  readonly strategyId: string;
  /** Path inside the strategy's `params`, e.g. ['size'] or ['quote', 'levels']. */
  readonly path: readonly string[];
  readonly value: unknown;
}

/** A swept parameter: where it goes and the values to try, as the user wrote them. */
export interface SweepAxis {
  /** The parameter as written (`mm.size`). */
  readonly name: string;
  readonly strategyId: string;
  readonly path: readonly string[];
  readonly values: readonly unknown[];
  readonly texts: readonly string[];
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Parses `--sweep <param>=<v1>,<v2>,...`. The param is `<strategyId>.<path>` or, when the run has
 * one strategy, just `<path>` (`size`). Values are YAML scalars: `5`, `0.25`, `true`, `abc`.
 */
export function parseSweepAxis(spec: string, strategyIds: readonly string[]): SweepAxis {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`--sweep ${spec}: expected <param>=<v1>,<v2>,... (e.g. mm.size=5,10,20)`);
  const name = spec.slice(0, eq).trim();
  const texts = spec
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  if (texts.length === 0 || texts.some((t) => t === '')) throw new ConfigError(`--sweep ${spec}: every value must be non-empty`);
  const segments = name.split('.');
  if (segments.some((s) => !SEGMENT.test(s))) throw new ConfigError(`--sweep ${spec}: '${name}' is not a parameter path like mm.size`);
  let strategyId: string;
  let path: string[];
  if (strategyIds.includes(segments[0]!) && segments.length > 1) {
    strategyId = segments[0]!;
    path = segments.slice(1);
  } else if (strategyIds.length === 1) {
    strategyId = strategyIds[0]!;
    path = segments;
  } else {
    throw new ConfigError(`--sweep ${spec}: name the strategy first (one of ${strategyIds.join(', ')}), e.g. ${strategyIds[0] ?? 'mm'}.${name}`);
  }
  const values = texts.map((t) => {
    try {
      return parseYaml(t) as unknown;
    } catch {
      return t;
    }
  });
  return { name, strategyId, path, values, texts };
}

/** Every combination of the axes' values, the first axis varying slowest. */
export function sweepGrid(axes: readonly SweepAxis[]): ParamOverride[][] {
  let grid: ParamOverride[][] = [[]];
  for (const axis of axes) {
    const next: ParamOverride[][] = [];
    for (const point of grid) {
      for (const value of axis.values) next.push([...point, { strategyId: axis.strategyId, path: axis.path, value }]);
    }
    grid = next;
  }
  return grid;
}

/** A short, file-name-safe label of a grid point: `mm.size=5_mm.improveTicks=0`. */
export function pointLabel(point: readonly ParamOverride[]): string {
  if (point.length === 0) return 'base';
  return point.map((o) => `${o.strategyId}.${o.path.join('.')}=${String(o.value)}`.replace(/[^A-Za-z0-9_.=+-]/g, '-')).join('_');
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
