import { createRequire } from 'node:module';
import { expect } from 'vitest';

/** One metric family as parse-prometheus-text-format gives it (the prom2json shape). */
export interface ParsedFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  readonly metrics: readonly {
    readonly labels?: Readonly<Record<string, string>>;
    readonly value?: string;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }[];
}

// a CommonJS package without types: loaded as it ships, its result typed here
const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => ParsedFamily[];

/** The text parsed by a real Prometheus text-format parser (a malformed text throws), by family name. */
export function parsePrometheus(text: string): Map<string, ParsedFamily> {
  return new Map(parse(text).map((f) => [f.name, f]));
}

/** A family's value for these labels (0 when absent), summed over the series matching them. */
export function valueOf(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): number {
  const f = families.get(name);
  if (f === undefined) return 0;
  let sum = 0;
  for (const m of f.metrics) {
    if (Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)) sum += Number(m.value ?? m.count ?? 0);
  }
  return sum;
}

const ORDER_ID = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** No label value of any series looks like an order id (0x + 64 hex) or an address (0x + 40 hex). */
export function expectNoIdLabels(families: Map<string, ParsedFamily>): void {
  const bad: string[] = [];
  for (const f of families.values()) {
    for (const m of f.metrics) for (const [k, v] of Object.entries(m.labels ?? {})) if (ORDER_ID.test(v) || ADDRESS.test(v)) bad.push(`${f.name}{${k}="${v}"}`);
  }
  expect(bad).toEqual([]);
}
