import type { Dec, Micros } from '../core/fixed.ts';
import type { Secret } from '../core/secret.ts';
import type { CheckName } from '../risk/types.ts';
import type { MarketSelection } from '../data/market-selection.ts';
import type { VenueProfile } from '../venue/domain/profiles.ts';
import type { QueueModelName } from '../sim/edge/queue-model.ts';

/**
 * The typed run configuration: what `loadConfig` returns after parsing a YAML file, filling
 * defaults, checking cross-field and mode rules and reading secrets from the environment.
 *
 * Everything is deeply frozen. Field names match the YAML keys, so an error about
 * `risk.maxOrderNotional` names the same path in the file and here. Units are in the names
 * (`...Ms`); money is exact `Micros` (integer count of 1e-6 collateral or shares, see
 * src/core/fixed.ts), never a float. Relative paths from the file are already resolved to
 * absolute paths (see `ConfigSource`).
 *
 * `RunConfig` is a union on `mode`, so `if (config.mode === 'live')` narrows `account` to a
 * `SigningAccount` with a private key.
 */
export type RunConfig = LiveRunConfig | PaperRunConfig | BacktestRunConfig;

export const MODES = ['live', 'paper', 'backtest'] as const;
export type Mode = (typeof MODES)[number];

/** The message formats an alert is sent in. */
export const ALERT_FORMATS = ['json', 'slack', 'discord', 'telegram'] as const;
export type AlertFormat = (typeof ALERT_FORMATS)[number];

/** One receiver, resolved: where to POST (a Secret: the URL carries the webhook's or the bot's token). */
export interface AlertTarget {
  readonly format: AlertFormat;
  readonly url: Secret<string>;
  /** Telegram: the chat the bot writes to. */
  readonly chatId?: string;
}

export interface AlertsConfig {
  readonly targets: readonly AlertTarget[];
  readonly minIntervalMs: number;
  readonly dailyLoss?: Micros;
  readonly attempts: number;
  readonly timeoutMs: number;
}

/** A 0x-prefixed 20-byte address in EIP-55 checksummed form. */
export type Address = `0x${string}`;
/** A 0x-prefixed lowercase hex string (condition ids, private keys). */
export type Hex = `0x${string}`;

interface RunConfigBase {
  /** A name for the run (logs, store file); defaults to the config file's base name. */
  readonly name: string;
  readonly source: ConfigSource;
  readonly data: DataConfig;
  readonly strategies: readonly StrategyConfig[];
  readonly risk: RiskConfig;
  readonly execution: ExecutionConfig;
  readonly logging: LoggingConfig;
  readonly store: StoreConfig;
  /** Alert webhooks (src/telemetry/alerter.ts); absent: none. */
  readonly alerts?: AlertsConfig;
  readonly paper: PaperConfig;
  readonly backtest: BacktestConfig;
}

/** Real orders, signed and sent to the venue (a remote URL or the embedded sandbox). */
export interface LiveRunConfig extends RunConfigBase {
  readonly mode: 'live';
  readonly venue: VenueConfig;
  readonly account: SigningAccount;
}

/** Live market data, simulated fills; needs no key (an account, when given, is resolved anyway). */
export interface PaperRunConfig extends RunConfigBase {
  readonly mode: 'paper';
  readonly venue: VenueConfig;
  readonly account: AccountConfig | undefined;
}

/** Recorded data, simulated fills, virtual time; the account section is ignored. */
export interface BacktestRunConfig extends RunConfigBase {
  readonly mode: 'backtest';
  /** Only used when given (e.g. market metadata); a backtest needs no venue. */
  readonly venue: VenueConfig | undefined;
  readonly account: undefined;
}

