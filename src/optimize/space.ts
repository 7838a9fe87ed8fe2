import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.ts';
import { checkKeyForm, displayKey, resolveOverrideKey, type ConfigOverride } from '../config/config-overrides.ts';
import { parseYamlSource } from '../config/yaml-source.ts';

/**
 * The search space of `clobot optimize --space <file>`: config keys, each with the values the
 * optimiser may try. A key is any config key path or a strategy parameter, written as `--set`
 * writes it (`mm.size`, `backtest.queueModel`, `risk.maxOrderNotional`). The file:
 *
 * ```yaml
 * params:
 *   mm.halfSpreadTicks: { min: 1, max: 6, step: 1 }       # 1, 2, ... 6
 *   mm.size: { min: 5, max: 100, log: true, step: 5 }      # multiples of 5, searched on a log scale
 *   mm.skew: { min: 0, max: 0.5 }                          # any number in [0, 0.5]
 *   risk.maxOrderNotional: { min: 10, max: 1000, log: true }
 *   backtest.queueModel: { choice: [conservative, optimistic] }
 * ```
 *
 * A range is `min`, `max` (both included) and optionally `step` (the values `min + k·step` up to
 * `max`; integers when `min` and `step` are) and `log: true` (searched on the logarithm of the
 * value: as many tries between 1 and 10 as between 10 and 100; needs `min > 0`). `int: true` is
 * `step: 1`. A choice lists the values, any YAML scalars. Each trial's values are then checked
 * exactly as the YAML config is (a value the config refuses fails that key's check, naming it).
 */
export type SpaceParam = RangeParam | ChoiceParam;

export interface RangeParam {
  readonly kind: 'range';
  /** The key as written in the space file. */
  readonly key: string;
  /** The key's short form (a strategy param as `<id>.<path>`): the name in tables and summaries. */
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** Values are `min + k·step` (undefined: any number). */
  readonly step: number | undefined;
  readonly log: boolean;
}

export interface ChoiceParam {
  readonly kind: 'choice';
  readonly key: string;
  readonly name: string;
  readonly choices: readonly (string | number | boolean)[];
}

export interface SearchSpace {
  readonly params: readonly SpaceParam[];
}

/** One point of the space: each param's value, in the space's order. */
export type SpacePoint = readonly (string | number | boolean)[];

const RANGE_KEYS = new Set(['min', 'max', 'step', 'log', 'int']);

