import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { parseSet, type ConfigOverride } from '../config/config-overrides.ts';
import { parseRedisUrl, type RedisTarget } from '../core/redis-url.ts';
import { readTime, TIME_FORMS } from '../config/window-time.ts';
import { isObjectiveName, OBJECTIVE_NAMES } from '../backtest/objectives.ts';

/** Commander value parsers that reject bad values with one line naming the value. */
export function parseIntOption(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!(min < 0 ? /^-?\d+$/ : /^\d+$/).test(value)) throw new InvalidArgumentError(`expected an integer, got '${value}'`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected ${min}..${max}, got ${n}`);
    return n;
  };
}

export function parseUrlOption(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return value.replace(/\/+$/, '');
  } catch {
    throw new InvalidArgumentError(`expected an http(s) URL, got '${value}'`);
  }
}

/** A file or folder path: an empty value (`--store ''`, an unset variable) is refused, not ignored. */
export function parsePathOption(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a path, got an empty value');
  return value;
}

/**
 * A file to write after a run (`--summary`): an existing folder is refused at once, naming a file
 * path to give instead, so a long run never ends with nowhere to write.
 */
export function parseOutputFileOption(value: string): string {
  const path = parsePathOption(value);
  if (path.endsWith('/') || (existsSync(path) && statSync(path).isDirectory())) {
    throw new InvalidArgumentError(`'${value}' is a folder; give a file path, e.g. ${join(value, 'summary.json')}`);
  }
  return path;
}

/** The longest `--duration`: 100 years (timers wait in chunks, see core/long-timer.ts). */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/** Durations like `90`, `90s`, `5m`, `1h`, `30d`, `250ms` to milliseconds, at most 100 years. */
export function parseDurationOption(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected a duration like 30s, 5m, 1h or 7d, got '${value}'`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000;
  const ms = Math.round(n * factor);
  // a run or recording of no time would start everything only to stop it at once
  if (ms <= 0) throw new InvalidArgumentError(`expected a duration above zero, got '${value}'`);
  if (!(ms <= MAX_DURATION_MS)) throw new InvalidArgumentError(`expected a duration of at most 100 years (36500d), got '${value}'`);
  return ms;
}

/** The help text of `--set`, the same on every command that takes it. */
export const SET_HELP = 'set a config key for this run, checked as the YAML is: backtest.queueModel=optimistic, risk.maxOrderNotional=50, mm.size=5 (a strategy param; repeatable)';

/** Collects repeated `--set <key>=<value>` flags, each checked for its form (the value is checked with the config). */
export function collectSet(value: string, previous: ConfigOverride[] = []): ConfigOverride[] {
  try {
    return [...previous, parseSet(value)];
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message.replace(/^--set [^:]*: /, '') : String(err));
  }
}

/** `--queue redis://host:port[/db]`: the Redis of a sweep queue (the password never echoed back). */
export function parseQueueOption(value: string): RedisTarget {
  try {
    return parseRedisUrl(value, '--queue');
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--queue: /, ''));
  }
}

/** `--data a b 'rec/*.gz'` (and `--data a --data b`): every value, each a path. */
export function collectDataPaths(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), parsePathOption(value)];
}

/** A window end (`--from`, `--to`): ISO 8601 with a zone, a date, or epoch ms. */
export function parseTimeOption(value: string): number {
  const ms = readTime(value);
  if (ms === undefined) throw new InvalidArgumentError(`expected ${TIME_FORMS}, got '${value}'`);
  return ms;
}

/** An objective's name (`--sort`, `--objective`): src/backtest/objectives.ts. */
export function parseObjectiveOption(value: string): string {
  if (!isObjectiveName(value)) throw new InvalidArgumentError(`expected one of ${OBJECTIVE_NAMES.join(', ')}, got '${value}'`);
  return value;
}
