import { DecodeError } from '../../core/errors.ts';
import { type Micros, numberToMicros, parseMicros } from '../../core/fixed.ts';
import type { Side } from '../../core/types.ts';

/**
 * The decoders' field readers: `path` names the object being read; error paths are built only on
 * failure. Every route group's decoder reads the wire through these.
 */

export type Obj = Readonly<Record<string, unknown>>;

export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function asObj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new DecodeError(path || '(root)', 'an object', v);
  return v;
}

function asArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new DecodeError(path || '(root)', 'an array', v);
  return v;
}

export function mapArray<T>(v: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  const arr = asArray(v, path);
  const out = new Array<T>(arr.length);
  for (let i = 0; i < arr.length; i++) out[i] = item(arr[i], at(path, i));
  return out;
}

/** The first of `keys` present with a non-null value, and the key it was found under. */
function pick(o: Obj, keys: readonly string[]): [unknown, string] {
  for (const key of keys) {
    const v = o[key];
    if (v !== undefined && v !== null) return [v, key];
  }
  return [undefined, keys[0] as string];
}

export function reqStr(o: Obj, path: string, ...keys: string[]): string {
  const [v, key] = pick(o, keys);
  if (typeof v !== 'string') throw new DecodeError(at(path, key), 'a string', v);
  return v;
}

export function optStr(o: Obj, path: string, ...keys: string[]): string | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new DecodeError(at(path, key), 'a string', v);
  return v;
}

/** An identifier the venue may send as a string or an integer; kept as a string. */
export function optId(o: Obj, path: string, ...keys: string[]): string | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  throw new DecodeError(at(path, key), 'a string or integer id', v);
}

export function reqId(o: Obj, path: string, ...keys: string[]): string {
  const id = optId(o, path, ...keys);
  if (id === undefined) throw new DecodeError(at(path, keys[0] as string), 'a string or integer id', undefined);
  return id;
}

export function reqBool(o: Obj, path: string, ...keys: string[]): boolean {
  const [v, key] = pick(o, keys);
  if (typeof v !== 'boolean') throw new DecodeError(at(path, key), 'a boolean', v);
  return v;
}

export function optBool(o: Obj, path: string, ...keys: string[]): boolean | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new DecodeError(at(path, key), 'a boolean', v);
  return v;
}

/** A JSON number; a numeric string is accepted too (some captures quote numbers). */
export function optNum(o: Obj, path: string, ...keys: string[]): number | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new DecodeError(at(path, key), 'a number', v);
}

export function reqNum(o: Obj, path: string, ...keys: string[]): number {
  const n = optNum(o, path, ...keys);
  if (n === undefined) throw new DecodeError(at(path, keys[0] as string), 'a number', undefined);
  return n;
}

export function optInt(o: Obj, path: string, ...keys: string[]): number | undefined {
  const n = optNum(o, path, ...keys);
  if (n !== undefined && !Number.isInteger(n)) throw new DecodeError(at(path, pick(o, keys)[1]), 'an integer', n);
  return n;
}

/**
 * A date-time: ISO 8601 text, or unix seconds as a number or digit string. Returns epoch ms;
 * an empty string counts as absent.
 */
export function optDate(o: Obj, path: string, ...keys: string[]): number | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return unixToMs(v);
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return unixToMs(Number(v));
    const ms = Date.parse(v);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new DecodeError(at(path, key), 'a date-time', v);
}

/** Unix seconds to epoch ms; a value already in milliseconds (13 digits) is kept. */
export function unixToMs(n: number): number {
  return n >= 1e11 ? Math.trunc(n) : Math.trunc(n * 1000);
}

export function reqUnixMs(o: Obj, path: string, ...keys: string[]): number {
  const ms = optDate(o, path, ...keys);
  if (ms === undefined) throw new DecodeError(at(path, keys[0] as string), 'unix seconds', undefined);
  return ms;
}

/** A decimal string (trading routes) or a JSON number (docs examples, metadata) as Micros. */
function microsOf(v: unknown, path: string): Micros {
  if (typeof v === 'string') {
    const m = parseMicros(v);
    if (Number.isNaN(m)) throw new DecodeError(path, 'a decimal with at most 6 decimals', v);
    return m;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return numberToMicros(v);
  throw new DecodeError(path, 'a decimal string or number', v);
}

export function reqMicros(o: Obj, path: string, ...keys: string[]): Micros {
  const [v, key] = pick(o, keys);
  return microsOf(v, at(path, key));
}

export function optMicros(o: Obj, path: string, ...keys: string[]): Micros | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  return microsOf(v, at(path, key));
}

export function reqSide(o: Obj, path: string, ...keys: string[]): Side {
  const [v, key] = pick(o, keys);
  if (v === 'BUY' || v === 'SELL') return v;
  throw new DecodeError(at(path, key), "'BUY' or 'SELL'", v);
}

export function optSide(o: Obj, path: string, ...keys: string[]): Side | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined || v === '') return undefined;
  if (v === 'BUY' || v === 'SELL') return v;
  throw new DecodeError(at(path, key), "'BUY' or 'SELL'", v);
}

function strings(v: unknown, path: string): string[] {
  return mapArray(v, path, (item, p) => {
    if (typeof item !== 'string') throw new DecodeError(p, 'a string', item);
    return item;
  });
}

export function optStrings(o: Obj, path: string, ...keys: string[]): string[] | undefined {
  const [v, key] = pick(o, keys);
  return v === undefined ? undefined : strings(v, at(path, key));
}

/** An array of strings sent as JSON text (`outcomes`, `clobTokenIds`); also accepts a real array. */
export function jsonStrings(o: Obj, path: string, ...keys: string[]): string[] {
  const [v, key] = pick(o, keys);
  const p = at(path, key);
  if (v === undefined || v === '') return [];
  if (Array.isArray(v)) return strings(v, p);
  if (typeof v !== 'string') throw new DecodeError(p, 'JSON text of a string array', v);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new DecodeError(p, 'JSON text of a string array', v);
  }
  return strings(parsed, p);
}

export function optRecord(o: Obj, path: string, ...keys: string[]): Obj | undefined {
  const [v, key] = pick(o, keys);
  if (v === undefined) return undefined;
  return asObj(v, at(path, key));
}

export function list<T>(o: Obj, path: string, key: string, item: (v: unknown, path: string) => T): T[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  return mapArray(v, at(path, key), item);
}

/** Like `list`, for a field with several spellings. */
export function listOf<T>(o: Obj, path: string, item: (v: unknown, path: string) => T, ...keys: string[]): T[] {
  const [v, key] = pick(o, keys);
  return v === undefined ? [] : mapArray(v, at(path, key), item);
}

/** A bare array, or the same array inside an envelope `{data: [...]}` (the venue's newer shape). */
export function arrayOrEnvelope(v: unknown, root: string): [unknown, string] {
  if (isObj(v) && Array.isArray(v['data'])) return [v['data'], at(root, 'data')];
  return [v, root];
}

/** Parses an answer body; malformed JSON is a DecodeError naming the route. */
export function parseJsonText(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DecodeError(where, 'JSON', text.length > 60 ? `${text.slice(0, 60)}…` : text);
  }
}
