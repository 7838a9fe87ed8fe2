import { Option, type Command } from 'commander';
import { loadCheckedConfig } from '../../config/load-config.ts';
import { selectorCount } from '../../config/resolve-strategies.ts';
import type { RunConfig } from '../../config/run-config.ts';
import { parsePathOption, parseUrlOption } from '../options.ts';

/**
 * `clobot validate <config>`: checks a run config exactly as `clobot run` does before it starts
 * anything (schema, mode rules, secrets from the environment, and every enabled strategy: its
 * module a regular .ts/.mts/.js/.mjs file, imported, its params parsed by the strategy's schema)
 * and says `ok: ...` on stdout, exit 0. A bad config throws ConfigError, which main prints as its
 * lines (each naming the key and file:line) on stderr with exit code 2. Warnings go to stderr and
 * do not fail. Secrets are never printed.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a run config as a run would (types, ranges, mode rules, secrets from the environment, strategy modules and params) without running it')
    .argument('<config>', 'path to the YAML run config', parsePathOption)
    // strategy modules are always loaded now; the flag of older scripts is still accepted
    .option('--venue <url>', 'venue base URL, as `clobot run --venue` takes it (counts as the config\'s venue)', parseUrlOption)
    .addOption(new Option('--check-modules').hideHelp())
    .action(async (configPath: string, opts: { venue?: string }) => {
      const config = await loadCheckedConfig(configPath, process.env, { venueUrl: opts.venue });
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
