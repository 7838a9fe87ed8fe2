import * as z from 'zod';
import { Dec, decimalToMicros, formatMicros, MICRO_DECIMALS, type Micros } from '../core/fixed.ts';
import { DEFAULT_CHECK_ORDER, CHECK_NAMES } from '../risk/types.ts';
import { VENUE_PROFILES } from '../venue/domain/profiles.ts';
import { QUEUE_MODEL_NAMES } from '../sim/edge/queue-model.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import { toChecksumAddress } from '../venue/signing/address.ts';
import { DEFAULT_CHAIN_ID, DEFAULT_EXCHANGE, DEFAULT_NEG_RISK_EXCHANGE, DEFAULT_SECRET_ENV, VENUE_HEARTBEAT_DEADLINE_MS } from './defaults.ts';
import { looksLikeSecret } from './config-issue.ts';
import { parseRedisUrl } from '../core/redis-url.ts';
import { readTime, TIME_FORMS } from './window-time.ts';
import { ALERT_FORMATS, FEE_SOURCES, LOG_LEVELS, MARKET_DATA_TRANSPORTS, MODES, type Address, type Hex } from './run-config.ts';

/**
 * The shape of a config file, as a zod schema: types, ranges, enums and defaults. Every object
 * is strict (unknown keys are errors). Cross-field and mode rules live in config-rules.ts, the
 * secrets in resolve-account.ts; this file only says what each key may hold.
 *
 * Custom checks report `custom` issues whose message is the text after the key path
 * (`must be > 0`); the loader adds the path, the file:line and the value.
 */

// ---------------------------------------------------------------------------------------------
// leaf helpers

type Ctx = z.core.$RefinementCtx;

function fail(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);

/** Milliseconds, whole. */
const ms = (min: number, max = 86_400_000) => int(min, max);

const nonEmpty = z.string().trim().min(1);

/** Non-empty path text; resolved later against the working directory. */
const pathText = nonEmpty;

const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A decimal given as a YAML number or a string ("0.5", 12), kept exact; undefined after reporting an issue. */
function decimalValue(v: number | string, ctx: Ctx): Dec | undefined {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return new Dec(v);
    fail(ctx, 'must be a finite number');
    return undefined;
  }
  const text = v.trim();
  if (DECIMAL_RE.test(text)) return new Dec(text);
  fail(ctx, 'must be a decimal number like 100 or "0.25"');
  return undefined;
}

type Bound = 'positive' | 'nonNegative';

/** The bound's complaint, or undefined when `d` is within it. */
function boundProblem(d: Dec, bound: Bound): string | undefined {
  if (bound === 'positive' && !d.gt(0)) return 'must be > 0';
  if (bound === 'nonNegative' && d.lt(0)) return 'must be >= 0';
  return undefined;
}

/** Money (collateral or shares) as exact Micros: numbers or strings, at most 6 decimals. */
const money = (bound: Bound) =>
  z.union([z.number(), z.string()], { error: 'must be an amount like 100 or "12.5"' }).transform((v, ctx): Micros => {
    const d = decimalValue(v, ctx);
    if (d === undefined) return z.NEVER;
    const problem = boundProblem(d, bound);
    if (problem !== undefined) return fail(ctx, problem);
    if (d.decimalPlaces() > MICRO_DECIMALS) return fail(ctx, `must have at most ${MICRO_DECIMALS} decimals`);
    const n = d.mul(10 ** MICRO_DECIMALS).toNumber();
    if (!Number.isSafeInteger(n)) return fail(ctx, `must be <= ${formatMicros(Number.MAX_SAFE_INTEGER)}, the largest amount the venue can represent (2^53 - 1 Micros)`);
    return decimalToMicros(d);
  });

