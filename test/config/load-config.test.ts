import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Dec, decimalToMicros } from '../../src/core/fixed.ts';
import { Secret } from '../../src/core/secret.ts';
import { DEFAULT_EXCHANGE, DEFAULT_NEG_RISK_EXCHANGE } from '../../src/config/defaults.ts';
import { loadConfig, parseConfig } from '../../src/config/load-config.ts';
import { MAX_MARKET_COUNT } from '../../src/config/schema.ts';
import { DEFAULT_CHECK_ORDER } from '../../src/risk/types.ts';
import { configErrorLines, lineOf, tempDir, VECTOR_ADDRESS, VECTOR_KEY } from './helpers.ts';

const tmp = tempDir();

const FULL = `# every section given
mode: live
name: full-run
venue:
  profile: polymarket
  baseUrl: https://venue.example/
  urls:
    analytics: https://data.venue.example
  timeoutMs: 5000
  retries: 1
  limits:
    windowScale: 0.5
  chainId: 137
account:
  address: ${VECTOR_ADDRESS.toLowerCase()}
  signatureType: 0
data:
  transport: ws
  pollIntervalMs: auto
  staleAfterMs: 3000
  markets:
    tokenIds: [71321045679252212594626385532706912750332728571942532289631379312455583992563, "42"]
    conditionIds: [0xAbCdef0000000000000000000000000000000000000000000000000000000001]
    slugs: [will-it-rain]
    filter:
      tags: [weather]
      maxCount: 3
strategies:
  - id: mm
    module: strategies/market-maker.ts
    params:
      spread: 0.02
      nested: { levels: [1, 2, 3] }
  - id: taker
    module: ./local-strategy.ts
    enabled: false
    markets:
      slugs: [other-market]
risk:
  checks: [killSwitch, tickGrid, maxNotional]
  maxOrderNotional: "12.345678"
  maxPositionPerToken: 0.1
  maxGrossExposure: 8999999999.999999
  maxNegRiskEventExposure: 1234567890.1234560000
  dailyLossLimit: 250
  staleBookMs: 4000
  haltFile: halt/HALT
execution:
  maxBatchSize: 10
  quoteTolerance: { priceTicks: 1 }
  orphans: adopt
logging:
  level: debug
  file: logs/run.log
  pretty: false
store:
  path: state/run.sqlite
paper:
  balance: "5000.5"
backtest:
  latencyMs: 20
  fees: { takerBps: "1.5" }
`;

