import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { interval, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { LiveClock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { RateLimitConfig } from '../venue/rate-limits.ts';
import { isFlowAccount } from './flow/flow-accounts.ts';
import type { SandboxContext } from './context.ts';
import { FaultKnobs, type FaultPatch } from './faults.ts';
import { installPipeline } from './pipeline.ts';
import { SANDBOX_PROFILES, type SandboxProfile } from './profile.ts';
import { SandboxRateLimiter } from './rate-limiter.ts';
import { RequestStats } from './request-stats.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerCommentRoutes } from './routes/comments.ts';
import { registerMarketsDispatch } from './routes/markets-dispatch.ts';
import { registerMetadataRoutes } from './routes/metadata.ts';
import { registerTradingRoutes } from './routes/trading.ts';
import { accountTradesHandler, registerAccountDataRoutes } from './routes/account-data.ts';
import { registerAuthRoutes } from './routes/auth.ts';
import { registerBalanceAllowanceRoute, registerPositionsRoute } from './routes/account-state.ts';
import { registerHeartbeatRoutes } from './routes/heartbeats.ts';
import { registerOrderRoutes } from './routes/orders.ts';
import { ApiKeyRegistry } from './trading/api-keys.ts';
import { WalletRegistry } from './trading/wallets.ts';
import { EngineBookSource } from './trading/engine-books.ts';
import { HeartbeatSessions } from './trading/heartbeats.ts';
import { OrderLog } from './trading/order-log.ts';
import { SandboxActivity, type SandboxActivityOptions } from './trading/sandbox-activity.ts';
import type { MatchingEngineOptions } from '../sim/matching/matching-engine.ts';
import { LIQUIDITY_ADDRESS, LIQUIDITY_OWNER, SandboxEngine } from './trading/sandbox-engine.ts';
import { DEFAULT_EXCHANGE_ADDRESSES, POLYGON_CHAIN_ID } from '../venue/signing/eip712.ts';
import { isAddress } from '../venue/signing/address.ts';
import { World } from './world/world.ts';
import { installSyntheticFlow, type SandboxFlowOptions } from './flow/install-flow.ts';
import { installEpisodes } from './flow/install-episodes.ts';
import type { LeaderWalletOptions } from './flow/leader-wallets.ts';
import type { NegRiskEpisodeOptions } from './flow/neg-risk-episodes.ts';
import { checkNearEndOptions, type NearEndEpisodeOptions } from './flow/near-end-episodes.ts';
import { installMarketChannel, type SandboxWsOptions } from './ws/install-market-channel.ts';
import { installUserChannel } from './ws/install-user-channel.ts';
import { PAGE_SIZE } from './cursor.ts';
import { installMarketResolution } from './routes/admin-markets.ts';
import { installVenueChanges } from './routes/admin-venue-changes.ts';
import { checkFeeChangeOptions, type FeeChangeOptions } from './world/fee-changes.ts';
import { checkGameStartOptions, type GameStartOptions } from './world/game-starts.ts';
import { checkResolutionOptions, MarketResolutions, type ResolutionOptions } from './world/market-resolution.ts';
import { RewardSampler, type SandboxRewardOptions } from './rewards/reward-sampler.ts';
import { registerOrderScoringRoute, registerRewardAdminRoute, registerRewardPercentagesRoute } from './routes/rewards.ts';
import { installMarketCreation } from './world/install-market-creation.ts';
import { checkNewMarketOptions, type NewMarketOptions } from './world/market-creation.ts';

/**
 * The sandbox venue: a fastify server over a world generated from a seed, speaking the wire of
 * the interface on one port. Every route group is served at the root and again under its own
 * prefix (`/gamma` metadata, `/clob` trading, `/data` analytics and comments), so a client can
 * be set up with one base URL or three.
 */
export interface SandboxOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Default 1. */
  readonly seed?: number;
  /** Default 200. */
  readonly markets?: number;
  /** Default 50 (at most `markets`). */
  readonly events?: number;
  /** Default `interface`. */
  readonly profile?: SandboxProfile;
  /** Part 8's limits, adapted (`windowScale`, `routeOverrides`, `enabled: false`). */
  readonly limits?: RateLimitConfig;
  /** Venue time: book timestamps, `/time`, history windows, rate windows. Default live time. */
  readonly clock?: Clock;
  readonly faults?: FaultPatch;
  /** pino logger; none by default. */
  readonly logger?: Logger;
  /** Collateral of an address the first time it trades or is queried, whole units. Default 10,000. */
  readonly startingBalance?: number;
  /** An armed API key whose beats stop for this long has its open orders cancelled, ms. Default 10,000. */
  readonly heartbeatTimeoutMs?: number;
  /** How often the heartbeat deadlines are checked on the clock, ms. Default 250. */
  readonly heartbeatCheckMs?: number;
  /** L1 and L2 timestamps must be within this of the sandbox clock, seconds. Default 30. */
  readonly authWindowSeconds?: number;
  /** Items per page of `/data/orders` and `/data/trades` (tests make it small to have many pages). Default 100. */
  readonly accountPageSize?: number;
  /**
   * Keys the HMACs that derive API credentials. Default: random at every start, so nobody can
   * compute an account's credentials from the seed and those of one start fail at the next.
   */
  readonly serverSecret?: string;
  /**
   * For tests: the server secret follows the seed, so the same address and nonce get the same
   * credentials at every start with that seed (anyone who knows the seed can compute them). Not
   * with `serverSecret`.
   */
  readonly deterministicKeys?: boolean;
  /** When set, every admin route needs `authorization: Bearer <adminToken>`. Default: none. */
  readonly adminToken?: string;
  /** EIP-712 chain id of orders and ClobAuth. Default 137. */
  readonly chainId?: number;
  /** Order verifying contracts. Default DEFAULT_EXCHANGE_ADDRESSES. */
  readonly exchanges?: { readonly standard: string; readonly negRisk: string };
  /** Synthetic order flow on the sandbox clock: `enabled` (default true), `intensity` (default 1). */
  readonly flow?: SandboxFlowOptions;
  /** Neg-risk episodes: outcome sets mispriced for a while (flow/neg-risk-episodes.ts; default none start by themselves). */
  readonly episodes?: NegRiskEpisodeOptions;
  /** Leader wallets: synthetic traders whose trades come before price moves (flow/leader-wallets.ts; default none start by themselves). */
  readonly leaders?: LeaderWalletOptions;
  /** Near-end episodes: markets nearing their end date while a favourite drifts toward certainty, then resolving (flow/near-end-episodes.ts; default none). */
  readonly nearEnd?: NearEndEpisodeOptions;
  /** Markets that close at their end date and resolve during the run (seeded; default none). */
  readonly resolution?: ResolutionOptions;
  /** Markets created while the sandbox runs (`everyMs`), besides `POST /admin/markets/create`. */
  readonly newMarkets?: NewMarketOptions;
  /** A fee-rate change of the venue's markets while it runs (world/fee-changes.ts; default none), besides `POST /admin/fee-rate`. */
  readonly feeChange?: FeeChangeOptions;
  /** Sports markets whose game starts (book cleared) during the run (world/game-starts.ts; default none), besides `POST /admin/games/start`. */
  readonly gameStarts?: GameStartOptions;
  /** Liquidity rewards (docs/rewards.md): `enabled` (default true), `sampleMs` (default 60,000). */
  readonly rewards?: SandboxRewardOptions;
  /** The WebSocket market channel's caps per caller (remote IP address) and its backpressure limit. */
  readonly ws?: SandboxWsOptions;
  /**
   * A request whose body (or headers) has not fully arrived this long after it started is
   * answered 408 and its connection closed, ms. Default 10,000; 0 turns the limit off.
   */
  readonly requestTimeoutMs?: number;
}

/** Default `requestTimeoutMs`: a partial request body is not held open longer than this. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

export interface RunningSandbox {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly world: World;
  readonly faults: FaultKnobs;
  /** The matching engine behind books and orders. */
  readonly engine: SandboxEngine;
  /** Everything the routes read (engine, keys, order log, heartbeats). */
  readonly context: SandboxContext;
  close(): Promise<void>;
}