/** Reads and checks a space file; each problem is one line naming `file:line` and the key. */
export function loadSearchSpace(path: string, strategyIds: readonly string[], enabledIds: readonly string[] = strategyIds): SearchSpace {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`--space ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseSearchSpace(text, path, strategyIds, enabledIds);
}

export function parseSearchSpace(text: string, file: string, strategyIds: readonly string[], enabledIds: readonly string[] = strategyIds): SearchSpace {
  const source = parseYamlSource(text);
  const syntax = source.syntax[0];
  if (syntax !== undefined) throw new ConfigError(`${file}:${syntax.line}: ${syntax.message}`);
  const problems: string[] = [];
  const root = source.data;
  if (!isMapping(root) || !isMapping(root['params'])) throw new ConfigError(`${file}: expected a mapping 'params:' of config keys to ranges or choices (see docs/research.md)`);
  for (const k of Object.keys(root)) if (k !== 'params') problems.push(`${k} (${file}:${source.lineOf([k])}): unknown key; the space file has only 'params'`);
  const params: SpaceParam[] = [];
  const names = new Map<string, string>();
  for (const [key, spec] of Object.entries(root['params'])) {
    const where = (message: string): void => {
      problems.push(`params.${key} (${file}:${source.lineOf(['params', key])}): ${message}`);
    };
    try {
      checkKeyForm('--space', key);
    } catch (err) {
      where((err as Error).message.replace(/^--space \S+: /, ''));
      continue;
    }
    const resolved = resolveOverrideKey(key, strategyIds, enabledIds);
    if ('problem' in resolved) {
      where(resolved.problem);
      continue;
    }
    const name = displayKey(key, strategyIds, enabledIds);
    const other = names.get(resolved.path.join('.'));
    if (other !== undefined) {
      where(`the same key as params.${other}`);
      continue;
    }
    names.set(resolved.path.join('.'), key);
    if (!isMapping(spec)) {
      where('expected { min, max } (optionally step, log, int) or { choice: [values] }');
      continue;
    }
    if ('choice' in spec) {
      const choices = spec['choice'];
      const extra = Object.keys(spec).filter((k) => k !== 'choice');
      if (extra.length > 0) where(`a choice has only 'choice'; remove ${extra.join(', ')}`);
      else if (!Array.isArray(choices) || choices.length < 1) where('choice: expected a non-empty list of values');
      else if (choices.some((c) => !['string', 'number', 'boolean'].includes(typeof c))) where('choice: each value must be a scalar (text, number, true/false)');
      else if (new Set(choices.map((c) => JSON.stringify(c))).size !== choices.length) where('choice: a value is listed twice');
      else params.push({ kind: 'choice', key, name, choices: choices as (string | number | boolean)[] });
      continue;
    }
    const unknown = Object.keys(spec).filter((k) => !RANGE_KEYS.has(k));
    if (unknown.length > 0) {
      where(`unknown ${unknown.length === 1 ? 'key' : 'keys'} ${unknown.join(', ')}; a range has min, max, step, log, int; a choice has choice`);
      continue;
    }
    const { min, max, step, log, int } = spec;
    if (!isFiniteNumber(min) || !isFiniteNumber(max)) {
      where(`min and max must be numbers, were ${String(min)} and ${String(max)}`);
      continue;
    }
    if (!(max > min)) {
      where(`max must be greater than min, were min ${min} and max ${max}`);
      continue;
    }
    if (log !== undefined && typeof log !== 'boolean') {
      where(`log must be true or false, was ${JSON.stringify(log)}`);
      continue;
    }
    if (int !== undefined && typeof int !== 'boolean') {
      where(`int must be true or false, was ${JSON.stringify(int)}`);
      continue;
    }
    if (step !== undefined && (!isFiniteNumber(step) || step <= 0)) {
      where(`step must be a number > 0, was ${JSON.stringify(step)}`);
      continue;
    }
    if (int === true && step !== undefined && !Number.isInteger(step)) {
      where(`int: true with a step that is not whole (${String(step)})`);
      continue;
    }
    const s = step ?? (int === true ? 1 : undefined);
    if (int === true && !Number.isInteger(min)) {
      where(`int: true needs a whole min, was ${min}`);
      continue;
    }
    if (log === true && min <= 0) {
      where(`log: true needs min > 0, was ${min}`);
      continue;
    }
    if (s !== undefined && Math.floor((max - min) / s + 1e-9) < 1) {
      where(`step ${s} leaves one value between min ${min} and max ${max}; use a choice or a smaller step`);
      continue;
    }
    params.push({ kind: 'range', key, name, min, max, step: s, log: log === true });
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  if (params.length === 0) throw new ConfigError(`${file}: params: name at least one key to search`);
  return { params };
}

/** The largest value of a stepped range (`min + k·step <= max`). */
export function steppedMax(p: RangeParam): number {
  if (p.step === undefined) return p.max;
  return snap(p, p.min + Math.floor((p.max - p.min) / p.step + 1e-9) * p.step);
}

/**
 * `v` on the range's grid: the nearest `min + k·step`, without float dust (0.1 + 0.2 is 0.3); a
 * range without a step to 6 significant digits (a config value people can read and retype).
 */
export function snap(p: RangeParam, v: number): number {
  if (p.step === undefined) return Math.min(p.max, Math.max(p.min, Number(v.toPrecision(6))));
  const k = Math.round((v - p.min) / p.step);
  const top = Math.floor((p.max - p.min) / p.step + 1e-9);
  const raw = p.min + Math.min(top, Math.max(0, k)) * p.step;
  return Number(raw.toPrecision(12));
}

/** A point's values as config overrides, in the space's order. */
export function pointOverrides(space: SearchSpace, point: SpacePoint): ConfigOverride[] {
  return space.params.map((p, i) => ({ flag: '--space', key: p.key, value: point[i] }));
}

/** A point as people read it: `mm.size=20 backtest.queueModel=optimistic`. */
export function describePoint(space: SearchSpace, point: SpacePoint): string {
  return space.params.map((p, i) => `${p.name}=${String(point[i])}`).join(' ');
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