describe('loadConfig: a valid config', () => {
  const path = tmp.write('full.yaml', FULL);
  const env = { CLOBOT_PRIVATE_KEY: VECTOR_KEY };
  const config = loadConfig(path, env, { cwd: tmp.dir, repoRoot: '/repo' });

  it('types every section and keeps values as written', () => {
    expect(config.mode).toBe('live');
    expect(config.name).toBe('full-run');
    if (config.mode !== 'live' || config.venue.kind !== 'remote') throw new Error('expected a live remote config');
    expect(config.venue.profile).toBe('polymarket');
    expect(config.venue.urls).toEqual({
      metadata: 'https://venue.example',
      trading: 'https://venue.example',
      analytics: 'https://data.venue.example',
    });
    expect(config.venue.limits.windowScale).toBe(0.5);
    expect(config.data.transport).toBe('ws');
    expect(config.data.pollIntervalMs).toBe('auto');
    // a 77-digit token id and a hex condition id written without quotes keep every digit
    expect(config.data.markets?.tokenIds).toEqual(['71321045679252212594626385532706912750332728571942532289631379312455583992563', '42']);
    expect(config.data.markets?.conditionIds).toEqual(['0xabcdef0000000000000000000000000000000000000000000000000000000001']);
    expect(config.data.markets?.filter).toEqual({ tags: ['weather'], active: true, acceptingOrders: true, rewards: false, maxCount: 3 });
    expect(config.strategies.map((s) => [s.id, s.enabled, s.marketsFrom])).toEqual([
      ['mm', true, 'data'],
      ['taker', false, 'strategy'],
    ]);
    expect(config.strategies[0]?.params).toEqual({ spread: 0.02, nested: { levels: [1, 2, 3] } });
    expect(config.strategies[1]?.markets.slugs).toEqual(['other-market']);
  });

  it('keeps money exact', () => {
    expect(config.risk.maxOrderNotional).toBe(12_345_678);
    expect(config.risk.maxPositionPerToken).toBe(100_000);
    expect(config.risk.dailyLossLimit).toBe(250_000_000);
    // 16 significant digits: exact although a float of that text may not be
    expect(config.risk.maxGrossExposure).toBe(8_999_999_999_999_999);
    expect(config.risk.maxNegRiskEventExposure).toBe(1_234_567_890_123_456);
    expect(config.paper.balance).toBe(5_000_500_000);
    expect(config.backtest.fees.takerBps.toString()).toBe('1.5');
    expect(config.backtest.fees.takerBps).toBeInstanceOf(Dec);
  });

  it('fills defaults', () => {
    expect(config.risk.maxOpenOrders).toBe(50);
    expect(config.risk.maxPositionPerMarket).toBe(decimalToMicros(1000));
    expect(config.execution).toEqual({
      maxBatchWaitMs: 50,
      maxBatchSize: 10,
      quoteTolerance: { priceTicks: 1, sizeShare: 0.1 },
      orderTimeoutMs: 10_000,
      heartbeatIntervalMs: 5000,
      cancelOnStop: true,
      cancelOnHalt: true,
      stopDeadlineMs: 30_000,
      orphans: 'adopt',
      accountSyncMs: 30_000,
      rewardSampleMs: 60_000,
      rewardVenueShare: true,
      postOnlyAfterRestartMs: 120_000,
      closedOrderRetentionMs: 3_600_000,
      signing: { helpers: 0, spinMs: 0 },
      busyPoll: false,
      userChannel: { enabled: true, auditPollMs: 30_000 },
    });
    if (config.mode !== 'live') throw new Error('live');
    expect(config.venue.contracts).toEqual({ exchange: DEFAULT_EXCHANGE, negRiskExchange: DEFAULT_NEG_RISK_EXCHANGE });
    expect(config.venue.chainId).toBe(137);
    expect(config.account.signatureType).toBe(0);
    expect(config.account.env.apiSecret).toBe('CLOBOT_API_SECRET');
    expect(config.backtest.queueModel).toBe('conservative');
    expect(config.backtest.balance).toBe(decimalToMicros(10_000));
  });

  it('resolves paths: outputs against the working directory, modules against the config or the repo', () => {
    expect(config.risk.haltFile).toBe(resolve(tmp.dir, 'halt/HALT'));
    expect(config.logging.file).toBe(resolve(tmp.dir, 'logs/run.log'));
    expect(config.store.path).toBe(resolve(tmp.dir, 'state/run.sqlite'));
    // neither module exists: the first candidate is kept
    expect(config.strategies[0]?.moduleCandidates).toEqual([
      resolve(tmp.dir, 'strategies/market-maker.ts'),
      '/repo/strategies/market-maker.ts',
      '/repo/strategies/strategies/market-maker.ts',
    ]);
    expect(config.strategies[1]?.modulePath).toBe(resolve(tmp.dir, 'local-strategy.ts'));
    expect(config.source.file).toBe(path);
  });

  it('derives the address from the key and holds the key as a Secret', () => {
    if (config.mode !== 'live') throw new Error('live');
    expect(config.account.address).toBe(VECTOR_ADDRESS);
    expect(config.account.funder).toBe(VECTOR_ADDRESS);
    expect(config.account.privateKey).toBeInstanceOf(Secret);
    expect(config.account.privateKey.reveal()).toBe(VECTOR_KEY);
    expect(config.account.keySource).toEqual({ kind: 'env', name: 'CLOBOT_PRIVATE_KEY' });
  });

  it('is deeply frozen', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.risk)).toBe(true);
    expect(Object.isFrozen(config.risk.checks)).toBe(true);
    expect(Object.isFrozen(config.strategies)).toBe(true);
    expect(Object.isFrozen(config.strategies[0]?.params)).toBe(true);
    expect(Object.isFrozen((config.strategies[0]?.params as { nested: { levels: number[] } }).nested.levels)).toBe(true);
    expect(Object.isFrozen(config.data.markets?.filter)).toBe(true);
    expect(() => {
      (config.risk as { maxOpenOrders: number }).maxOpenOrders = 1;
    }).toThrow(TypeError);
    expect(() => (config.risk.checks as string[]).push('x')).toThrow(TypeError);
    // frozen decimals still compute
    expect(config.backtest.fees.takerBps.mul(2).toString()).toBe('3');
  });
});

