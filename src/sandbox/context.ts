import type { FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.ts';
import type { RouteId } from '../venue/endpoints.ts';
import type { FaultKnobs } from './faults.ts';
import type { SandboxProfile } from './profile.ts';
import type { SandboxRateLimiter } from './rate-limiter.ts';
import type { RequestStats } from './request-stats.ts';
import type { ApiKeyRegistry } from './trading/api-keys.ts';
import type { WalletRegistry } from './trading/wallets.ts';
import type { Caller, L1Signer } from './trading/caller.ts';
import type { HeartbeatSessions } from './trading/heartbeats.ts';
import type { OrderLog } from './trading/order-log.ts';
import type { SandboxActivity } from './trading/sandbox-activity.ts';
import type { SandboxEngine } from './trading/sandbox-engine.ts';
import type { World } from './world/world.ts';
import type { RewardSampler } from './rewards/reward-sampler.ts';
import type { MarketResolutions } from './world/market-resolution.ts';

/** Settings of the trading routes, fixed when the sandbox is built. */
export interface TradingSettings {
  /** L1 and L2 timestamps must be within this of the sandbox clock, ms. */
  readonly authWindowMs: number;
  /** Without a valid beat for this long, an armed key's open orders are cancelled, ms. */
  readonly heartbeatTimeoutMs: number;
  /** EIP-712 chain id of the order and ClobAuth domains. */
  readonly chainId: number;
  /** Verifying contracts of the order domain. */
  readonly exchanges: { readonly standard: string; readonly negRisk: string };
  /** Retry-After of the 503 answers of the post-only and cancel-only modes, seconds. */
  readonly modeRetryAfterSeconds: number;
  /** Items per page of the account's orders and trades (`/data/orders`, `/data/trades`). */
  readonly accountPageSize: number;
}

/** What every route handler of one sandbox reads. */
export interface SandboxContext {
  readonly world: World;
  readonly clock: Clock;
  readonly profile: SandboxProfile;
  readonly faults: FaultKnobs;
  readonly limiter: SandboxRateLimiter;
  readonly stats: RequestStats;
  /** Aborted when the server closes, so pending latency and stall waits end at once. */
  readonly closing: AbortSignal;
  /**
   * The matching engine behind the books and the order routes; every world market is listed and
   * seeded lazily (see trading/sandbox-engine.ts). Order flow agents call it directly and
   * listen to its events (BookChanged once per call per market).
   */
  readonly engine: SandboxEngine;
  readonly trading: TradingSettings;
  /** API keys issued by the L1 routes. */
  readonly apiKeys: ApiKeyRegistry;
  /** The wallets each signing key controls (registered with its first API key). */
  readonly wallets: WalletRegistry;
  /** When set, every admin route needs `authorization: Bearer <adminToken>`. */
  readonly adminToken: string | undefined;
  /** Every order item received over HTTP (`GET /admin/orders`). */
  readonly orderLog: OrderLog;
  readonly heartbeats: HeartbeatSessions;
  /** The sandbox's trades and positions in wallet-analytics form. */
  readonly activity: SandboxActivity;
  /**
   * `GET /data/trades` is both the analytics trades route under the `/data` mount and the
   * authenticated account-trades route (4.8). When the trading step sets this, a request that
   * carries the profile's API-key header goes here; every other one is served as analytics.
   */
  accountTrades?: (request: FastifyRequest) => unknown;
  /** Markets closing at their end date and resolving (world/market-resolution.ts; routes/admin-markets.ts runs it). */
  readonly resolutions: MarketResolutions;
  /** The liquidity rewards it pays (docs/rewards.md); undefined when turned off. */
  readonly rewards?: RewardSampler | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route of the endpoint table this path serves (stats, limits). */
    routeId?: RouteId;
    /** For a path that serves more than one route (`/markets/{x}`, `/data/trades`). */
    resolveRoute?: (request: FastifyRequest) => RouteId;
    /** Admin routes: see routes/admin-guard.ts for who may call them; no faults, limits or stats. */
    admin?: boolean;
  }
  interface FastifyRequest {
    /** The route this request was counted and limited as; null for admin and unmatched paths. */
    sandboxRoute: RouteId | null;
    /** The rate-limit bucket the request was charged to (`ip:`, `key:` or `address:`); null before that. */
    sandboxClient: string | null;
    /** The L2 caller, once the request's L2 headers were checked. */
    sandboxCaller: Caller | null;
    /** The L1 signer, once the request's L1 headers were checked. */
    sandboxSigner: L1Signer | null;
    /** The JSON body's exact text as received (what the L2 signature covers); undefined without a body. */
    rawBody: string | undefined;
  }
}