/** Defaults of the trading options. */
export const DEFAULT_STARTING_BALANCE = 10_000;

/**
 * Trades and fills the sandbox keeps in its all-accounts lists: at least this many of the newest
 * (at most twice as many). Clients' own orders, trades and fills are kept in full.
 */
export const SANDBOX_TRADE_HISTORY = 20_000;
/** Fills kept per synthetic account (flow agents, seeded liquidity): at least this many of the newest. */
export const SANDBOX_FLOW_WALLET_HISTORY = 2_000;

/**
 * What the sandbox remembers: clients' own orders, trades and fills in full; its own accounts (the
 * synthetic flow and the seeded liquidity, which trade for as long as the sandbox runs) forget
 * their closed orders at once and keep only their newest fills, and the all-accounts trade and
 * fill lists keep the newest, so memory stays flat over hours.
 */
/** The sandbox's own accounts (flow agents and the seeded liquidity), by owner or address. */
export function isSyntheticAccount(ownerOrAddress: string): boolean {
  return isFlowAccount(ownerOrAddress) || ownerOrAddress === LIQUIDITY_OWNER || ownerOrAddress.toLowerCase() === LIQUIDITY_ADDRESS_LOWER;
}
const LIQUIDITY_ADDRESS_LOWER = LIQUIDITY_ADDRESS.toLowerCase();

