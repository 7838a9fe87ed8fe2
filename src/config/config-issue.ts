import type * as z from 'zod';
import type { KeyPath } from './yaml-source.ts';

/**
 * One problem in a config file, before it becomes one line of a ConfigError:
 * `risk.maxOrderNotional (config/mm.yaml:14): must be > 0, was -5`.
 */
export interface ConfigIssue {
  readonly path: KeyPath;
  /** The text after the path and location: what is wrong and, where useful, what to do. */
  readonly message: string;
  /** Append `, was <value>` with the file's value at `path` (never for secret-looking values). */
  readonly showValue?: boolean;
  /** The line to name, when it is not the line of `path` (e.g. an unknown key's own line). */
  readonly line?: number;
  /** Where the key was set when not in the file (`--set backtest.queueModel`): named instead of file:line. */
  readonly origin?: string;
}

/** `risk.maxOrderNotional`, `strategies[1].id`, `(root)`. */
export function formatPath(path: KeyPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === '' ? '(root)' : out;
}

/** The value at `path` in plain data, or undefined. */
export function valueAt(data: unknown, path: KeyPath): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/**
 * True for text that may be a key or secret pasted in the wrong place: 32 bytes of hex or more
 * (addresses, 20 bytes, are not), or a long base64-like run mixing cases and digits.
 */
export function looksLikeSecret(text: string): boolean {
  const t = text.trim();
  if (/^(?:0x)?[0-9a-fA-F]{64,}$/.test(t)) return true;
  return !t.startsWith('0x') && t.length >= 40 && /^[A-Za-z0-9+/_=-]+$/.test(t) && /[a-z]/.test(t) && /[A-Z]/.test(t) && /[0-9]/.test(t);
}

/**
 * A short, safe description of a value from the file. Long hex or base64-like strings are never
 * echoed (they may be keys pasted in the wrong place); only their length is told.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'empty';
  if (typeof value === 'string') {
    if (looksLikeSecret(value)) return `a ${value.length}-character string (not shown)`;
    const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  return typeof value;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'a mapping (indented key: value lines)',
  record: 'a mapping (indented key: value lines)',
  array: 'a list',
  bigint: 'a whole number',
};

/** Unknown keys of one mapping that get a "did you mean" hint; the edit distances are the costly part. */
const MAX_HINTED_KEYS = 100;

/**
 * Turns zod issues into config issues. `allowedKeys(path)` gives the keys an object at `path`
 * accepts, for "did you mean" hints on unknown keys. `data` is the parsed file, to tell a
 * missing key from a wrong one.
 */
export function fromZodIssues(
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
  allowedKeys: (path: KeyPath) => readonly string[],
  lineOf: (path: KeyPath) => number,
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of tightestBounds(issues)) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const value = valueAt(data, path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const allowed = allowedKeys(path);
        issue.keys.forEach((key, n) => {
          const keyPath = [...path, key];
          // a hint for the first ones only: a file is never shown more than a screen of problems
          const hint = n < MAX_HINTED_KEYS ? suggest(key, allowed) : '';
          out.push({ path: keyPath, message: `unknown key${hint}`, line: lineOf(keyPath) });
        });
        break;
      }
      case 'invalid_type': {
        const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
        if (value === undefined) out.push({ path, message: `required key is missing (${expected})` });
        else out.push({ path, message: `must be ${expected}`, showValue: true });
        break;
      }
      case 'invalid_value': {
        const options = issue.values.map((v) => String(v));
        const text = options.length === 1 ? `must be ${options[0]}` : `must be one of ${options.join(', ')}`;
        if (value === undefined) out.push({ path, message: `required key is missing (${text.replace(/^must be /, '')})` });
        else out.push({ path, message: text, showValue: true });
        break;
      }
      case 'too_small':
      case 'too_big': {
        out.push({ path, message: boundText(issue), showValue: true });
        break;
      }
      case 'not_multiple_of':
        out.push({ path, message: `must be a multiple of ${String(issue.divisor)}`, showValue: true });
        break;
      case 'invalid_format':
        // our regex checks carry their own message; zod's default one starts with "Invalid"
        out.push({ path, message: issue.message.startsWith('Invalid') ? `must be a valid ${issue.format}` : issue.message, showValue: true });
        break;
      case 'invalid_union':
      case 'custom':
      default: {
        const generic = issue.message.startsWith('Invalid input');
        if (value === undefined && issue.code !== 'custom') out.push({ path, message: 'required key is missing' });
        else out.push({ path, message: generic ? 'has the wrong type' : issue.message, showValue: true });
      }
    }
  }
  return out;
}

/**
 * One bound per key and direction, the tightest: `int(1, 100_000)` given 1e300 fails both zod's
 * safe-integer bound and the schema's own maximum, and only `must be <= 100000` says what to write.
 */
function tightestBounds(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const best = new Map<string, z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall>();
  const tighter = (a: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, b: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): boolean =>
    a.code === 'too_big' && b.code === 'too_big' ? Number(a.maximum) < Number(b.maximum) : a.code === 'too_small' && b.code === 'too_small' && Number(a.minimum) > Number(b.minimum);
  for (const issue of issues) {
    if (issue.code !== 'too_big' && issue.code !== 'too_small') continue;
    const key = `${issue.code}\u0000${issue.path.map(String).join('\u0000')}`;
    const seen = best.get(key);
    if (seen === undefined || tighter(issue, seen)) best.set(key, issue);
  }
  const kept = new Set<z.core.$ZodIssue>(best.values());
  return issues.filter((issue) => (issue.code !== 'too_big' && issue.code !== 'too_small') || kept.has(issue));
}

function boundText(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const n = Number(bound);
  switch (issue.origin) {
    case 'array':
    case 'set':
      return small ? `must have at least ${n} item${n === 1 ? '' : 's'}` : `must have at most ${n} item${n === 1 ? '' : 's'}`;
    case 'string':
      return small ? (n === 1 ? 'must not be empty' : `must be at least ${n} characters`) : `must be at most ${n} characters`;
    default: {
      const op = small ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return `must be ${op} ${String(bound)}`;
    }
  }
}

/** ", did you mean 'x'?" for a near miss; else the list of allowed keys when it is short. */
function suggest(key: string, allowed: readonly string[]): string {
  if (allowed.length === 0) return '';
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const a of allowed) {
    const d = a.toLowerCase() === lower ? 0 : editDistance(lower, a.toLowerCase());
    if (d < bestDistance) {
      best = a;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 4))) return `; did you mean ${best}?`;
  return allowed.length <= 14 ? `; allowed here: ${allowed.join(', ')}` : '';
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}

/**
 * The final line: `path (file:line): message[, was value]`, or `path (--set key): ...` for a key set
 * on the command line (`origin` names the flag that set a path, see config-overrides.ts).
 */
export function formatIssue(issue: ConfigIssue, file: string, data: unknown, lineOf: (path: KeyPath) => number, origin?: (path: KeyPath) => string | undefined): string {
  const from = issue.origin ?? origin?.(issue.path);
  const where = from ?? `${file}:${issue.line ?? lineOf(issue.path)}`;
  let text = `${formatPath(issue.path)} (${where}): ${issue.message}`;
  if (issue.showValue) {
    const value = valueAt(data, issue.path);
    if (value !== undefined && !isEnvNamePath(issue.path)) text += `, was ${describeValue(value)}`;
  }
  return text;
}

/** Keys ending in `Env` hold variable names that a user may have confused with the secret itself. */
function isEnvNamePath(path: KeyPath): boolean {
  const last = path[path.length - 1];
  return typeof last === 'string' && /Env$/.test(last);
}
