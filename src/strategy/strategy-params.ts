import type * as z from 'zod';
import { StrategyError } from '../core/errors.ts';
import type { StrategyDefinition } from './api.ts';

/** A strategy's params checked: the parsed, frozen value, or every problem (zod's issues, paths inside `params`). */
export type StrategyParamsCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly issues: readonly z.core.$ZodIssue[] };

/**
 * Checks a strategy's `params` from the config, as every run does before it starts: every number
 * written must be finite (YAML's `.inf` and `.nan` are refused), then the strategy's own schema
 * checks and defaults them. Numbers are not bounded here: params hold times (epoch ms), counts
 * and ratios as well as amounts. An amount is bounded where it becomes one: `px`, `qty` and
 * `toMicros` throw naming the value, and an order whose price, size or notional the venue cannot
 * represent is denied AMOUNT_OUT_OF_RANGE by the engine's gate (src/risk/engine-gates.ts).
 */
export function checkStrategyParams(definition: StrategyDefinition, params: Readonly<Record<string, unknown>>): StrategyParamsCheck {
  const issues: z.core.$ZodIssue[] = [];
  outOfRange(params, [], issues);
  if (!definition.params) return issues.length > 0 ? { ok: false, issues } : { ok: true, value: Object.freeze({ ...params }) };
  const parsed = definition.params.safeParse(params);
  if (!parsed.success) {
    // a number that is not finite is reported once, by the framework's rule
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
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => outOfRange(v, [...path, i], out));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) outOfRange(v, [...path, k], out);
  }
}