describe('loadConfig: the shipped default config', () => {
  it('runs live against the embedded sandbox with a sandbox-only key and no environment', () => {
    const config = loadConfig(resolve('config/default.yaml'), {});
    expect(config.mode).toBe('live');
    if (config.mode !== 'live' || config.venue.kind !== 'embedded') throw new Error('expected live + embedded');
    expect(config.venue.embedded.seed).toBe(1);
    expect(config.venue.embedded.flow.enabled).toBe(true);
    expect(config.data.transport).toBe('poll');
    expect(config.strategies.map((s) => s.module)).toEqual(['strategies/market-maker.ts']);
    expect(config.strategies[0]?.modulePath).toBe(resolve('strategies/market-maker.ts'));
    expect(config.logging.file).toBe(resolve('.clobot/logs/run.log'));
    expect(config.account.keySource).toEqual({ kind: 'sandbox', seed: 1 });
    expect(config.source.warnings).toEqual([]);
  });

  it('with --venue another venue, it needs a key of its own: the seed\'s public key never stands in', () => {
    const path = resolve('config/default.yaml');
    const url = 'http://127.0.0.1:9';
    const lines = configErrorLines(() => loadConfig(path, {}, { venueUrl: url }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`no private key: live mode against ${url} signs orders; set the environment variable CLOBOT_PRIVATE_KEY or account.keyFile`);
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: VECTOR_KEY }, { venueUrl: url });
    if (config.mode !== 'live') throw new Error('expected live');
    expect(config.account.keySource).toEqual({ kind: 'env', name: 'CLOBOT_PRIVATE_KEY' });
    expect(config.account.address).toBe(VECTOR_ADDRESS);
  });
});

describe('loadConfig: the example configs', () => {
  for (const name of readdirSync('config/examples').filter((f) => f.endsWith('.yaml'))) {
    it(`${name} loads, its strategy modules exist`, () => {
      const config = loadConfig(resolve('config/examples', name), { CLOBOT_PRIVATE_KEY: VECTOR_KEY }, { checkModules: true });
      expect(config.strategies.length).toBeGreaterThan(0);
      expect(config.source.warnings).toEqual([]);
    });
  }
});

describe('loadConfig: defaults for a minimal file', () => {
  it('fills every section for `mode: backtest` alone', () => {
    const config = parseConfig('mode: backtest\n', tmp.write('min.yaml', 'mode: backtest\n'), {}, { cwd: tmp.dir });
    expect(config.mode).toBe('backtest');
    expect(config.venue).toBeUndefined();
    expect(config.account).toBeUndefined();
    expect(config.strategies).toEqual([]);
    expect(config.risk.checks).toEqual(DEFAULT_CHECK_ORDER);
    expect(config.data.pollIntervalMs).toBe(1000);
    expect(config.logging).toEqual({ level: 'info', file: undefined, pretty: 'auto' });
    expect(config.store.path).toBeUndefined();
    expect(config.name).toBe('min');
  });

  it('treats an empty section as all defaults', () => {
    const text = 'mode: paper\nvenue:\n  embedded:\nrisk:\nexecution:\n';
    const config = loadConfig(tmp.write('empty-sections.yaml', text), {});
    if (config.mode !== 'paper' || config.venue.kind !== 'embedded') throw new Error('paper + embedded');
    expect(config.venue.embedded.seed).toBe(1);
    expect(config.execution.maxBatchSize).toBe(15);
  });
});