/** An exact decimal (rates, basis points). */
const decimal = (bound: Bound) =>
  z.union([z.number(), z.string()], { error: 'must be a decimal number like 1.5 or "0.25"' }).transform((v, ctx): Dec => {
    const d = decimalValue(v, ctx);
    if (d === undefined) return z.NEVER;
    const problem = boundProblem(d, bound);
    return problem === undefined ? d : fail(ctx, problem);
  });

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** A 20-byte address; all-lowercase is accepted, mixed case must be the EIP-55 checksum. */
const address = z.string({ error: 'must be a 0x address (0x + 40 hex digits)' }).transform((v, ctx): Address => {
  const text = v.trim();
  if (!ADDRESS_RE.test(text)) return fail(ctx, 'must be a 0x address (0x + 40 hex digits)');
  const body = text.slice(2);
  const checksummed = toChecksumAddress(text) as Address;
  if (body !== body.toLowerCase() && body !== body.toUpperCase() && checksummed !== text) {
    return fail(ctx, 'has a wrong EIP-55 checksum (mixed case): check it for a typo, or write it all in lowercase');
  }
  return checksummed;
});

const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The NAME of an environment variable; a value that looks like a secret is refused (and not echoed). */
const envName = z.string({ error: 'must be the name of an environment variable' }).transform((v, ctx): string => {
  const text = v.trim();
  if (looksLikeSecret(text)) {
    return fail(ctx, 'looks like a secret value: this key takes the NAME of an environment variable, put the secret itself in that variable');
  }
  if (!ENV_NAME_RE.test(text)) return fail(ctx, 'must be the name of an environment variable (letters, digits and _)');
  return text;
});

/** An http(s) base URL; trailing slashes removed. */
const url = z.string({ error: 'must be an http(s) URL' }).transform((v, ctx): string => {
  const text = v.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return fail(ctx, 'must be an http(s) URL like https://venue.example or http://127.0.0.1:8080');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail(ctx, 'must use http or https');
  if (parsed.search || parsed.hash) return fail(ctx, 'must not have a query or fragment');
  return text.replace(/\/+$/, '');
});

/** A WebSocket URL (ws or wss), no query or fragment. */
const wsUrl = z.string({ error: 'must be a ws(s) URL' }).transform((v, ctx): string => {
  const text = v.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return fail(ctx, 'must be a ws(s) URL like wss://venue.example/ws/user or ws://127.0.0.1:8080/ws/user');
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return fail(ctx, 'must use ws or wss');
  if (parsed.search || parsed.hash) return fail(ctx, 'must not have a query or fragment');
  return text;
});

/** Outcome token id: a uint256 as decimal text (quote it in YAML; big numbers are kept as written). */
const tokenId = z
  .union([z.number(), z.string()], { error: 'must be a token id (decimal digits)' })
  .transform((v, ctx): string => {
    const text = typeof v === 'number' ? (Number.isSafeInteger(v) && v >= 0 ? String(v) : '') : v.trim();
    if (!/^\d{1,78}$/.test(text) || BigInt(text) >= 1n << 256n) return fail(ctx, 'must be a token id (decimal digits, a uint256)');
    return text;
  });

const conditionId = z.string({ error: 'must be a condition id (0x + 64 hex digits)' }).transform((v, ctx): Hex => {
  const text = v.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(text)) return fail(ctx, 'must be a condition id (0x + 64 hex digits)');
  return text.toLowerCase() as Hex;
});

const slug = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'must be a slug (letters, digits, -, _ and .)' });

// ---------------------------------------------------------------------------------------------
// sections

const embeddedSchema = z.strictObject({
  seed: int(0).default(1),
  markets: int(1, 10_000).default(20),
  events: int(1, 10_000).default(6),
  flow: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** Relative rate of synthetic orders; 1 = the sandbox's normal pace. */
      intensity: z.number().positive().max(1000).default(1),
      /** Agent actions per second over the whole world, before the intensity (default 400): how often a large world's books move. */
      actionsPerSecond: int(1, 100_000).optional(),
    })
    .prefault({}),
  /** Neg-risk episodes: outcome sets mispriced for a while (src/sandbox/README.md); default none. */
  episodes: z
    .strictObject({
      ratePerHour: z.number().min(0).max(3600).default(0),
      withdrawLegShare: z.number().min(0).max(1).default(0),
    })
    .prefault({}),
  /** Near-end episodes: markets nearing their end date while a favourite drifts toward certainty, then resolving (src/sandbox/README.md); default none. */
  nearEnd: z
    .strictObject({
      ratePerHour: z.number().min(0).max(3600).default(0),
      withinMs: ms(1).default(3_600_000),
      breakdownShare: z.number().min(0).max(1).default(0.15),
    })
    .prefault({}),
  profile: z.enum(VENUE_PROFILES).optional(),
  /** Markets that close at their end date and resolve during the run (the first N open ones, seeded times and winners). */
  resolution: z
    .strictObject({
      markets: int(0, 10_000).default(0),
      withinMs: ms(1).default(60_000),
      resolveAfterMs: ms(0).default(2_000),
    })
    .prefault({}),
  host: nonEmpty.default('127.0.0.1'),
  port: int(0, 65_535).default(0),
});

