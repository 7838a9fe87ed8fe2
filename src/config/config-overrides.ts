import { ConfigError } from '../core/errors.ts';
import type { ConfigIssue } from './config-issue.ts';
import { parseYamlSource, type KeyPath } from './yaml-source.ts';

/**
 * A config key set from the command line for one run (`--set backtest.queueModel=optimistic`) or
 * one sweep point (`--sweep bq.size=5,10`). It is applied to the file's data before anything is
 * checked, so it goes through the same schema, the same strategy params check and the same
 * messages as the YAML, the location naming the flag instead of a line.
 *
 * A key is a dotted path:
 * - of the config (`backtest.queueModel`, `risk.maxOrderNotional`, `strategies.bq.params.size`:
 *   under `strategies` the segment after it is a strategy's id);
 * - or a strategy parameter: `bq.size` (`<strategyId>.<path in params>`) or, when the config has
 *   one strategy, just `size`.
 * Plain JSON: a job carries its overrides to a worker.
 */
export interface ConfigOverride {
  /** The flag it came from, for messages. */
  readonly flag: '--set' | '--sweep' | '--space';
  /** The key as written (`backtest.queueModel`, `bq.size`, `size`). */
  readonly key: string;
  /** A YAML value: `5`, `0.25`, `true`, `abc`, `[1, 2]`. */
  readonly value: unknown;
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The config file's top-level keys: a key starting with one of them is a config key. */
const SECTIONS: readonly string[] = ['mode', 'name', 'venue', 'account', 'data', 'strategies', 'risk', 'execution', 'logging', 'store', 'paper', 'backtest'];

/**
 * A value as YAML reads it, numbers kept exact as the config loader keeps them (a 77-digit token
 * id stays text). Text that is not valid YAML is the text itself.
 */
export function parseOverrideValue(text: string): unknown {
  const src = parseYamlSource(text);
  return src.syntax.length > 0 ? text : src.data;
}

/** Parses `--set <key>=<value>`; throws ConfigError naming the flag when the form is wrong. */
export function parseSet(spec: string): ConfigOverride {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new ConfigError(`--set ${spec}: expected <key>=<value> (e.g. backtest.queueModel=optimistic or mm.size=5)`);
  const key = spec.slice(0, eq).trim();
  checkKeyForm('--set', key);
  return { flag: '--set', key, value: parseOverrideValue(spec.slice(eq + 1).trim()) };
}

/** Throws when `key` is not a dotted path of names. */
export function checkKeyForm(flag: ConfigOverride['flag'], key: string): void {
  if (key === '' || key.split('.').some((s) => !SEGMENT.test(s))) {
    throw new ConfigError(`${flag} ${key}: '${key}' is not a key path like backtest.queueModel or mm.size`);
  }
}

/**
 * Where `key` goes, as path segments with a strategy named by its id (`['strategies', 'bq',
 * 'params', 'size']`), given the config's strategy ids; or the problem, as one sentence.
 */
export function resolveOverrideKey(key: string, strategyIds: readonly string[], enabledIds: readonly string[] = strategyIds): { path: string[] } | { problem: string } {
  const segments = key.split('.');
  const first = segments[0]!;
  const isSection = SECTIONS.includes(first);
  const isStrategy = strategyIds.includes(first) && segments.length > 1;
  if (isSection && isStrategy) {
    return { problem: `'${first}' is both a config section and a strategy id; write strategies.${first}.params.${segments.slice(1).join('.')} for the parameter` };
  }
  if (isSection) {
    if (first === 'strategies') {
      const id = segments[1];
      if (id === undefined || segments.length < 3) return { problem: `name a strategy and its key, e.g. strategies.${strategyIds[0] ?? 'mm'}.params.size` };
      if (!strategyIds.includes(id)) return { problem: `no strategy '${id}' in strategies (${strategyIds.length > 0 ? `ids: ${strategyIds.join(', ')}` : 'the config has none'})` };
    }
    return { path: segments };
  }
  if (isStrategy) return { path: ['strategies', first, 'params', ...segments.slice(1)] };
  if (enabledIds.length === 1) return { path: ['strategies', enabledIds[0]!, 'params', ...segments] };
  if (strategyIds.length === 0) return { problem: `not a config section (${SECTIONS.join(', ')}) and the config has no strategy` };
  return { problem: `not a config section (${SECTIONS.join(', ')}) nor a strategy id; name the strategy first (one of ${strategyIds.join(', ')}), e.g. ${strategyIds[0]}.${key}` };
}

/** The short display form of a key: a strategy parameter as `<id>.<path>`, any other key as written. */
export function displayKey(key: string, strategyIds: readonly string[], enabledIds: readonly string[] = strategyIds): string {
  const r = resolveOverrideKey(key, strategyIds, enabledIds);
  if ('problem' in r) return key;
  const p = r.path;
  return p[0] === 'strategies' && p[2] === 'params' && !SECTIONS.includes(p[1]!) ? [p[1], ...p.slice(3)].join('.') : p.join('.');
}

/** The result of applying overrides to a file's data. */
export interface AppliedOverrides {
  /** A copy of the data with every override set. */
  readonly data: unknown;
  /** Problems that stopped an override (an unknown strategy, a value where a mapping must be). */
  readonly issues: ConfigIssue[];
  /** The override that set `path` or a key above it, as `--set backtest.queueModel`; undefined when the file did. */
  readonly origin: (path: KeyPath) => string | undefined;
}

/**
 * Sets each override in a copy of `data` (the parsed file, a mapping), in order: a later one wins.
 * Missing mappings on the way are created; a strategy is found by its `id` in `strategies`.
 */
export function applyConfigOverrides(data: Record<string, unknown>, overrides: readonly ConfigOverride[]): AppliedOverrides {
  const out = structuredClone(data);
  const issues: ConfigIssue[] = [];
  const set: { path: KeyPath; label: string }[] = [];
  const strategies = out['strategies'];
  const list = Array.isArray(strategies) ? (strategies as unknown[]) : [];
  const entries = list.filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null && typeof (s as Record<string, unknown>)['id'] === 'string');
  const ids = entries.map((s) => s['id'] as string);
  const enabled = entries.filter((s) => s['enabled'] !== false).map((s) => s['id'] as string);
  for (const o of overrides) {
    const label = `${o.flag} ${o.key}`;
    const resolved = resolveOverrideKey(o.key, ids, enabled);
    if ('problem' in resolved) {
      issues.push({ path: o.key.split('.'), message: resolved.problem, origin: label });
      continue;
    }
    const path: (string | number)[] = [...resolved.path];
    if (path[0] === 'strategies') path[1] = list.findIndex((s) => (s as Record<string, unknown> | null)?.['id'] === path[1]);
    let node: Record<string | number, unknown> = out;
    let stopped = false;
    let created: KeyPath | undefined;
    for (let i = 0; i < path.length - 1; i++) {
      const seg = path[i]!;
      const child = node[seg];
      if (child === undefined || child === null) {
        const fresh: Record<string, unknown> = {};
        node[seg] = fresh;
        node = fresh;
        // the mapping is the flag's: a problem with it (an unknown key) names the flag
        created ??= path.slice(0, i + 1);
      } else if (typeof child === 'object') {
        node = child as Record<string | number, unknown>;
      } else {
        issues.push({ path: path.slice(0, i + 1), message: `holds a value, not a mapping, so ${o.key} cannot be set`, origin: label });
        stopped = true;
        break;
      }
    }
    if (stopped) continue;
    node[path[path.length - 1]!] = o.value;
    set.push({ path: created ?? path, label });
  }
  const origin = (path: KeyPath): string | undefined => {
    for (let n = set.length - 1; n >= 0; n--) {
      const s = set[n]!;
      if (s.path.length <= path.length && s.path.every((seg, i) => seg === path[i])) return s.label;
    }
    return undefined;
  };
  return { data: out, issues, origin };
}