describe('loadConfig: markets: all', () => {
  it('selects every open market of the venue, for the run and for one strategy; keys inside a mapping are still checked', () => {
    const all = { tags: [], active: true, acceptingOrders: true, rewards: false, maxCount: MAX_MARKET_COUNT };
    const text = 'mode: paper\nvenue:\n  embedded: {}\ndata:\n  transport: ws\n  markets: all\nstrategies:\n  - id: a\n    module: strategies/market-maker.ts\n  - id: b\n    module: strategies/market-maker.ts\n    markets: all\n';
    const config = loadConfig(tmp.write('all.yaml', text), {}, { cwd: tmp.dir });
    expect(config.data.markets).toEqual({ tokenIds: [], conditionIds: [], slugs: [], events: [], filter: all });
    expect(config.strategies[1]?.markets.filter).toEqual(all);
    const typo = tmp.write('all-typo.yaml', text.replace('  markets: all\n', '  markets: { filtr: {} }\n'));
    expect(configErrorLines(() => loadConfig(typo, {}, { cwd: tmp.dir }))).toEqual([`data.markets.filtr (${typo}:6): unknown key; did you mean filter?`]);
  });

  it('a word other than all names the forms the key takes', () => {
    const text = 'mode: paper\nvenue:\n  embedded: {}\ndata:\n  markets: alll\nstrategies:\n  - id: a\n    module: strategies/market-maker.ts\n    markets: every\n';
    const path = tmp.write('all-word-typo.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}, { cwd: tmp.dir }))).toEqual([
      `data.markets (${path}:5): must be all or a mapping (tokenIds, conditionIds, slugs, events, filter), was "alll"`,
      `strategies[0].markets (${path}:9): must be all or a mapping (tokenIds, conditionIds, slugs, events, filter), was "every"`,
    ]);
  });
});

