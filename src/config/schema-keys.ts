import type * as z from 'zod';
import type { KeyPath } from './yaml-source.ts';

/**
 * YAML writes an empty value (`store:` with nothing after it) as null. Where the schema expects
 * a section (an object), null becomes `{}`: the section is there, with all its defaults
 * (`embedded:` alone means "the embedded sandbox with default settings"). Anywhere else null
 * becomes undefined: the key takes its default, and an unknown key is still reported.
 */
export function emptyToDefaults(data: unknown, schema: z.core.$ZodType | undefined): unknown {
  const container = unwrapToContainer(schema);
  if (Array.isArray(data)) return data.map((v) => emptyToDefaults(v, child(container, 0)));
  if (data === null || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    const sub = child(container, k);
    let value: unknown;
    if (v === null) {
      const kind = (unwrapToContainer(sub)?._zod.def as Def | undefined)?.type;
      value = kind === 'object' || kind === 'record' ? {} : undefined;
    } else {
      value = emptyToDefaults(v, sub);
    }
    // defineProperty: a `__proto__` key stays a plain (and then unknown) key
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The keys an object schema accepts at `path` inside `schema` (for "did you mean" hints on an
 * unknown key). Walks zod's definition objects (`_zod.def`), unwrapping optional, default,
 * prefault, pipe and union wrappers; gives [] where the path leads to no object.
 */
export function allowedKeysAt(schema: z.core.$ZodType, path: KeyPath): readonly string[] {
  let node: z.core.$ZodType | undefined = schema;
  for (const seg of path) {
    node = child(unwrapToContainer(node), seg);
    if (node === undefined) return [];
  }
  const obj = unwrapToContainer(node);
  const def = obj?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

interface Def {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  valueType?: z.core.$ZodType;
}

function unwrapToContainer(node: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let current = node;
  for (let guard = 0; current !== undefined && guard < 20; guard++) {
    const def = current._zod.def as Def;
    if (def.innerType) current = def.innerType;
    // a preprocess (`z.preprocess`) is a pipe from a transform: its container is the output
    else if (def.type === 'pipe' && def.in) current = (def.in._zod.def as Def).type === 'transform' && def.out ? def.out : def.in;
    else if (def.type === 'union' && def.options) {
      current = def.options.find((o) => ['object', 'array', 'record'].includes((unwrapToContainer(o)?._zod.def as Def | undefined)?.type ?? ''));
      if (current) current = unwrapToContainer(current);
      return current;
    } else return current;
  }
  return current;
}

function child(node: z.core.$ZodType | undefined, seg: string | number): z.core.$ZodType | undefined {
  if (!node) return undefined;
  const def = node._zod.def as Def;
  if (def.type === 'object' && def.shape && typeof seg === 'string') return Object.hasOwn(def.shape, seg) ? def.shape[seg] : undefined;
  if (def.type === 'array' && typeof seg === 'number') return def.element;
  if (def.type === 'record') return def.valueType;
  return undefined;
}