/** A Redis URL without a password (a secret never sits in the config file: `passwordEnv` names where it is). */
const redisUrl = z.string({ error: 'must be a Redis URL like redis://127.0.0.1:6379' }).transform((v, ctx): string => {
  let target;
  try {
    target = parseRedisUrl(v, 'x');
  } catch (err) {
    return fail(ctx, (err as Error).message.replace(/^x: /, ''));
  }
  if (target.password !== undefined) return fail(ctx, 'must not hold a password: put it in an environment variable and name it in venue.rateBudget.passwordEnv');
  return v.trim();
});

/** One rate budget shared in Redis by every bot on one key (docs/cluster.md). */
const rateBudgetSchema = z.strictObject({
  redis: redisUrl,
  /** How many bots share the key: each one's share of the limits while Redis is away. */
  bots: int(1, 10_000),
  /** What the bots sharing the windows have in common; default: the trading URL and the API key (hashed). */
  scope: slug.optional(),
  passwordEnv: envName.optional(),
});

const venueSchema = z.strictObject({
  profile: z.enum(VENUE_PROFILES).default('interface'),
  baseUrl: url.optional(),
  urls: z.strictObject({ metadata: url.optional(), trading: url.optional(), analytics: url.optional() }).optional(),
  embedded: embeddedSchema.optional(),
  timeoutMs: ms(100, 600_000).default(10_000),
  retries: int(0, 10).default(2),
  limits: z.strictObject({ windowScale: z.number().positive().max(1000).default(1) }).prefault({}),
  rateBudget: rateBudgetSchema.optional(),
  chainId: int(1).default(DEFAULT_CHAIN_ID),
  contracts: z
    .strictObject({
      exchange: address.default(DEFAULT_EXCHANGE),
      negRiskExchange: address.default(DEFAULT_NEG_RISK_EXCHANGE),
    })
    .prefault({}),
});

const accountSchema = z.strictObject({
  address: address.optional(),
  funder: address.optional(),
  signatureType: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 0 (EOA), 1 (proxy wallet), 2 (Gnosis safe) or 3 (deposit wallet)' })
    .default(0),
  privateKeyEnv: envName.optional(),
  keyFile: pathText.optional(),
  apiKeyEnv: envName.default(DEFAULT_SECRET_ENV.apiKey),
  apiSecretEnv: envName.default(DEFAULT_SECRET_ENV.apiSecret),
  apiPassphraseEnv: envName.default(DEFAULT_SECRET_ENV.apiPassphrase),
});

/** `markets: all`: every open market of the venue. */
export const ALL_MARKETS = 'all';
/** The most markets a filter takes (`maxCount`); `markets: all` asks for this many. */
export const MAX_MARKET_COUNT = 1_000_000;

const marketFilterSchema = z.strictObject({
  tags: z.array(slug).default([]),
  active: z.boolean().default(true),
  acceptingOrders: z.boolean().default(true),
  // only markets that pay liquidity rewards (docs/rewards.md)
  rewards: z.boolean().default(false),
  maxCount: int(1, MAX_MARKET_COUNT).default(20),
});

const marketSelectionObject = z.strictObject({
  tokenIds: z.array(tokenId).default([]),
  conditionIds: z.array(conditionId).default([]),
  slugs: z.array(slug).default([]),
  /** Event slugs: every market the event lists. */
  events: z.array(slug).default([]),
  filter: marketFilterSchema.optional(),
});

/**
 * A market selection, or `all`: every market the venue lists that is open, takes orders and has a
 * book (the filter's defaults with no count limit; docs/whole-venue.md).
 */