describe('loadConfig: one line per error, naming the key path and file:line', () => {
  const base = 'mode: paper\nvenue:\n  embedded: {}\n';

  function errorsOf(name: string, text: string, env: Record<string, string> = {}): { path: string; lines: string[] } {
    const path = tmp.write(name, text);
    return { path, lines: configErrorLines(() => loadConfig(path, env, { cwd: tmp.dir })) };
  }

  it('unknown key: its own line, with a suggestion', () => {
    const text = `${base}risk:\n  maxOpenOrders: 5\n  maxOrderNotinal: 10\n`;
    const { path, lines } = errorsOf('unknown.yaml', text);
    expect(lines).toEqual([`risk.maxOrderNotinal (${path}:${lineOf(text, 'maxOrderNotinal')}): unknown key; did you mean maxOrderNotional?`]);
  });

  it('unknown key at the top and inside a list item', () => {
    const text = `${base}strategies:\n  - id: a\n    module: a.ts\n    parms: {}\n    markets: { slugs: [x] }\nextra: 1\n`;
    const { path, lines } = errorsOf('unknown2.yaml', text);
    expect(lines).toEqual([
      `strategies[0].parms (${path}:${lineOf(text, 'parms')}): unknown key; did you mean params?`,
      expect.stringMatching(new RegExp(`^extra \\(${escape(path)}:${lineOf(text, 'extra')}\\): unknown key; allowed here: mode, name, venue, `)),
    ]);
  });

  it('100k unknown keys: the first 20 in file order with their lines, and how many more (found in linear time)', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i.toString(36)}`);
    // at the top level (no indent), so 100k keys stay within the 1 MiB a config file may have
    const text = `${base}${keys.map((k) => `${k}: 1\n`).join('')}`;
    const { path, lines } = errorsOf('many-keys.yaml', text);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(new RegExp(`^k0 \\(${escape(path)}:4\\): unknown key; allowed here: mode, `));
    expect(lines[19]).toMatch(new RegExp(`^kj \\(${escape(path)}:23\\): unknown key`));
    expect(lines[20]).toBe('... and 99980 more problems');
  }, 60_000);

  it('a bound is told once per key, the tightest: 1e300 for a whole number of at most 100000', () => {
    const text = `${base}risk:\n  maxOpenOrders: 1e300\n  maxOrderNotional: 1e300\n`;
    const { path, lines } = errorsOf('bounds.yaml', text);
    expect(lines).toEqual([
      `risk.maxOpenOrders (${path}:5): must be <= 100000, was 1e+300`,
      `risk.maxOrderNotional (${path}:6): must be <= 9007199254.740991, the largest amount the venue can represent (2^53 - 1 Micros), was 1e+300`,
    ]);
  });

  it('an unknown key with an empty value is still reported', () => {
    const text = `${base}logging:\n  levl:\n`;
    const { path, lines } = errorsOf('unknown-empty.yaml', text);
    expect(lines).toEqual([`logging.levl (${path}:5): unknown key; did you mean level?`]);
  });

  it('bad number', () => {
    const text = `${base}risk:\n  maxOrderNotional: -5\n`;
    const { path, lines } = errorsOf('negative.yaml', text);
    expect(lines).toEqual([`risk.maxOrderNotional (${path}:5): must be > 0, was -5`]);
  });

  it('money with more than 6 decimals, and money that is not a number', () => {
    const text = `${base}risk:\n  maxOrderNotional: "1.0000001"\n  dailyLossLimit: lots\n`;
    const { path, lines } = errorsOf('money.yaml', text);
    expect(lines).toEqual([
      `risk.maxOrderNotional (${path}:5): must have at most 6 decimals, was "1.0000001"`,
      `risk.dailyLossLimit (${path}:6): must be a decimal number like 100 or "0.25", was "lots"`,
    ]);
  });

  it('out of range integer', () => {
    const text = `${base}execution:\n  maxBatchSize: 16\n  heartbeatIntervalMs: 12000\n`;
    const { path, lines } = errorsOf('range.yaml', text);
    expect(lines).toEqual([`execution.maxBatchSize (${path}:5): must be <= 15, was 16`, `execution.heartbeatIntervalMs (${path}:6): must be <= 9999, was 12000`]);
  });

  it('signing helpers: a count from 0 to 16', () => {
    const text = `${base}execution:\n  signing:\n    helpers: 17\n    spinMs: -1\n`;
    const { path, lines } = errorsOf('signing.yaml', text);
    expect(lines).toEqual([`execution.signing.helpers (${path}:6): must be <= 16, was 17`, `execution.signing.spinMs (${path}:7): must be >= 0, was -1`]);
  });

  it('wrong type', () => {
    const text = `${base}risk:\n  maxOpenOrders: many\nexecution:\n  cancelOnStop: sometimes\n  quoteTolerance: 3\n`;
    const { path, lines } = errorsOf('type.yaml', text);
    expect(lines).toEqual([
      `risk.maxOpenOrders (${path}:5): must be a number, was "many"`,
      `execution.cancelOnStop (${path}:7): must be true or false, was "sometimes"`,
      `execution.quoteTolerance (${path}:8): must be a mapping (indented key: value lines), was 3`,
    ]);
  });

  it('a fraction where a whole number is needed', () => {
    const text = `${base}risk:\n  maxOpenOrders: 2.5\n`;
    const { path, lines } = errorsOf('int.yaml', text);
    expect(lines).toEqual([`risk.maxOpenOrders (${path}:5): must be a whole number, was 2.5`]);
  });

  it('bad enum', () => {
    const text = `${base}data:\n  transport: grpc\n`;
    const { path, lines } = errorsOf('enum.yaml', text);
    expect(lines).toEqual([`data.transport (${path}:5): must be one of poll, ws, was "grpc"`]);
  });

  it('missing required key: the line of its parent', () => {
    const text = `venue:\n  embedded: {}\nstrategies:\n  - id: a\n    params: {}\n`;
    const { path, lines } = errorsOf('missing.yaml', text);
    expect(lines).toEqual([
      `mode (${path}:1): required key is missing (one of live, paper, backtest)`,
      `strategies[0].module (${path}:4): required key is missing (text)`,
    ]);
  });

  it('duplicate strategy id: the second one, naming the first', () => {
    const text = `${base}data:\n  markets: { slugs: [x] }\nstrategies:\n  - id: mm\n    module: a.ts\n  - id: mm\n    module: b.ts\n`;
    const { path, lines } = errorsOf('dup.yaml', text);
    expect(lines).toEqual([`strategies[1].id (${path}:9): duplicate strategy id 'mm' (first used by strategies[0]); ids must be unique`]);
  });

  it('YAML syntax error: file:line:col', () => {
    const text = `mode: paper\nvenue:\n  embedded: {seed: 1\nrisk:\n  maxOpenOrders: 3\n`;
    const { path, lines } = errorsOf('syntax.yaml', text);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatch(new RegExp(`^${escape(path)}:\\d+:\\d+: YAML syntax error: \\S`));
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('YAML duplicate key is a syntax error with its position', () => {
    const text = `mode: paper\nmode: live\n`;
    const { path, lines } = errorsOf('dupkey.yaml', text);
    expect(lines).toEqual([`${path}:2:1: YAML syntax error: Map keys must be unique`]);
    // nested and in a flow mapping; equal keys of different mappings are no duplicates
    const nested = `mode: paper\nrisk:\n  maxOpenOrders: 1\n  maxOpenOrders: 2\nvenue: { embedded: {}, embedded: {} }\nexecution: { maxBatchSize: 1 }\n`;
    const two = errorsOf('dupkey2.yaml', nested);
    expect(two.lines).toEqual([`${two.path}:4:3: YAML syntax error: Map keys must be unique`, `${two.path}:5:24: YAML syntax error: Map keys must be unique`]);
  });

  it('empty file and a file that is not a mapping', () => {
    expect(errorsOf('empty.yaml', '# nothing\n').lines).toEqual([expect.stringMatching(/empty\.yaml: the config file is empty/)]);
    const { path, lines } = errorsOf('list.yaml', '- mode: live\n');
    expect(lines).toEqual([`(root) (${path}:1): must be a mapping of sections (mode:, venue:, ...), was a list`]);
  });

  it('a file that cannot be read', () => {
    const path = resolve(tmp.dir, 'nope.yaml');
    expect(configErrorLines(() => loadConfig(path, {}))).toEqual([`${path}: cannot read config file (no such file: ENOENT)`]);
  });

  it('several problems: several lines, secrets first, then in file order', () => {
    const text = `mode: paper\nvenue:\n  embedded: {}\n  timeoutMs: 1\naccount:\n  apiSecret: abc\nrisk:\n  maxOpenOrders: 0\n`;
    const { path, lines } = errorsOf('several.yaml', text);
    expect(lines).toEqual([
      `account.apiSecret (${path}:6): secrets are never read from the config file; remove it and set the environment variable CLOBOT_API_SECRET`,
      `venue.timeoutMs (${path}:4): must be >= 100, was 1`,
      `risk.maxOpenOrders (${path}:8): must be >= 1, was 0`,
    ]);
  });

  it('cross-key rules', () => {
    const text = `${base}data:\n  pollIntervalMs: 2000\n  staleAfterMs: 1000\nrisk:\n  staleBookMs: 1500\n  checks: [killSwitch, staleBook, killSwitch]\n`;
    const { path, lines } = errorsOf('rules.yaml', text);
    expect(lines).toEqual([
      `data.staleAfterMs (${path}:6): must be > data.pollIntervalMs (2000), was 1000`,
      `risk.staleBookMs (${path}:8): must be > data.pollIntervalMs (2000), or books would count as stale between polls and every order be denied, was 1500`,
      `risk.checks[2] (${path}:9): killSwitch is listed twice (also at risk.checks[0])`,
    ]);
  });

  it('a strategy with no markets anywhere', () => {
    const text = `${base}strategies:\n  - id: a\n    module: a.ts\n  - id: b\n    module: b.ts\n    markets: {}\n`;
    const { path, lines } = errorsOf('nomarkets.yaml', text);
    expect(lines).toEqual([
      `strategies[0] (${path}:5): no markets to trade: set data.markets (for every strategy) or strategies[0].markets`,
      `strategies[1].markets (${path}:9): selects no market: give tokenIds, conditionIds, slugs, events or a filter`,
    ]);
  });

  it('strict checksum on mixed-case addresses; lowercase is accepted and checksummed', () => {
    const bad = VECTOR_ADDRESS.slice(0, -1) + 'a';
    const text = `mode: paper\nvenue:\n  embedded: {}\naccount:\n  address: ${bad}\n`;
    const { path, lines } = errorsOf('checksum.yaml', text);
    expect(lines).toEqual([
      `account.address (${path}:5): has a wrong EIP-55 checksum (mixed case): check it for a typo, or write it all in lowercase, was "${bad}"`,
    ]);
    const ok = loadConfig(tmp.write('lower.yaml', `mode: paper\nvenue:\n  embedded: {}\naccount:\n  address: ${VECTOR_ADDRESS.toLowerCase()}\n`), {});
    expect(ok.account?.address).toBe(VECTOR_ADDRESS);
  });

  it('a number too long to hold exactly stays text, so an int field refuses it instead of rounding', () => {
    const text = `${base}risk:\n  maxOpenOrders: 123456789012345678901234\n`;
    const { path, lines } = errorsOf('huge.yaml', text);
    expect(lines).toEqual([`risk.maxOpenOrders (${path}:5): must be a number, was "123456789012345678901234"`]);
  });

  it('a __proto__ key is an unknown key, not a prototype', () => {
    const text = `${base}risk:\n  __proto__: { maxOpenOrders: 1 }\n`;
    const { path, lines } = errorsOf('proto.yaml', text);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^risk\\.__proto__ \\(${escape(path)}:5\\): unknown key`))]);
  });
});