/** Where the config came from. */
export interface ConfigSource {
  /** The path as the user gave it; used in messages. */
  readonly file: string;
  /** Absolute path of the config file. */
  readonly path: string;
  /** Absolute directory of the config file (strategy modules resolve against it). */
  readonly dir: string;
  /** Absolute working directory that relative output paths (logs, store, halt file, key file) resolved against. */
  readonly cwd: string;
  /** Non-fatal remarks, one line each, in the same `path (file:line): text` form as errors. */
  readonly warnings: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// venue

/** The wire profile (PROTOCOL "Profiles"). */
export type { VenueProfile };

/** Base URL per route group, no trailing slash. */
export interface VenueUrls {
  readonly metadata: string;
  readonly trading: string;
  readonly analytics: string;
}

interface VenueCommon {
  readonly profile: VenueProfile;
  /** Per-request deadline. */
  readonly timeoutMs: number;
  /** Retries for reads (never for order posts). */
  readonly retries: number;
  /** Adjustments to the part 8 rate table; shaped like `RateLimitConfig` in src/venue/rate-limits.ts. */
  readonly limits: VenueLimits;
  /** One rate budget in Redis shared by every bot on the key; undefined: this run budgets alone. */
  readonly rateBudget?: VenueRateBudget;
  /** EIP-712 chain id (137, Polygon). */
  readonly chainId: number;
  readonly contracts: ExchangeContracts;
}

export interface VenueLimits {
  /** Multiplies every rate window length (limits unchanged); 1 = the table as published. */
  readonly windowScale: number;
}

/** `venue.rateBudget`: part 8's windows kept in Redis for several bots on one key (docs/cluster.md). */
export interface VenueRateBudget {
  /** redis://host:port[/db], without a password. */
  readonly redis: string;
  /** How many bots share the key (each one's share of the limits while Redis is away). */
  readonly bots: number;
  /** What the sharing bots have in common; default from the trading URL and the API key (hashed). */
  readonly scope?: string;
  /** The environment variable holding the Redis password, if it has one. */
  readonly passwordEnv?: string;
}

/** Verifying contracts of the order EIP-712 domain (PROTOCOL "Orders"). */
export interface ExchangeContracts {
  /** For markets with `neg_risk: false`. */
  readonly exchange: Address;
  /** For markets with `neg_risk: true`. */
  readonly negRiskExchange: Address;
}

/** A venue reached over the network at the given URLs. */
export interface RemoteVenueConfig extends VenueCommon {
  readonly kind: 'remote';
  readonly urls: VenueUrls;
}

/** The sandbox venue started in-process; its URLs are known once it listens. */
export interface EmbeddedVenueConfig extends VenueCommon {
  readonly kind: 'embedded';
  readonly embedded: EmbeddedSandboxConfig;
}

export type VenueConfig = RemoteVenueConfig | EmbeddedVenueConfig;

export interface EmbeddedSandboxConfig {
  /** World seed: the same seed gives the same markets, books and flow. */
  readonly seed: number;
  /** How many markets the sandbox generates. */
  readonly markets: number;
  /** How many events those markets are grouped into. */
  readonly events: number;
  /** Synthetic order flow so books move. */
  readonly flow: { readonly enabled: boolean; readonly intensity: number };
  /** Neg-risk episodes (src/sandbox/README.md): per event per hour, and the share with one outcome's depth withdrawn. */
  readonly episodes: { readonly ratePerHour: number; readonly withdrawLegShare: number };
  /** Near-end episodes (src/sandbox/README.md): per hour, planned within `withinMs` of start, the share whose favourite collapses. */
  readonly nearEnd: { readonly ratePerHour: number; readonly withinMs: number; readonly breakdownShare: number };
  /** Markets that close and resolve during the run: the first `markets` open ones, end dates within `withinMs`, resolved `resolveAfterMs` after closing. */
  readonly resolution: { readonly markets: number; readonly withinMs: number; readonly resolveAfterMs: number };
  /** The wire profile the sandbox speaks; always equal to `venue.profile`. */
  readonly profile: VenueProfile;
  /** Listen address; loopback by default. */
  readonly host: string;
  /** Listen port; 0 = any free port. */
  readonly port: number;
}

// ---------------------------------------------------------------------------------------------
// account

/** 0 EOA, 1 proxy wallet, 2 Gnosis safe, 3 deposit wallet (POLY_1271; PROTOCOL "Orders"). */
export type SignatureType = 0 | 1 | 2 | 3;

/** Where the private key came from (never the key itself). */
export type KeySource =
  | { readonly kind: 'env'; readonly name: string }
  | { readonly kind: 'file'; readonly path: string }
  /** Generated deterministically from `venue.embedded.seed`: valid only against the embedded sandbox. */
  | { readonly kind: 'sandbox'; readonly seed: number };

/** L2 API credentials read from the environment; absent = derive them with the key (L1) at start. */
export interface ApiCredentials {
  readonly apiKey: Secret<string>;
  readonly secret: Secret<string>;
  readonly passphrase: Secret<string>;
}

/** Names of the environment variables the secrets are read from. */
export interface SecretEnvNames {
  readonly privateKey: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly apiPassphrase: string;
}

export interface AccountConfig {
  /** The signer (EOA): derived from the key when there is one, else as given. */
  readonly address: Address | undefined;
  /** The maker: the funder (wallet) for signatureType 1, 2 and 3, the signer for 0. */
  readonly funder: Address | undefined;
  readonly signatureType: SignatureType;
  /** 0x + 64 lowercase hex digits. */
  readonly privateKey: Secret<Hex> | undefined;
  readonly keySource: KeySource | undefined;
  readonly apiCredentials: ApiCredentials | undefined;
  readonly env: SecretEnvNames;
}

/** An account that can sign: what live mode always has. */
export interface SigningAccount extends AccountConfig {
  readonly address: Address;
  readonly funder: Address;
  readonly privateKey: Secret<Hex>;
  readonly keySource: KeySource;
}

// ---------------------------------------------------------------------------------------------
// data and markets

/** How market data arrives: polled over HTTP, or pushed over the market WebSocket. */
export const MARKET_DATA_TRANSPORTS = ['poll', 'ws'] as const;
export type MarketDataTransport = (typeof MARKET_DATA_TRANSPORTS)[number];

export interface DataConfig {
  readonly transport: MarketDataTransport;
  /**
   * Poll period of each token's books and of its prices (`POST /books`, `POST /prices`: each route
   * has its own budget); `auto` = as fresh as each route's rate budget allows.
   */
  readonly pollIntervalMs: number | 'auto';
  /** A market's data older than this is stale (health, marks). */
  readonly staleAfterMs: number;
  /** Markets for every strategy that has no selection of its own. */
  readonly markets: MarketSelection | undefined;
  /**
   * How often a run (or a recording) whose selection has a `filter` re-evaluates it against the
   * venue's market list, picking up new markets and dropping closed ones; 0 = chosen once.
   */
  readonly marketRefreshMs: number;
  /** WS watchdog: no market message on a connection for this long -> resubscribe, books by REST; 0 = off. */
  readonly wsSilentAfterMs: number;
  /** Assets per WS connection; more are split over several connections. */
  readonly wsMaxAssetsPerConnection: number;
  /** How often each market's status (closed, resolved) is read from the venue; 0 = never. */
  readonly marketStatusMs: number;
  /** How often each token's fee rate is read from the venue (`GET /fee-rate`); 0 = never (docs/fees-and-sports.md). */
  readonly feeRateRefreshMs: number;
  /** A sports market's book is taken as cleared (and our orders in it as gone) this long after its listed game start, ms. */
  readonly gameStartGraceMs: number;
  /** Wallets followed through the venue's wallet analytics (live, paper, record); undefined: none. */
  readonly wallets: WalletsConfig | undefined;
}

/** `data.wallets`: whose trades the run hears (onWalletTrade) and records. */
export interface WalletsConfig {
  /** Lowercase 0x addresses, each once. */
  readonly addresses: readonly string[];
  /** A round reads each wallet's newest fills once; rounds start this often, ms. */
  readonly pollMs: number;
  /** `activity`: GET /activity?user=; `trades`: GET /trades?user=&takerOnly=false. */
  readonly route: 'activity' | 'trades';
  /** Rows per request. */
  readonly pageSize: number;
  /** Deliver the fills the first round finds too (default: only fills after it). */
  readonly backfill: boolean;
}

// ---------------------------------------------------------------------------------------------
// strategies

export interface StrategyConfig {
  /** Unique among the run's strategies; tags its orders and events. */
  readonly id: string;
  /** The module path as written in the file. */
  readonly module: string;
  /**
   * Absolute path of the module: the first candidate that exists, else the first candidate.
   * Candidates: absolute as is; `./x` and `../x` against the config file's directory only;
   * otherwise the config file's directory, then the repo root (`strategies/x.ts`), then the repo's
   * `strategies/` folder (`x.ts`).
   */
  readonly modulePath: string;
  /** Every place looked at, in order (for "not found" messages). */
  readonly moduleCandidates: readonly string[];
  readonly enabled: boolean;
  /** Free-form; checked later by the strategy's own params schema. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The markets this strategy trades: its own selection, else `data.markets`. */
  readonly markets: MarketSelection;
  readonly marketsFrom: 'strategy' | 'data';
  /**
   * The most collateral the strategy may commit, Micros: what its own open long positions cost
   * plus its open BUY orders, the new order included (risk check `strategyBudget`, deny code
   * STRATEGY_BUDGET). Undefined: no budget (the run-wide limits still apply).
   */
  readonly budget: Micros | undefined;
}

// ---------------------------------------------------------------------------------------------
// risk

export type RiskCheckName = CheckName;

/**
 * Risk checks and their limits. Money limits are Micros of collateral, position limits Micros of
 * shares. The limit fields have the names and units of `RiskLimits` (src/risk/types.ts), so
 * this object can be handed to the risk engine as its limits.
 */
export interface RiskConfig {
  /** The checks to run, in order; the first denial wins. */
  readonly checks: readonly RiskCheckName[];
  /** Max price × size of one order, collateral. */
  readonly maxOrderNotional: Micros;
  /** Max |position| in one token, shares. */
  readonly maxPositionPerToken: Micros;
  /** Max |YES - NO| position in one market, shares. */
  readonly maxPositionPerMarket: Micros;
  /** Max gross exposure (positions and open buys), collateral. */
  readonly maxGrossExposure: Micros;
  /** Max exposure over the markets of one neg-risk event, collateral. */
  readonly maxNegRiskEventExposure: Micros;
  readonly maxOpenOrders: number;
  readonly maxOrdersPerSecond: number;
  /** Deny orders on a book older than this. */
  readonly staleBookMs: number;
  /** Halt when the day's PnL reaches minus this, collateral (a positive number). */
  readonly dailyLossLimit: Micros;
  /** Halt after this many venue rejects in a row. */
  readonly maxConsecutiveRejects: number;
  /** Absolute path: trading halts while this file exists. */
  readonly haltFile: string;
}

// ---------------------------------------------------------------------------------------------
// execution, logging, store, simulation

export interface ExecutionConfig {
  /** How long the batcher waits to fill a batch. */
  readonly maxBatchWaitMs: number;
  /** Orders per POST /orders, 1..15. */
  readonly maxBatchSize: number;
  /** When re-quoting, a resting order is kept if it is this close to the wanted one. */
  readonly quoteTolerance: QuoteTolerance;
  /** An order post not answered in this time has an unknown outcome (reconcile by hash). */
  readonly orderTimeoutMs: number;
  /** Heartbeat period; below the venue's 10 s dead-man deadline. */
  readonly heartbeatIntervalMs: number;
  /** Cancel our open orders when the run stops. */
  readonly cancelOnStop: boolean;
  /** A halt (halt file, SIGUSR2, kill switch, fault, ...) cancels our resting orders; false keeps them resting. */
  readonly cancelOnHalt: boolean;
  /** How long a stop cancels, retries and checks the venue's open orders before it gives up, ms. */
  readonly stopDeadlineMs: number;
  /** What to do at start with open orders the run did not place: cancel them or adopt them. */
  readonly orphans: 'cancel' | 'adopt';
  /** Live: period of the account's reconciliation with the venue (balance, positions), ms; 0 = at start only. */
  readonly accountSyncMs: number;
  /** Live: how long the venue is taken to stay post-only after its matching engine restarted, when it does not say, ms. */
  readonly postOnlyAfterRestartMs: number;
  /** How often the run samples its liquidity rewards, ms (docs/rewards.md); the venue's minute by default. */
  readonly rewardSampleMs: number;
  /**
   * Live: each reward sample takes our share from the venue's own figure (`GET
   * /rewards/user/percentages`, read at the sample), the model's when the venue does not answer.
   * false: the model's always. Paper and backtest read nothing of it. Default true.
   */
  readonly rewardVenueShare: boolean;
  /**
   * How long a finished order stays in memory, ms (a late fill or settlement move of it is still
   * booked); older ones are dropped, so a run's heap stops growing after this long. The store keeps
   * every order.
   */
  readonly closedOrderRetentionMs: number;
  /** Threads that sign a batch together with the engine's thread (live mode). */
  readonly signing: SigningThreadsConfig;
  /**
   * Keep the engine's event loop polling instead of sleeping between events (live and paper):
   * a steadier tick-to-trade for one core at 100% (see src/core/busy-poll.ts).
   */
  readonly busyPoll: boolean;
  /** Live: the venue's user channel as the source of our fills (docs/user-channel.md). */
  readonly userChannel: UserChannelConfig;
}

/** The user channel of a live run; polling our trades stays the fallback and fills each gap. */
export interface UserChannelConfig {
  /** Default true (live runs; docs/user-channel.md): the venue (and the sandbox, both profiles) has it; false polls only. */
  readonly enabled: boolean;
  /** ws(s) URL of the channel; absent: `<trading URL>/ws/user` with the ws scheme. */
  readonly url?: string;
  /** While the channel is trusted, our trades are polled this often all the same, ms; 0 = never. */
  readonly auditPollMs: number;
}

/** See src/venue/signing/digest-signer.ts for what helpers and spinning buy and cost. */
export interface SigningThreadsConfig {
  /** Helper threads beside the engine's; 0 signs in the engine's thread only. */
  readonly helpers: number;
  /** How long a helper keeps polling on its core after a batch before it sleeps, ms (0 = sleeps at once). */
  readonly spinMs: number;
}

export interface QuoteTolerance {
  /** Price difference in ticks that still counts as the same quote (0 = exact price). */
  readonly priceTicks: number;
  /** Size difference as a share of the wanted size that still counts (0.1 = 10 %). */
  readonly sizeShare: number;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggingConfig {
  readonly level: LogLevel;
  /** Absolute path of the JSON log file; undefined = stdout. */
  readonly file: string | undefined;
  /** Pretty console output; `auto` = when stdout is a TTY. */
  readonly pretty: boolean | 'auto';
}

export interface StoreConfig {
  /** Absolute path of the SQLite file; undefined = no persistence. */
  readonly path: string | undefined;
}

export interface PaperConfig {
  /** Starting collateral of the simulated account, Micros. */
  readonly balance: Micros;
}

/** Where a backtest's fee rates come from: each recorded market's own, or `backtest.fees` for all. */
export const FEE_SOURCES = ['market', 'config'] as const;
export type FeeSource = (typeof FEE_SOURCES)[number];

/** The backtest's models (docs/fill-model.md). */
export interface BacktestConfig {
  /** Starting collateral, Micros. */
  readonly balance: Micros;
  /** One-way latency between strategy and simulated venue; the default of both legs below. */
  readonly latencyMs: number;
  /** Delay of an order or cancel from the engine to the simulated venue. */
  readonly entryLatencyMs: number;
  /** Delay of the venue's answer (results, fills) back to the engine. */
  readonly responseLatencyMs: number;
  /**
   * How a resting order's place in the queue moves when its price level shrinks:
   * `conservative` (default): shrinking is cancels behind us; only trades and crossings fill us.
   * `probabilistic`: shrinking is split between ahead and behind in proportion to their sizes.
   * `optimistic`: shrinking is trades at the front; past the queue ahead they fill us.
   */
  readonly queueModel: QueueModelName;
  /** Fee rates in basis points, exact decimals (used when `feeSource` is `config`). */
  readonly fees: { readonly makerBps: Dec; readonly takerBps: Dec };
  /** `market`: each recorded market's own fee rates; `config`: `fees` for every market. Default: `config` when `fees` is written, else `market`. */
  readonly feeSource: FeeSource;
  /** Equity curve sampling step (Sharpe, drawdown, report), virtual time. */
  readonly equityIntervalMs: number;
  /** false: a strategy that throws stops the backtest with its stack; true: the event is skipped, the fault counted and the strategy runs on. */
  readonly keepGoing: boolean;
  /** How our fills settle on chain in paper and backtest (src/sim/settlement-model.ts; all 0: CONFIRMED at once), and the seed of its draws. */
  readonly settlement: { readonly minedMs: number; readonly confirmedMs: number; readonly retryRate: number; readonly failRate: number; readonly seed: number };
  /** Matching delay of every market in paper and backtest, ms; undefined: none. */
  readonly matchingDelayMs: number | undefined;
  /** The data's window (src/backtest/data-window.ts), epoch ms of `tsInit`: from inclusive, to exclusive; undefined: open. */
  readonly from: number | undefined;
  readonly to: number | undefined;
}
