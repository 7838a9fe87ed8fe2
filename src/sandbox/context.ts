import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.ts';
import type { RouteId } from '../venue/endpoints.ts';
import type { FaultKnobs } from './faults.ts';
import type { SandboxProfile } from './profile.ts';
import type { SandboxRateLimiter } from './rate-limiter.ts';
import type { RequestStats } from './request-stats.ts';
import type { World } from './world/world.ts';

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
   * `GET /data/trades` is both the analytics trades route under the `/data` mount and the
   * authenticated account-trades route (4.8). When the trading step sets this, a request that
   * carries the profile's API-key header goes here; every other one is served as analytics.
   */
  accountTrades?: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route of the endpoint table this path serves (stats, limits). */
    routeId?: RouteId;
    /** For a path that serves more than one route (`/markets/{x}`, `/data/trades`). */
    resolveRoute?: (request: FastifyRequest) => RouteId;
    /** Admin routes: loopback callers only; no faults, limits or stats. */
    admin?: boolean;
  }
  interface FastifyRequest {
    /** The route this request was counted and limited as; null for admin and unmatched paths. */
    sandboxRoute: RouteId | null;
  }
}
