import { StrategyError } from '../core/errors.ts';
import type { StrategyDefinition } from './api.ts';

/**
 * A strategy's `params` from the config, checked and defaulted by its own schema, frozen. The
 * error names the config path of the first bad value: `strategies.mm.params.size: ...`.
 */
export function parseStrategyParams(definition: StrategyDefinition, id: string, params: Readonly<Record<string, unknown>>): unknown {
  if (!definition.params) return Object.freeze({ ...params });
  const parsed = definition.params.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ['strategies', id, 'params', ...issue.path.map(String)].join('.');
    throw new StrategyError(`${path}: ${issue.message}`);
  }
  return Object.freeze(parsed.data);
}
