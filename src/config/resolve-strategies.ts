import type { MarketSelection } from '../data/market-selection.ts';
import { findStrategyModule, moduleFileProblem } from '../strategy/loader.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { StrategyConfig } from './run-config.ts';
import type { ConfigFile, MarketSelectionSection } from './schema.ts';

/**
 * Strategies: unique ids, a module path resolved to a file, and the markets each one trades
 * (its own `markets`, else `data.markets`; one of the two must exist).
 *
 * Module lookup is the strategy loader's (`findStrategyModule`): the first existing candidate
 * wins; when none exists the first candidate is kept. Only `checkModules` makes a missing module,
 * or one that is not a regular .ts/.mts/.js/.mjs file, an error (for enabled strategies: what a
 * run loads).
 */
export interface ResolveStrategiesInput {
  readonly file: ConfigFile;
  readonly configDir: string;
  readonly repoRoot: string;
  readonly checkModules: boolean;
}

export function resolveStrategies(input: ResolveStrategiesInput): { strategies: StrategyConfig[]; issues: ConfigIssue[] } {
  const { file, configDir, repoRoot, checkModules } = input;
  const issues: ConfigIssue[] = [];
  const shared = file.data.markets !== undefined ? toSelection(file.data.markets) : undefined;
  if (file.data.markets !== undefined) issues.push(...emptySelection(file.data.markets, ['data', 'markets']));

  const firstIndex = new Map<string, number>();
  const strategies: StrategyConfig[] = [];
  file.strategies.forEach((s, i) => {
    const seen = firstIndex.get(s.id);
    if (seen !== undefined) {
      issues.push({ path: ['strategies', i, 'id'], message: `duplicate strategy id '${s.id}' (first used by strategies[${seen}]); ids must be unique` });
    } else {
      firstIndex.set(s.id, i);
    }

    const { path: found, candidates } = findStrategyModule(s.module, configDir, repoRoot);
    if (checkModules && s.enabled) {
      const problem = found === undefined ? `module file not found (looked at ${candidates.join(', ')})` : moduleFileProblem(found);
      if (problem !== undefined) issues.push({ path: ['strategies', i, 'module'], message: problem });
    }

    let markets: MarketSelection | undefined;
    let marketsFrom: 'strategy' | 'data' = 'strategy';
    if (s.markets !== undefined) {
      issues.push(...emptySelection(s.markets, ['strategies', i, 'markets']));
      markets = toSelection(s.markets);
    } else if (shared !== undefined) {
      markets = shared;
      marketsFrom = 'data';
    } else {
      issues.push({ path: ['strategies', i], message: `no markets to trade: set data.markets (for every strategy) or strategies[${i}].markets` });
      markets = toSelection({ tokenIds: [], conditionIds: [], slugs: [], events: [], filter: undefined });
    }

    strategies.push({
      id: s.id,
      module: s.module,
      modulePath: found ?? (candidates[0] as string),
      moduleCandidates: candidates,
      enabled: s.enabled,
      params: s.params,
      markets,
      marketsFrom,
      budget: s.budget,
    });
  });
  return { strategies, issues };
}

function toSelection(s: MarketSelectionSection): MarketSelection {
  return { tokenIds: s.tokenIds, conditionIds: s.conditionIds, slugs: s.slugs, events: s.events, filter: s.filter };
}

function emptySelection(s: MarketSelectionSection, path: (string | number)[]): ConfigIssue[] {
  if (s.tokenIds.length + s.conditionIds.length + s.slugs.length + s.events.length > 0 || s.filter !== undefined) return [];
  return [{ path, message: 'selects no market: give tokenIds, conditionIds, slugs, events or a filter' }];
}

/** How many selector entries a selection has (each id or slug, and the filter). */
export function selectorCount(s: MarketSelection): number {
  return s.tokenIds.length + s.conditionIds.length + s.slugs.length + (s.events?.length ?? 0) + (s.filter !== undefined ? 1 : 0);
}
