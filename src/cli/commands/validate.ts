import type { Command } from 'commander';
import { loadConfig } from '../../config/load-config.ts';
import { selectorCount } from '../../config/resolve-strategies.ts';
import type { RunConfig } from '../../config/run-config.ts';

/**
 * `clobot validate <config>`: loads a run config exactly as a run would (schema, mode rules,
 * secrets from the environment) and says `ok: ...` on stdout, exit 0. A bad config throws
 * ConfigError, which main prints as its lines on stderr with exit code 2. Warnings go to stderr
 * and do not fail. Secrets are never printed.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a run config (types, ranges, mode rules, secrets from the environment) without running it')
    .argument('<config>', 'path to the YAML run config')
    .option('--check-modules', 'also check that every strategy module file exists (nothing is loaded)')
    .action((configPath: string, opts: { checkModules?: boolean }) => {
      const config = loadConfig(configPath, process.env, { checkModules: opts.checkModules === true });
      for (const warning of config.source.warnings) process.stderr.write(`warning: ${warning}\n`);
      process.stdout.write(`${summary(configPath, config)}\n`);
    });
}

/** `ok: config/default.yaml (mode live, 1 strategy, 1 market selector)`. */
export function summary(path: string, config: RunConfig): string {
  const strategies = config.strategies.length;
  let selectors = config.data.markets !== undefined ? selectorCount(config.data.markets) : 0;
  for (const s of config.strategies) if (s.marketsFrom === 'strategy') selectors += selectorCount(s.markets);
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  return `ok: ${path} (mode ${config.mode}, ${plural(strategies, 'strategy', 'strategies')}, ${plural(selectors, 'market selector', 'market selectors')})`;
}