const marketSelectionSchema = z.preprocess((v, ctx) => {
  if (v === ALL_MARKETS) return { filter: { maxCount: MAX_MARKET_COUNT } };
  // a word that is not `all` (a typo such as `alll`): say what the key takes, not only "a mapping"
  if (typeof v === 'string') {
    ctx.addIssue({ code: 'custom', message: `must be ${ALL_MARKETS} or a mapping (tokenIds, conditionIds, slugs, events, filter)`, input: v });
    return z.NEVER;
  }
  return v;
}, marketSelectionObject);

const dataSchema = z.strictObject({
  transport: z.enum(MARKET_DATA_TRANSPORTS).default('poll'),
  pollIntervalMs: z
    .union([ms(50), z.literal('auto')], { error: 'must be a whole number of milliseconds >= 50, or auto' })
    .default(1000),
  staleAfterMs: ms(1).default(5000),
  markets: marketSelectionSchema.optional(),
  /** Re-evaluate filter selections this often (a scan of GET /markets); 0 = chosen once at start. */
  marketRefreshMs: z.union([z.literal(0), ms(1_000)], { error: 'must be 0 (off) or a whole number of milliseconds >= 1000' }).default(60_000),
  /** WS watchdog: a connection with no market message this long is resubscribed and refreshed by REST; 0 = off. */
  wsSilentAfterMs: z.union([z.literal(0), ms(100)], { error: 'must be 0 (off) or a whole number of milliseconds >= 100' }).default(30_000),
  wsMaxAssetsPerConnection: int(1, 500).default(500),
  /** Wallets followed through the venue's wallet analytics; their trades reach onWalletTrade (docs/wallets.md). */
  wallets: z
    .strictObject({
      addresses: z.array(address).min(1, { error: 'must list at least one wallet address' }),
      /** A round reads each wallet's newest fills once; rounds start this often. */
      pollMs: ms(250).default(2_000),
      /** `activity` = GET /activity?user=, `trades` = GET /trades?user=&takerOnly=false. */
      route: z.enum(['activity', 'trades']).default('activity'),
      /** Rows per request (the routes allow 500 and 10000). */
      pageSize: int(1, 500).default(100),
      /** Deliver the fills the first round finds (recent history) too. */
      backfill: z.boolean().default(false),
    })
    .optional(),
  /** How often each market's status (closed, winner) is read from the venue (GET /markets/{id}); 0 = never. */
  marketStatusMs: z.union([z.literal(0), ms(100)], { error: 'must be 0 (off) or a whole number of milliseconds >= 100' }).default(30_000),
  /** How often each token's fee rate is read from the venue (GET /fee-rate); 0 = never (the listed rates hold). */
  feeRateRefreshMs: z.union([z.literal(0), ms(1_000)], { error: 'must be 0 (off) or a whole number of milliseconds >= 1000' }).default(60_000),
  /** A sports market's book is taken as cleared this long after its listed game start. */
  gameStartGraceMs: int(0, 60_000).default(1_000),
});

const strategySchema = z.strictObject({
  id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must be 1 to 64 letters, digits, -, _ or . (starting with a letter or digit)' }),
  module: nonEmpty,
  enabled: z.boolean().default(true),
  params: z.record(z.string(), z.unknown()).default({}),
  markets: marketSelectionSchema.optional(),
  /** The most collateral this strategy may commit (its positions at cost plus its open BUYs): the strategyBudget check; absent: none. */
  budget: money('positive').optional(),
});

const riskSchema = z.strictObject({
  checks: z.array(z.enum(CHECK_NAMES)).default([...DEFAULT_CHECK_ORDER]),
  maxOrderNotional: money('positive').default(decimalToMicros(100)),
  maxPositionPerToken: money('positive').default(decimalToMicros(1_000)),
  maxPositionPerMarket: money('positive').default(decimalToMicros(1_000)),
  maxGrossExposure: money('positive').default(decimalToMicros(2_000)),
  maxNegRiskEventExposure: money('positive').default(decimalToMicros(1_000)),
  maxOpenOrders: int(1, 100_000).default(50),
  maxOrdersPerSecond: int(1, 10_000).default(20),
  staleBookMs: ms(1).default(10_000),
  dailyLossLimit: money('positive').default(decimalToMicros(200)),
  maxConsecutiveRejects: int(1, 10_000).default(10),
  haltFile: pathText.default('.clobot/HALT'),
});