export function sandboxHistory(): { engine: Pick<MatchingEngineOptions, 'transientOwner' | 'tradeHistory'>; activity: SandboxActivityOptions } {
  return {
    engine: { transientOwner: isSyntheticAccount, tradeHistory: SANDBOX_TRADE_HISTORY },
    activity: { history: SANDBOX_TRADE_HISTORY, walletHistory: SANDBOX_FLOW_WALLET_HISTORY, transientWallet: isSyntheticAccount },
  };
}
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 10_000;
export const DEFAULT_HEARTBEAT_CHECK_MS = 250;
export const DEFAULT_AUTH_WINDOW_SECONDS = 30;
/** Retry-After of the trading modes' 503 answers, seconds. */
export const MODE_RETRY_AFTER_SECONDS = 5;

export const DEFAULT_SANDBOX_HOST = '127.0.0.1';
/** Largest world the options accept. */
export const MAX_SANDBOX_MARKETS = 100_000;

const contexts = new WeakMap<FastifyInstance, SandboxContext>();

/** The sandbox as a fastify instance that is not listening yet (for in-process use and `inject`). */
export function buildSandboxApp(options: SandboxOptions = {}): FastifyInstance {
  checkOptions(options);
  const clock = options.clock ?? new LiveClock();
  const seed = options.seed ?? 1;
  const world = new World({ seed, markets: options.markets ?? 200, events: options.events ?? 50, clock });
  const closing = new AbortController();
  const faults = new FaultKnobs(seed, options.faults ?? {}, () => clock.now());
  const engine = new SandboxEngine(world, clock, {
    startingCollateral: Math.round((options.startingBalance ?? DEFAULT_STARTING_BALANCE) * 1_000_000),
    ...sandboxHistory().engine,
    onListenerError: (error, event) => {
      if (options.logger) options.logger.error({ err: error, event: event.type }, 'sandbox engine listener failed');
      else process.emitWarning(`sandbox engine listener failed on ${event.type}: ${error instanceof Error ? error.message : String(error)}`);
    },
  }, faults);
  world.books = new EngineBookSource(world, engine, clock);
  const heartbeats = new HeartbeatSessions({
    seed,
    timeoutMs: options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    onExpire: (apiKey, now) => {
      const result = engine.cancelAll(apiKey, now);
      options.logger?.info({ canceled: result.canceled.length }, 'heartbeat deadline passed: open orders of the key cancelled');
    },
    ignore: () => faults.settings.ignoreHeartbeats,
  });
  const ctx: SandboxContext = {
    world,
    clock,
    profile: options.profile ?? 'interface',
    faults,
    limiter: new SandboxRateLimiter(options.limits ?? {}, clock),
    stats: new RequestStats(),
    closing: closing.signal,
    engine,
    trading: {
      authWindowMs: (options.authWindowSeconds ?? DEFAULT_AUTH_WINDOW_SECONDS) * 1000,
      heartbeatTimeoutMs: heartbeats.timeoutMs,
      chainId: options.chainId ?? POLYGON_CHAIN_ID,
      exchanges: options.exchanges ?? DEFAULT_EXCHANGE_ADDRESSES,
      modeRetryAfterSeconds: MODE_RETRY_AFTER_SECONDS,
      accountPageSize: options.accountPageSize ?? PAGE_SIZE,
    },
    apiKeys: new ApiKeyRegistry(serverSecretOf(options, seed)),
    wallets: new WalletRegistry(),
    adminToken: options.adminToken,
    orderLog: new OrderLog(),
    heartbeats,
    activity: new SandboxActivity(world, engine, sandboxHistory().activity),
    rewards: options.rewards?.enabled === false ? undefined : new RewardSampler(world, engine, clock, options.rewards),
    resolutions: new MarketResolutions(world, engine),
  };
  ctx.accountTrades = accountTradesHandler(ctx);
  // typed as Fastify's logger, so the instance is the plain FastifyInstance, not one generic over pino
  const logger: FastifyBaseLogger | undefined = options.logger;
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // node checks the timeout on a timer of this period (default 30 s): a quarter of the limit, 50 ms to 1 s
  const http = { requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeout / 4))) };
  const app: FastifyInstance = logger
    ? Fastify({
        loggerInstance: logger,
        logController: new LogController({ disableRequestLogging: true }),
        forceCloseConnections: true,
        requestTimeout,
        http,
      })
    : Fastify({ logger: false, forceCloseConnections: true, requestTimeout, http });
  contexts.set(app, ctx);
  // Housekeeping on the sandbox clock: heartbeat deadlines, and GTD expiries so they reach
  // event listeners (the WebSocket channel) without waiting for the next engine call.
  let housekeeping: Subscription | undefined;
  app.addHook('onReady', (done) => {
    housekeeping ??= interval(options.heartbeatCheckMs ?? DEFAULT_HEARTBEAT_CHECK_MS, clock.scheduler).subscribe(() => {
      const now = clock.now();
      engine.expire(now);
      heartbeats.check(now);
    });
    ctx.rewards?.start();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    housekeeping?.unsubscribe();
    ctx.rewards?.stop();
    closing.abort();
    done();
  });

  installPipeline(app, ctx);
  registerAdminRoutes(app, ctx);
  registerRewardAdminRoute(app, ctx);
  // root mount: every group on one base URL
  registerMetadataRoutes(app, ctx, { marketsById: false });
  registerTradingRoutes(app, ctx, { marketsByConditionId: false });
  registerTradingAccountRoutes(app, ctx, { accountTrades: false });
  registerMarketsDispatch(app, ctx);
  registerAnalyticsRoutes(app, ctx, { dataMount: false });
  registerPositionsRoute(app, ctx);
  registerCommentRoutes(app, ctx);
  // one prefix per group: three base URLs against one sandbox
  void app.register(
    (gamma, _options, done) => {
      registerMetadataRoutes(gamma, ctx, { marketsById: true });
      done();
    },
    { prefix: '/gamma' },
  );
  void app.register(
    (clob, _options, done) => {
      registerTradingRoutes(clob, ctx, { marketsByConditionId: true });
      registerTradingAccountRoutes(clob, ctx, { accountTrades: true });
      done();
    },
    { prefix: '/clob' },
  );
  void app.register(
    (data, _options, done) => {
      registerAnalyticsRoutes(data, ctx, { dataMount: true });
      registerPositionsRoute(data, ctx);
      registerCommentRoutes(data, ctx);
      done();
    },
    { prefix: '/data' },
  );
  // Synthetic order flow (starts when the app is ready) and the WS market channel on this server.
  const flow = installSyntheticFlow(app, ctx, ctx.engine, options.flow);
  installEpisodes(app, ctx, options, flow);
  installMarketChannel(app, ctx, ctx.engine, options.ws);
  installUserChannel(app, ctx, options.ws);
  installMarketResolution(app, ctx, options.resolution, options.logger);
  installMarketCreation(app, ctx, options.newMarkets, options.logger);
  installVenueChanges(app, ctx, { fees: options.feeChange, games: options.gameStarts }, options.logger);
  return app;
}

