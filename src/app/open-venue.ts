import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { RunConfig } from '../config/run-config.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { createVenueClient, type VenueClient } from '../venue/client.ts';
import { fieldLogger } from '../core/log.ts';
import { openSharedBudget, type OpenedSharedBudget } from './shared-budget.ts';

export interface OpenedVenue {
  readonly venue: VenueClient;
  /** The trading base URL (the WS market channel hangs off it for the sandbox). */
  readonly url: string;
  /** The sandbox started in-process for `venue.embedded`; the caller closes it. */
  readonly sandbox: RunningSandbox | undefined;
  /** `venue.rateBudget`: the budget shared in Redis; the caller attaches the engine and closes it. */
  readonly sharedBudget: OpenedSharedBudget | undefined;
}

/** The venue the config names (or `venueUrl`), as a live run builds it. */
export async function openVenue(
  config: RunConfig,
  venueUrl: string | undefined,
  logger: Logger,
  clock: Clock,
): Promise<OpenedVenue> {
  const v = config.venue;
  let urls: { metadata: string; trading: string; analytics: string };
  let sandbox: RunningSandbox | undefined;
  if (venueUrl) {
    urls = { metadata: venueUrl, trading: venueUrl, analytics: venueUrl };
  } else if (v === undefined) {
    throw new ConfigError(`venue (${config.source.file}): this command needs a venue: set venue.baseUrl or venue.embedded, or pass --venue <url>`);
  } else if (v.kind === 'embedded') {
    const e = v.embedded;
    sandbox = await startSandbox({
      host: e.host,
      port: e.port,
      seed: e.seed,
      markets: e.markets,
      events: e.events,
      profile: e.profile,
      flow: e.flow,
      episodes: e.episodes,
      nearEnd: e.nearEnd,
      resolution: e.resolution,
      logger: logger.child({ component: 'sandbox' }),
    });
    urls = { metadata: sandbox.url, trading: sandbox.url, analytics: sandbox.url };
  } else {
    urls = v.urls;
  }
  const windowScale = v?.limits.windowScale ?? 1;
  const sharedBudget = v?.rateBudget ? openSharedBudget(config, v.rateBudget, urls.trading, clock, fieldLogger(logger.child({ component: 'rate-budget' })), windowScale) : undefined;
  const venue = createVenueClient({
    urls,
    profile: v?.profile ?? 'interface',
    timeoutMs: v?.timeoutMs,
    retries: v?.retries,
    clock,
    limits: v ? { windowScale } : undefined,
    ...(sharedBudget ? { budget: sharedBudget.budget } : {}),
    logger: logger.child({ component: 'venue' }),
  });
  return { venue, url: urls.trading, sandbox, sharedBudget };
}