describe('loadConfig: venue', () => {
  it('embedded and a URL together are an error', () => {
    const text = 'mode: paper\nvenue:\n  baseUrl: http://127.0.0.1:9\n  embedded: {}\n';
    const path = tmp.write('both.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}))).toEqual([
      `venue.baseUrl (${path}:3): cannot be combined with venue.embedded: use either a venue URL or the embedded sandbox`,
    ]);
  });

  it('per-group URLs without a base URL must name all three groups', () => {
    const text = 'mode: paper\nvenue:\n  urls:\n    trading: http://127.0.0.1:9\n';
    const path = tmp.write('groups.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}))).toEqual([
      `venue.urls (${path}:3): no URL for metadata, analytics: set venue.baseUrl, or every group in venue.urls (metadata, trading, analytics)`,
    ]);
  });

  it('live and paper need a venue; backtest does not', () => {
    const path = tmp.write('novenue.yaml', 'mode: paper\n');
    expect(configErrorLines(() => loadConfig(path, {}))).toEqual([
      `venue (${path}:1): required in paper mode: set venue.baseUrl (a venue URL) or venue.embedded (the in-process sandbox)`,
    ]);
    expect(loadConfig(tmp.write('bt.yaml', 'mode: backtest\n'), {}).venue).toBeUndefined();
  });

  it('the sandbox speaks venue.profile', () => {
    const text = 'mode: paper\nvenue:\n  profile: interface\n  embedded:\n    profile: polymarket\n';
    const path = tmp.write('profile.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}))).toEqual([
      `venue.embedded.profile (${path}:5): must match venue.profile (interface): the client speaks venue.profile to the sandbox, was "polymarket"`,
    ]);
  });
});