/**
 * The authenticated routes of the trading group: keys, orders, cancels, account data,
 * heartbeats. At the root `GET /data/trades` belongs to the `/data` mount (`ctx.accountTrades`).
 */
function registerTradingAccountRoutes(app: FastifyInstance, ctx: SandboxContext, options: { accountTrades: boolean }): void {
  registerAuthRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerAccountDataRoutes(app, ctx, options);
  registerBalanceAllowanceRoute(app, ctx);
  registerHeartbeatRoutes(app, ctx);
  registerOrderScoringRoute(app, ctx);
  registerRewardPercentagesRoute(app, ctx);
}

/** The context (world, faults, limits, counts) behind an app made by `buildSandboxApp`. */
export function sandboxContextOf(app: FastifyInstance): SandboxContext {
  const ctx = contexts.get(app);
  if (!ctx) throw new ConfigError('not a sandbox app');
  return ctx;
}

/** Builds the sandbox and listens; resolves once it accepts connections. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const app = buildSandboxApp(options);
  const ctx = sandboxContextOf(app);
  const host = options.host ?? DEFAULT_SANDBOX_HOST;
  await app.listen({ host, port: options.port ?? 0 });
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const credentials = options.serverSecret !== undefined ? 'given secret' : options.deterministicKeys === true ? 'seed-derived' : 'random secret';
  options.logger?.info(
    { url, seed: ctx.world.seed, markets: ctx.world.markets.length, events: ctx.world.events.length, profile: ctx.profile, credentials, adminToken: ctx.adminToken !== undefined },
    'sandbox listening',
  );
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    world: ctx.world,
    faults: ctx.faults,
    engine: ctx.engine,
    context: ctx,
    close: () => (closed ??= app.close()),
  };
}

/** The secret behind the API credentials: given, seed-derived (`deterministicKeys`) or random. */
function serverSecretOf(options: SandboxOptions, seed: number): string {
  if (options.serverSecret !== undefined) return options.serverSecret;
  return options.deterministicKeys === true ? `clobot-sandbox-server-secret:${seed}` : randomBytes(32).toString('hex');
}

