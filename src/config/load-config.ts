import { basename, dirname, extname, resolve } from 'node:path';
import { resolveAlerts } from './resolve-alerts.ts';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../core/errors.ts';
import { checkStrategies } from './check-strategies.ts';
import { applyConfigOverrides, type ConfigOverride } from './config-overrides.ts';
import { fromZodIssues, formatIssue, looksLikeSecret, type ConfigIssue } from './config-issue.ts';
import { checkRules } from './config-rules.ts';
import { deepFreeze } from './deep-freeze.ts';
import { resolveAccount, resolvePath } from './resolve-account.ts';
import { resolveStrategies } from './resolve-strategies.ts';
import { resolveVenue } from './resolve-venue.ts';
import type { ConfigSource, RunConfig, SigningAccount } from './run-config.ts';
import { configFileSchema, type ConfigFile } from './schema.ts';
import { allowedKeysAt, emptyToDefaults } from './schema-keys.ts';
import { findSecretKeys } from './secret-keys.ts';
import { readConfigText } from './read-config-text.ts';
import { parseYamlSource, type KeyPath } from './yaml-source.ts';

export interface LoadConfigOptions {
  /** Relative output paths (logs, store, halt file, key file) resolve against this; default process.cwd(). */
  readonly cwd?: string;
  /** The repository root, for strategy modules given as `strategies/x.ts`; default: this package's root. */
  readonly repoRoot?: string;
  /** Make an enabled strategy's module that is missing, or not a regular .ts/.mts/.js/.mjs file, an error (nothing is loaded). */
  readonly checkModules?: boolean;
  /** The command line's `--venue`: the venue in every mode, over the file's `venue` URLs (see resolveVenue for `venue.embedded`). */
  readonly venueUrl?: string;
  /** Keys set on the command line (`--set`, a sweep point), applied over the file's before any check (config-overrides.ts). */
  readonly overrides?: readonly ConfigOverride[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** At most this many lines in one ConfigError; the first ones are the most important. */
const MAX_LINES = 20;
/** Later syntax errors mostly follow from the first ones. */
const MAX_SYNTAX_LINES = 3;

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Reads (a regular file of at most 1 MiB), parses and checks a run configuration file, reads its
 * secrets from `env`, and returns the typed, deeply frozen RunConfig with every default filled.
 * Strategy modules are not loaded: loadCheckedConfig does that.
 *
 * Throws ConfigError whose message is one line per problem, most important first:
 * `risk.maxOrderNotional (config/mm.yaml:14): must be > 0, was -5`; YAML syntax errors as
 * `config/mm.yaml:3:7: YAML syntax error: ...`. Messages never contain a secret.
 */
export function loadConfig(path: string, env: Env = process.env, options: LoadConfigOptions = {}): RunConfig {
  return parseConfig(readConfigText(path), path, env, options);
}

/**
 * Everything a run checks before it starts anything: loadConfig with every enabled strategy's
 * module a regular .ts/.mts/.js/.mjs file, imported and its definition checked, and its `params`
 * parsed by the strategy's schema and the framework's bounds; each problem one line naming the
 * key and file:line (ConfigError). `requireStrategy`: a config without an enabled strategy is
 * refused too (a run needs one; `clobot record` does not). `modeRule`: why the command does not
 * run a config of this mode, if it does not (the issue is at `mode:`).
 */
export async function loadCheckedConfig(
  path: string,
  env: Env = process.env,
  options: Omit<LoadConfigOptions, 'checkModules'> & { readonly requireStrategy?: boolean; readonly modeRule?: (mode: RunConfig['mode']) => string | undefined } = {},
): Promise<RunConfig> {
  const parsed = parseConfigFile(readConfigText(path), path, env, { ...options, checkModules: true });
  const { config } = parsed;
  // a mode the command does not run (a backtest config given to `clobot run`): one line at `mode:`, before anything starts
  const wrongMode = options.modeRule?.(config.mode);
  if (wrongMode !== undefined) parsed.fail([[{ path: ['mode'], message: wrongMode }]]);
  const issues = await checkStrategies(config, parsed.data, parsed.lineOf);
  if (options.requireStrategy === true && !config.strategies.some((s) => s.enabled)) {
    issues.push({ path: ['strategies'], message: 'no enabled strategy: a run needs at least one' });
  }
  if (issues.length > 0) parsed.fail([issues]);
  return config;
}

/** Like loadConfig, for text already read; `file` names the file in messages and locates relative paths. */
export function parseConfig(text: string, file: string, env: Env = process.env, options: LoadConfigOptions = {}): RunConfig {
  return parseConfigFile(text, file, env, options).config;
}

interface ParsedConfigFile {
  readonly config: RunConfig;
  /** The file's data (after empty values became defaults), for the values shown in messages. */
  readonly data: unknown;
  readonly lineOf: (path: KeyPath) => number;
  /** Throws the ConfigError of these issues, one line each, sorted by line within each group. */
  readonly fail: (groups: ConfigIssue[][]) => never;
}

function parseConfigFile(text: string, file: string, env: Env, options: LoadConfigOptions): ParsedConfigFile {
  const cwd = resolve(options.cwd ?? process.cwd());
  const absPath = resolve(cwd, file);
  const src = parseYamlSource(text);
  if (src.syntax.length > 0) {
    throw new ConfigError(limit(src.syntax.slice(0, MAX_SYNTAX_LINES).map((e) => `${file}:${e.line}:${e.col}: YAML syntax error: ${e.message}`)));
  }
  if (src.data === undefined || src.data === null) throw new ConfigError(`${file}: the config file is empty; it needs at least mode: live, paper or backtest`);
  if (typeof src.data !== 'object' || Array.isArray(src.data)) {
    throw new ConfigError(`(root) (${file}:${src.lineOf([])}): must be a mapping of sections (mode:, venue:, ...), was ${Array.isArray(src.data) ? 'a list' : 'a single value'}`);
  }
  refuseForeignFile(src.data as Record<string, unknown>, file);
  const applied = options.overrides !== undefined && options.overrides.length > 0 ? applyConfigOverrides(src.data as Record<string, unknown>, options.overrides) : undefined;
  const data = emptyToDefaults(applied?.data ?? src.data, configFileSchema) as Record<string, unknown>;
  const lineOf = (path: KeyPath): number => src.lineOf(path);
  const origin = applied?.origin;
  const fail = (groups: ConfigIssue[][]): never => {
    const sorted = groups.flatMap((g) => byLine(g, lineOf));
    // only the lines shown are formatted (a file may hold 100k unknown keys)
    throw new ConfigError(limit(sorted.slice(0, MAX_LINES + 1).map((i) => formatIssue(i, file, data, lineOf, origin)), sorted.length));
  };
  if (applied !== undefined && applied.issues.length > 0) fail([applied.issues]);

  // 1. secrets written into the file, then the schema
  const account = data['account'];
  const envNames = typeof account === 'object' && account !== null ? (account as Record<string, string | undefined>) : {};
  const secretIssues = findSecretKeys(data, {
    privateKey: str(envNames['privateKeyEnv']),
    apiKey: str(envNames['apiKeyEnv']),
    apiSecret: str(envNames['apiSecretEnv']),
    apiPassphrase: str(envNames['apiPassphraseEnv']),
  });
  const parsed = configFileSchema.safeParse(data);
  if (!parsed.success || secretIssues.length > 0) {
    const secretPaths = new Set(secretIssues.map((i) => i.path.join('\u0000')));
    const schemaIssues = parsed.success
      ? []
      : fromZodIssues(parsed.error.issues, data, (p) => allowedKeysAt(configFileSchema, p), lineOf).filter((i) => !secretPaths.has(i.path.join('\u0000')));
    fail([secretIssues, schemaIssues]);
  }
  const cfg = parsed.data as ConfigFile;

  // 2. cross-key rules, the venue, strategies and the account (reads secrets)
  const rules = checkRules(cfg);
  const venue = resolveVenue(cfg.venue, cfg.mode, options.venueUrl);
  const strategies = resolveStrategies({ file: cfg, configDir: dirname(absPath), repoRoot: options.repoRoot ?? PACKAGE_ROOT, checkModules: options.checkModules ?? false });
  const acct = resolveAccount({ mode: cfg.mode, section: cfg.account, venue: venue.venue, env, cwd, venueUrl: options.venueUrl });
  const alerts = resolveAlerts(cfg.alerts, env);
  const issues = [venue.issues, rules.issues, strategies.issues, [...acct.issues], alerts.issues];
  if (issues.some((g) => g.length > 0)) fail(issues);

  const source: ConfigSource = {
    file,
    path: absPath,
    dir: dirname(absPath),
    cwd,
    warnings: byLine([...rules.warnings, ...acct.warnings], lineOf).map((i) => formatIssue(i, file, data, lineOf, origin)),
  };
  const base = {
    name: cfg.name ?? basename(absPath, extname(absPath)),
    source,
    data: {
      transport: cfg.data.transport,
      pollIntervalMs: cfg.data.pollIntervalMs,
      staleAfterMs: cfg.data.staleAfterMs,
      markets: sharedMarkets(cfg),
      marketRefreshMs: cfg.data.marketRefreshMs,
      wsSilentAfterMs: cfg.data.wsSilentAfterMs,
      wsMaxAssetsPerConnection: cfg.data.wsMaxAssetsPerConnection,
      marketStatusMs: cfg.data.marketStatusMs,
      wallets: cfg.data.wallets === undefined ? undefined : { ...cfg.data.wallets, addresses: [...new Set(cfg.data.wallets.addresses.map((a) => a.toLowerCase()))] },
      feeRateRefreshMs: cfg.data.feeRateRefreshMs,
      gameStartGraceMs: cfg.data.gameStartGraceMs,
    },
    strategies: strategies.strategies,
    risk: { ...cfg.risk, haltFile: resolvePath(cfg.risk.haltFile, cwd) },
    execution: cfg.execution,
    logging: { ...cfg.logging, file: cfg.logging.file !== undefined ? resolvePath(cfg.logging.file, cwd) : undefined },
    store: { path: cfg.store.path !== undefined ? resolvePath(cfg.store.path, cwd) : undefined },
    alerts: alerts.alerts,
    paper: cfg.paper,
    backtest: cfg.backtest,
  };

  let config: RunConfig;
  switch (cfg.mode) {
    case 'live':
      // resolveAccount reported an issue unless a live account has key, address and funder
      config = { mode: 'live', ...base, venue: venue.venue as NonNullable<typeof venue.venue>, account: acct.account as SigningAccount };
      break;
    case 'paper':
      config = { mode: 'paper', ...base, venue: venue.venue as NonNullable<typeof venue.venue>, account: acct.account };
      break;
    case 'backtest':
      config = { mode: 'backtest', ...base, venue: venue.venue, account: undefined };
      break;
  }
  return { config: deepFreeze(config), data, lineOf, fail };
}

function sharedMarkets(cfg: ConfigFile): RunConfig['data']['markets'] {
  const m = cfg.data.markets;
  return m === undefined ? undefined : { tokenIds: m.tokenIds, conditionIds: m.conditionIds, slugs: m.slugs, events: m.events, filter: m.filter };
}

/** A variable name from the file, for hints; anything else (a pasted secret) is not repeated. */
function str(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && !looksLikeSecret(v) ? v : undefined;
}

/** Stable sort by the line each issue points at. */
function byLine(issues: readonly ConfigIssue[], lineOf: (p: KeyPath) => number): ConfigIssue[] {
  return issues
    .map((issue, n) => ({ issue, n, line: issue.line ?? lineOf(issue.path) }))
    .sort((a, b) => a.line - b.line || a.n - b.n)
    .map((x) => x.issue);
}

/** At most MAX_LINES lines, then how many more problems there were (`total`: all of them, default `lines.length`). */
function limit(lines: readonly string[], total = lines.length): string {
  if (total <= MAX_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_LINES), `... and ${total - MAX_LINES} more problems`].join('\n');
}

/**
 * A mapping none of whose top-level keys is a config section is some other file (`clobot validate
 * /etc/shadow`): one line saying so, and none of its lines echoed back as "unknown keys" (they
 * may be secrets). A file with at least one section is checked key by key as usual.
 */
function refuseForeignFile(data: Record<string, unknown>, file: string): void {
  const keys = Object.keys(data);
  if (keys.length === 0 || keys.some((k) => TOP_LEVEL_KEYS.has(k))) return;
  throw new ConfigError(
    `${file}: not a clobot run config: none of its ${keys.length} top-level key(s) is a section (${[...TOP_LEVEL_KEYS].join(', ')}); its content is not shown`,
  );
}

const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(Object.keys(configFileSchema.shape));

