import type { AddressInfo } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { LiveClock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { RateLimitConfig } from '../venue/rate-limits.ts';
import type { SandboxContext } from './context.ts';
import { FaultKnobs, type FaultSettings } from './faults.ts';
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
import { World } from './world/world.ts';

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
  readonly faults?: Partial<FaultSettings>;
  /** pino logger; none by default. */
  readonly logger?: Logger;
}

export interface RunningSandbox {
  /** `http://host:port`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly world: World;
  readonly faults: FaultKnobs;
  close(): Promise<void>;
}

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
  const ctx: SandboxContext = {
    world,
    clock,
    profile: options.profile ?? 'interface',
    faults: new FaultKnobs(seed, options.faults ?? {}),
    limiter: new SandboxRateLimiter(options.limits ?? {}, clock),
    stats: new RequestStats(),
    closing: closing.signal,
  };
  const app: FastifyInstance = options.logger
    ? Fastify({
        loggerInstance: options.logger as FastifyBaseLogger,
        logController: new LogController({ disableRequestLogging: true }),
        forceCloseConnections: true,
      })
    : Fastify({ logger: false, forceCloseConnections: true });
  contexts.set(app, ctx);
  app.addHook('onClose', async () => closing.abort());

  installPipeline(app, ctx);
  registerAdminRoutes(app, ctx);
  // root mount: every group on one base URL
  registerMetadataRoutes(app, ctx, { marketsById: false });
  registerTradingRoutes(app, ctx, { marketsByConditionId: false });
  registerMarketsDispatch(app, ctx);
  registerAnalyticsRoutes(app, ctx, { dataMount: false });
  registerCommentRoutes(app, ctx);
  // one prefix per group: three base URLs against one sandbox
  void app.register(async (gamma) => registerMetadataRoutes(gamma, ctx, { marketsById: true }), { prefix: '/gamma' });
  void app.register(async (clob) => registerTradingRoutes(clob, ctx, { marketsByConditionId: true }), { prefix: '/clob' });
  void app.register(
    async (data) => {
      registerAnalyticsRoutes(data, ctx, { dataMount: true });
      registerCommentRoutes(data, ctx);
    },
    { prefix: '/data' },
  );
  return app;
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
  options.logger?.info({ url, seed: ctx.world.seed, markets: ctx.world.markets.length, events: ctx.world.events.length, profile: ctx.profile }, 'sandbox listening');
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    world: ctx.world,
    faults: ctx.faults,
    close: () => (closed ??= app.close()),
  };
}

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
  const scale = o.limits?.windowScale;
  if (scale !== undefined && !(scale > 0)) throw new ConfigError(`sandbox.limits.windowScale: must be > 0, was ${scale}`);
}
