import { LiveClock, type Clock } from '../core/clock.ts';
import { ConfigError, ParameterError } from '../core/errors.ts';
import { isVenueProfile, VENUE_PROFILES, type VenueProfile } from './domain/profiles.ts';
import { ENDPOINTS, fillPath, type RouteGroup, type RouteId } from './endpoints.ts';
import type { VenueLogger } from './logger.ts';
import { checkQuery } from './params.ts';
import { RateBudget } from './rate-budget.ts';
import type { RequestBudget } from './request-budget.ts';
import type { RateLimitConfig } from './rate-limits.ts';
import { Transport, type BackoffOptions, type BeforeSend, type TransportRequest, type TransportResponse } from './transport.ts';

/** PROTOCOL "Profiles": the small set of wire differences between the interface and Polymarket. */
export type { VenueProfile } from './domain/profiles.ts';

/**
 * Polymarket's public hosts, used by the `polymarket` profile when no URL is configured.
 * Note: Polymarket serves comments from its metadata host; here comments belong to the
 * analytics group (interface 4.4), so point `urls.analytics` accordingly when that matters.
 */
export const POLYMARKET_URLS: Readonly<Record<RouteGroup, string>> = Object.freeze({
  metadata: 'https://gamma-api.polymarket.com',
  trading: 'https://clob.polymarket.com',
  analytics: 'https://data-api.polymarket.com',
});

export interface VenueClientOptions {
  /** One base URL for every route group (the interface's `base_url`). */
  readonly baseUrl?: string;
  /** Per-group base URLs; each defaults to `baseUrl`. */
  readonly urls?: Readonly<Partial<Record<RouteGroup, string>>>;
  readonly profile?: VenueProfile;
  /** Deadline of one attempt. Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Extra attempts for idempotent routes. Default 3. */
  readonly retries?: number;
  readonly backoff?: BackoffOptions;
  readonly maxRetryAfterMs?: number;
  /** Drives budgets, backoff and receipt times. Default: a LiveClock. */
  readonly clock?: Clock;
  /** Rate budgets (part 8 table, scaled or overridden). */
  readonly limits?: RateLimitConfig;
  /** The budget to draw from instead of this client's own over `limits` (a budget shared by several bots). */
  readonly budget?: RequestBudget;
  readonly logger?: VenueLogger;
  /** Header hook for authentication (signs the exact body text). */
  readonly beforeSend?: BeforeSend;
  /** Jitter source for backoff, in [0, 1). */
  readonly random?: () => number;
}

/** What an action asks the client to send. Query values are in their string form. */
export interface VenueRequest {
  readonly route: RouteId;
  readonly pathParams?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The JSON body as text, when the caller serialised it (see TransportRequest). */
  readonly bodyText?: string;
  readonly cost?: number;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Per-call options every action takes last. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export interface VenueClient {
  readonly profile: VenueProfile;
  readonly clock: Clock;
  readonly budget: RequestBudget;
  readonly transport: Transport;
  readonly urls: Readonly<Record<RouteGroup, string>>;
  readonly logger: VenueLogger | undefined;
  /**
   * Checks the query against the route's parameter rules and the path parameters for presence
   * (a ParameterError, nothing sent), then sends through the budget and the transport.
   */
  send(request: VenueRequest): Promise<TransportResponse>;
  /** The same client (same budget, clock, URLs) with another authentication hook. */
  withBeforeSend(beforeSend: BeforeSend | undefined): VenueClient;
}

export function createVenueClient(options: VenueClientOptions): VenueClient {
  const profile = options.profile ?? 'interface';
  if (!isVenueProfile(profile)) {
    throw new ConfigError(`venue.profile: must be ${VENUE_PROFILES.map((p) => `'${p}'`).join(' or ')}, was '${String(profile)}'`);
  }
  const urls = resolveUrls(options, profile);
  const clock = options.clock ?? new LiveClock();
  const budget = options.budget ?? new RateBudget(clock, options.limits);
  const transport = new Transport({
    urls,
    clock,
    budget,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    backoff: options.backoff,
    maxRetryAfterMs: options.maxRetryAfterMs,
    beforeSend: options.beforeSend,
    logger: options.logger,
    random: options.random,
  });
  return build(profile, clock, budget, transport, urls, options.logger);
}

function build(
  profile: VenueProfile,
  clock: Clock,
  budget: RequestBudget,
  transport: Transport,
  urls: Readonly<Record<RouteGroup, string>>,
  logger: VenueLogger | undefined,
): VenueClient {
  const client: VenueClient = {
    profile,
    clock,
    budget,
    transport,
    urls,
    logger,
    send(request: VenueRequest): Promise<TransportResponse> {
      let path: string;
      try {
        path = preparePath(request);
        checkQuery(request.route, request.query ?? {});
      } catch (err) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- preparePath and checkQuery throw only ParameterError
        return Promise.reject(err);
      }
      const transportRequest: TransportRequest = request;
      return transport.send(transportRequest, path);
    },
    withBeforeSend(beforeSend: BeforeSend | undefined): VenueClient {
      return build(profile, clock, budget, transport.withBeforeSend(beforeSend), urls, logger);
    },
  };
  return Object.freeze(client);
}

function preparePath(request: VenueRequest): string {
  const template = ENDPOINTS[request.route].path;
  // most routes (POST /orders among them) have no path parameter: no regex on the order path
  if (!template.includes('{')) return template;
  const params = request.pathParams ?? {};
  for (const match of template.matchAll(/\{([a-z_]+)\}/g)) {
    const name = match[1] as string;
    const value = params[name];
    if (typeof value !== 'string' || value.trim() === '') throw new ParameterError(request.route, name, 'is required');
  }
  return fillPath(template, params);
}

function resolveUrls(options: VenueClientOptions, profile: VenueProfile): Readonly<Record<RouteGroup, string>> {
  const fallback = options.baseUrl;
  const pick = (group: RouteGroup): string => {
    const url = options.urls?.[group] ?? fallback ?? (profile === 'polymarket' ? POLYMARKET_URLS[group] : undefined);
    if (url === undefined) throw new ConfigError(`venue.baseUrl: required (or venue.urls.${group})`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(`venue.urls.${group}: not a URL, was '${url}'`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(`venue.urls.${group}: must be http or https, was '${url}'`);
    }
    return url.replace(/\/+$/, '');
  };
  return Object.freeze({ metadata: pick('metadata'), trading: pick('trading'), analytics: pick('analytics') });
}
