import { StrategyError } from '../core/errors.ts';
import { importStrategyModule } from '../strategy/loader.ts';
import { checkStrategyParams } from '../strategy/strategy-params.ts';
import { fromZodIssues, type ConfigIssue } from './config-issue.ts';
import type { RunConfig } from './run-config.ts';
import { allowedKeysAt } from './schema-keys.ts';
import type { KeyPath } from './yaml-source.ts';

/**
 * What a run checks of its strategies before it starts anything, as config issues with their
 * file:line: every enabled strategy's module is imported (its definition checked) and its
 * `params` parsed by the strategy's own schema and the framework's number bounds. `data` is the
 * parsed file (for the values shown), `lineOf` its lines. Disabled strategies are not loaded:
 * a run does not load them either.
 */
export async function checkStrategies(config: RunConfig, data: unknown, lineOf: (path: KeyPath) => number): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  for (const [i, s] of config.strategies.entries()) {
    if (!s.enabled) continue;
    let definition;
    try {
      definition = await importStrategyModule(s);
    } catch (err) {
      if (!(err instanceof StrategyError)) throw err;
      issues.push({ path: ['strategies', i, 'module'], message: err.message });
      continue;
    }
    const checked = checkStrategyParams(definition, s.params);
    if (checked.ok) continue;
    const prefix: KeyPath = ['strategies', i, 'params'];
    const schema = definition.params;
    const zodIssues = checked.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
    const allowed = (path: KeyPath): readonly string[] => (schema ? allowedKeysAt(schema, path.slice(prefix.length)) : []);
    issues.push(...fromZodIssues(zodIssues, data, allowed, lineOf));
  }
  return issues;
}
