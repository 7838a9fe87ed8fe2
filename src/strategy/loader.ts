import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StrategyError } from '../core/errors.ts';
import { STRATEGY_API_VERSION, type StrategyDefinition } from './api.ts';

/**
 * Loads a strategy module (TypeScript through tsx, or JavaScript) and checks its definition:
 * a default export with a name, the right STRATEGY_API_VERSION and callable hooks.
 * `module` is resolved against `baseDir` (the config file's folder), then the repo's strategies/.
 */
export async function loadStrategy(module: string, baseDir: string, strategiesDir: string): Promise<StrategyDefinition> {
  const candidates = isAbsolute(module) ? [module] : [resolve(baseDir, module), resolve(strategiesDir, module)];
  const path = candidates.find((p) => existsSync(p));
  if (!path) throw new StrategyError(`strategy module '${module}' not found (looked in ${candidates.join(', ')})`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (err) {
    throw new StrategyError(`strategy module '${module}' failed to load: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return checkDefinition(mod.default, module);
}

export function checkDefinition(value: unknown, where: string): StrategyDefinition {
  if (typeof value !== 'object' || value === null) {
    throw new StrategyError(`strategy module '${where}' has no default export of a strategy definition (use defineStrategy)`);
  }
  const def = value as Partial<StrategyDefinition>;
  if (typeof def.name !== 'string' || def.name === '') throw new StrategyError(`strategy module '${where}': definition has no name`);
  if (def.apiVersion !== STRATEGY_API_VERSION) {
    throw new StrategyError(
      `strategy '${def.name}' (${where}) targets strategy API version ${String(def.apiVersion)}, this clobot runs version ${STRATEGY_API_VERSION}`,
    );
  }
  for (const hook of ['onStart', 'onBook', 'onPrice', 'onFill', 'onOrderEvent', 'onTimer', 'onStop', 'stream'] as const) {
    const fn = def[hook];
    if (fn !== undefined && typeof fn !== 'function') throw new StrategyError(`strategy '${def.name}': ${hook} must be a function`);
  }
  if (def.timerIntervalMs !== undefined && !(Number.isFinite(def.timerIntervalMs) && def.timerIntervalMs > 0)) {
    throw new StrategyError(`strategy '${def.name}': timerIntervalMs must be a positive number`);
  }
  return def as StrategyDefinition;
}
