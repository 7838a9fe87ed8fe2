import { InvalidArgumentError } from 'commander';

/** Commander value parsers that reject bad values with one line naming the value. */
export function parseIntOption(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected an integer, got '${value}'`);
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

/** Durations like `90`, `90s`, `5m`, `1h`, `250ms` to milliseconds. */
export function parseDurationOption(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected a duration like 30s, 5m or 1h, got '${value}'`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return Math.round(n * factor);
}