const executionSchema = z.strictObject({
  maxBatchWaitMs: ms(0, 10_000).default(50),
  maxBatchSize: int(1, MAX_ORDERS_PER_BATCH).default(MAX_ORDERS_PER_BATCH),
  quoteTolerance: z
    .strictObject({
      priceTicks: int(0, 100).default(0),
      sizeShare: z.number().min(0).max(1).default(0.1),
    })
    .prefault({}),
  orderTimeoutMs: ms(100, 600_000).default(10_000),
  heartbeatIntervalMs: ms(100, VENUE_HEARTBEAT_DEADLINE_MS - 1).default(5000),
  cancelOnStop: z.boolean().default(true),
  // a halt cancels our resting orders unless this is false (new orders are denied either way)
  cancelOnHalt: z.boolean().default(true),
  // how long a stop cancels, retries and checks the venue's open orders before it gives up (exit 3)
  stopDeadlineMs: ms(1_000, 600_000).default(30_000),
  orphans: z.enum(['cancel', 'adopt']).default('cancel'),
  // live: how often the account (the venue's balance and positions) is read again after start; 0 = at start only
  accountSyncMs: ms(0, 3_600_000).default(30_000),
  // live: how long the venue is taken to stay post-only after its matching engine restarted (docs/venue-states.md)
  postOnlyAfterRestartMs: ms(0, 600_000).default(120_000),
  // liquidity rewards: the run estimates ours at every multiple of this (docs/rewards.md); the venue samples each minute
  rewardSampleMs: ms(10, 86_400_000).default(60_000),
  // live: each sample's share is the venue's own figure (GET /rewards/user/percentages), the model's when it does not answer
  rewardVenueShare: z.boolean().default(true),
  // how long a finished order stays in memory (its late fills still booked); the store keeps every order
  closedOrderRetentionMs: ms(60_000, 86_400_000).default(3_600_000),
  signing: z
    .strictObject({
      helpers: int(0, 16).default(0),
      spinMs: ms(0, 60_000).default(0),
    })
    .prefault({}),
  busyPoll: z.boolean().default(false),
  // live: our fills and order updates from the venue's user channel, polling as the fallback (docs/user-channel.md);
  // paper and backtest read nothing of it
  userChannel: z
    .strictObject({
      enabled: z.boolean().default(true),
      url: wsUrl.optional(),
      auditPollMs: z.union([z.literal(0), ms(1_000)], { error: 'must be 0 (off) or a whole number of milliseconds >= 1000' }).default(30_000),
    })
    .prefault({}),
});

const loggingSchema = z.strictObject({
  level: z.enum(LOG_LEVELS).default('info'),
  file: pathText.optional(),
  pretty: z.union([z.boolean(), z.literal('auto')], { error: 'must be true, false or auto' }).default('auto'),
});

const storeSchema = z.strictObject({ path: pathText.optional() });

/** One alert receiver (src/telemetry/alert-formats.ts): a webhook URL from `urlEnv`, or a Telegram bot's token from `tokenEnv`. */
const alertTargetSchema = z.strictObject({
  format: z.enum(ALERT_FORMATS),
  urlEnv: envName.optional(),
  tokenEnv: envName.optional(),
  chatId: z.union([nonEmpty, z.number().int()]).optional(),
  apiUrl: url.optional(),
});

/** Alerts (issue 23 point 5): where they go, how often per kind, the daily-loss threshold. */
const alertsSchema = z.strictObject({
  targets: z.array(alertTargetSchema).min(1, { error: 'must list at least one target' }),
  /** At most one alert of a kind per this long (the ones between are counted into the next). */
  minIntervalMs: ms(0).default(300_000),
  /** The run's net PnL below minus this (USDC) is a `dailyLoss` alert. */
  dailyLoss: money('positive').optional(),
  /** Attempts per message (a failing or hanging receiver), with backoff from 500 ms. */
  attempts: int(1, 20).default(5),
  timeoutMs: ms(100, 60_000).default(5_000),
});