/** An admin token: 16 to 256 visible ASCII characters (no spaces). */
const ADMIN_TOKEN_RE = /^[\x21-\x7e]{16,256}$/;

function checkOptions(o: SandboxOptions): void {
  const int = (name: string, value: number | undefined, min: number, max: number): void => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`sandbox.${name}: must be an integer in ${min}..${max}, was ${value}`);
  };
  int('port', o.port, 0, 65_535);
  int('seed', o.seed, 0, Number.MAX_SAFE_INTEGER);
  int('markets', o.markets, 1, MAX_SANDBOX_MARKETS);
  int('events', o.events, 1, MAX_SANDBOX_MARKETS);
  if (o.profile !== undefined && !SANDBOX_PROFILES.includes(o.profile)) {
    throw new ConfigError(`sandbox.profile: must be one of ${SANDBOX_PROFILES.join(', ')}, was '${String(o.profile)}'`);
  }
  const positive = (name: string, value: number | undefined, max: number): void => {
    if (value === undefined) return;
    if (!Number.isFinite(value) || value <= 0 || value > max) throw new ConfigError(`sandbox.${name}: must be a number in (0, ${max}], was ${value}`);
  };
  if (o.startingBalance !== undefined && (!Number.isFinite(o.startingBalance) || o.startingBalance < 0 || o.startingBalance > 1e9 || !Number.isInteger(o.startingBalance * 1_000_000))) {
    throw new ConfigError(`sandbox.startingBalance: must be 0 to 1e9 with at most 6 decimals, was ${o.startingBalance}`);
  }
  int('heartbeatTimeoutMs', o.heartbeatTimeoutMs, 1, 86_400_000);
  int('heartbeatCheckMs', o.heartbeatCheckMs, 1, 60_000);
  int('requestTimeoutMs', o.requestTimeoutMs, 0, 3_600_000);
  int('ws.maxConnectionsPerCaller', o.ws?.maxConnectionsPerCaller, 1, 1_000_000);
  int('ws.maxSubscriptionsPerCaller', o.ws?.maxSubscriptionsPerCaller, 1, 100_000_000);
  int('ws.maxBufferedBytes', o.ws?.maxBufferedBytes, 1024, 2 ** 31);
  positive('authWindowSeconds', o.authWindowSeconds, 86_400 * 365);
  int('accountPageSize', o.accountPageSize, 1, 10_000);
  int('chainId', o.chainId, 1, Number.MAX_SAFE_INTEGER);
  if (o.exchanges !== undefined && (!isAddress(o.exchanges.standard) || !isAddress(o.exchanges.negRisk))) {
    throw new ConfigError('sandbox.exchanges: standard and negRisk must be 0x addresses');
  }
  if (o.serverSecret !== undefined && o.serverSecret.length < 8) throw new ConfigError('sandbox.serverSecret: must be at least 8 characters');
  if (o.serverSecret !== undefined && o.deterministicKeys === true) {
    throw new ConfigError('sandbox.deterministicKeys: cannot be combined with serverSecret (the secret would no longer follow the seed)');
  }
  if (o.adminToken !== undefined && !ADMIN_TOKEN_RE.test(o.adminToken)) {
    throw new ConfigError('sandbox.adminToken: must be 16 to 256 visible ASCII characters without spaces');
  }
  if (o.resolution !== undefined) checkResolutionOptions(o.resolution);
  if (o.nearEnd !== undefined) checkNearEndOptions(o.nearEnd);
  if (o.newMarkets !== undefined) checkNewMarketOptions(o.newMarkets);
  if (o.feeChange !== undefined) checkFeeChangeOptions(o.feeChange);
  if (o.gameStarts !== undefined) checkGameStartOptions(o.gameStarts);
  const scale = o.limits?.windowScale;
  if (scale !== undefined && !(scale > 0)) throw new ConfigError(`sandbox.limits.windowScale: must be > 0, was ${scale}`);
}