describe('loadConfig: strategy modules', () => {
  it('finds a module next to the config, then under the repo root, then in the repo strategies folder', () => {
    const repo = tempDir();
    repo.write('strategies/in-repo.ts', 'export default {};\n');
    tmp.write('cfgs/local.ts', 'export default {};\n');
    const text = [
      'mode: backtest',
      'data:',
      '  markets: { slugs: [x] }',
      'strategies:',
      '  - { id: a, module: local.ts }',
      '  - { id: b, module: strategies/in-repo.ts }',
      '  - { id: c, module: in-repo.ts }',
      '',
    ].join('\n');
    const config = loadConfig(tmp.write('cfgs/mods.yaml', text), {}, { repoRoot: repo.dir, checkModules: true });
    expect(config.strategies.map((s) => s.modulePath)).toEqual([
      resolve(tmp.dir, 'cfgs/local.ts'),
      resolve(repo.dir, 'strategies/in-repo.ts'),
      resolve(repo.dir, 'strategies/in-repo.ts'),
    ]);
  });

  it('checkModules makes a missing module an error; without it the path is only resolved', () => {
    const text = 'mode: backtest\ndata:\n  markets: { slugs: [x] }\nstrategies:\n  - id: a\n    module: ./missing.ts\n';
    const path = tmp.write('missing-module.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}, { checkModules: true }))).toEqual([
      `strategies[0].module (${path}:6): module file not found (looked at ${resolve(tmp.dir, 'missing.ts')})`,
    ]);
    expect(loadConfig(path, {}).strategies[0]?.modulePath).toBe(resolve(tmp.dir, 'missing.ts'));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('loadConfig: a file that is not a run config', () => {
  it('says so in one line and echoes none of its lines (clobot validate /etc/shadow)', () => {
    const path = tmp.write('shadow', 'root:$6$secretsalt$hash:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n');
    const lines = configErrorLines(() => loadConfig(path, {}));
    expect(lines).toEqual([
      `${path}: not a clobot run config: none of its 2 top-level key(s) is a section (mode, name, venue, account, data, strategies, risk, execution, logging, store, alerts, paper, backtest); its content is not shown`,
    ]);
    expect(lines.join('\n')).not.toContain('secretsalt');
    // one section is enough to be checked key by key, unknown keys named as before
    const mixed = configErrorLines(() => loadConfig(tmp.write('mixed.yaml', 'mode: backtest\nmdoe: x\n'), {}));
    expect(mixed[0]).toContain('unknown key');
  });
});