const paperSchema = z.strictObject({ balance: money('positive').default(decimalToMicros(10_000)) });

/** A time: ISO 8601 with a zone, a date, or epoch ms (src/config/window-time.ts), as epoch ms. */
const windowTime = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const t = readTime(v);
  if (t === undefined) ctx.addIssue({ code: 'custom', message: `must be ${TIME_FORMS}` });
  return t ?? 0;
});

const backtestSchema = z
  .strictObject({
    balance: money('positive').default(decimalToMicros(10_000)),
    latencyMs: ms(0, 60_000).default(100),
    entryLatencyMs: ms(0, 60_000).optional(),
    responseLatencyMs: ms(0, 60_000).optional(),
    queueModel: z.enum(QUEUE_MODEL_NAMES).default('conservative'),
    fees: z
      .strictObject({ makerBps: decimal('nonNegative').default(new Dec(0)), takerBps: decimal('nonNegative').default(new Dec(0)) })
      .optional(),
    feeSource: z.enum(FEE_SOURCES).optional(),
    equityIntervalMs: ms(1_000).default(60_000),
    /** A strategy that throws stops the backtest (false), or the event is skipped and the fault counted (true). */
    keepGoing: z.boolean().default(false),
    /** How our fills settle on chain in paper and backtest (src/sim/settlement-model.ts); default: CONFIRMED at once. */
    settlement: z
      .strictObject({
        minedMs: ms(0, 3_600_000).default(0),
        confirmedMs: ms(0, 3_600_000).default(0),
        retryRate: z.number().min(0).max(1).default(0),
        failRate: z.number().min(0).max(1).default(0),
        seed: int(0).default(1),
      })
      .refine((k) => k.retryRate + k.failRate <= 1, { error: 'retryRate + failRate must be at most 1', path: ['failRate'] })
      .prefault({}),
    /** Matching delay of every market in paper and backtest, ms (a marketable order is DELAYED this long); absent: none. */
    matchingDelayMs: ms(0, 600_000).optional(),
    /** The data's window (src/backtest/data-window.ts): events from `from` (inclusive) to `to` (exclusive); absent: open. */
    from: windowTime.optional(),
    to: windowTime.optional(),
  })
  .refine((b) => b.from === undefined || b.to === undefined || b.from < b.to, { error: 'must be after backtest.from', path: ['to'] })
  // the one-way latency is the default of both legs; fees written in the file apply to every
  // market unless feeSource says otherwise, and without them each market's recorded rates apply
  .transform((b) => ({
    balance: b.balance,
    latencyMs: b.latencyMs,
    entryLatencyMs: b.entryLatencyMs ?? b.latencyMs,
    responseLatencyMs: b.responseLatencyMs ?? b.latencyMs,
    queueModel: b.queueModel,
    fees: b.fees ?? { makerBps: new Dec(0), takerBps: new Dec(0) },
    feeSource: b.feeSource ?? (b.fees !== undefined ? ('config' as const) : ('market' as const)),
    equityIntervalMs: b.equityIntervalMs,
    keepGoing: b.keepGoing,
    settlement: b.settlement,
    matchingDelayMs: b.matchingDelayMs,
    from: b.from,
    to: b.to,
  }));

/** The whole file. */
export const configFileSchema = z.strictObject({
  mode: z.enum(MODES),
  name: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must be 1 to 64 letters, digits, -, _ or .' })
    .optional(),
  venue: venueSchema.optional(),
  account: accountSchema.optional(),
  data: dataSchema.prefault({}),
  strategies: z.array(strategySchema).default([]),
  risk: riskSchema.prefault({}),
  execution: executionSchema.prefault({}),
  logging: loggingSchema.prefault({}),
  store: storeSchema.prefault({}),
  alerts: alertsSchema.optional(),
  paper: paperSchema.prefault({}),
  backtest: backtestSchema.prefault({}),
});

/** A config file after parsing: defaults filled, values typed, nothing resolved yet. */
export type ConfigFile = z.output<typeof configFileSchema>;
export type VenueSection = NonNullable<ConfigFile['venue']>;
export type AccountSection = NonNullable<ConfigFile['account']>;
export type MarketSelectionSection = z.output<typeof marketSelectionObject>;
