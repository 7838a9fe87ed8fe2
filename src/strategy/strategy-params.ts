import type * as z from 'zod';
import { formatMicros } from '../core/fixed.ts';
import { StrategyError } from '../core/errors.ts';
import type { StrategyDefinition } from './api.ts';

/** The largest amount a venue size or price can hold: Number.MAX_SAFE_INTEGER Micros. */
export const MAX_PARAM_MAGNITUDE = Number.MAX_SAFE_INTEGER / 1e6;

/** A strategy's params checked: the parsed, frozen value, or every problem (zod's issues, paths inside `params`). */
export type StrategyParamsCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly z.core.$ZodIssue[] };

/**
 * Checks a strategy's `params` from the config, as every run does before it starts: every number
 * written must be finite and within ±MAX_PARAM_MAGNITUDE (so any size or price made of it stays
 * whole Micros; `size: 1e300` would otherwise place nothing without a word), then the strategy's
 * own schema checks and defaults them.
 */
export function checkStrategyParams(definition: StrategyDefinition, params: Readonly<Record<string, unknown>>): StrategyParamsCheck {
  const issues: z.core.$ZodIssue[] = [];
  outOfRange(params, [], issues);
  if (!definition.params) return issues.length > 0 ? { ok: false, issues } : { ok: true, value: Object.freeze({ ...params }) };
  const parsed = definition.params.safeParse(params);
  if (!parsed.success) {
    // a number out of range is reported once, by the framework's bound
    const seen = new Set(issues.map((i) => i.path.join('\u0000')));
    issues.push(...parsed.error.issues.filter((i) => !seen.has(i.path.join('\u0000'))));
  }
  return issues.length > 0 || !parsed.success ? { ok: false, issues } : { ok: true, value: Object.freeze(parsed.data) };
}

/**
 * A strategy's `params`, checked (see checkStrategyParams) and frozen. The error names the config
 * path of the first bad value: `strategies.mm.params.size: ...`.
 */
export function parseStrategyParams(definition: StrategyDefinition, id: string, params: Readonly<Record<string, unknown>>): unknown {
  const checked = checkStrategyParams(definition, params);
  if (checked.ok) return checked.value;
  const issue = checked.issues[0]!;
  const path = ['strategies', id, 'params', ...issue.path.map(String)].join('.');
  throw new StrategyError(`${path}: ${issue.message}`);
}

function outOfRange(value: unknown, path: PropertyKey[], out: z.core.$ZodIssue[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push({ code: 'custom', path, message: 'must be a finite number', input: value });
    else if (Math.abs(value) > MAX_PARAM_MAGNITUDE) {
      out.push({
        code: 'custom',
        path,
        message: `must be within ±${formatMicros(Number.MAX_SAFE_INTEGER)}, the largest amount the venue can represent (2^53 - 1 Micros)`,
        input: value,
      });
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => outOfRange(v, [...path, i], out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) outOfRange(v, [...path, k], out);
  }
}
