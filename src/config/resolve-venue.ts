import type { ConfigIssue } from './config-issue.ts';
import type { Mode, VenueConfig, VenueUrls } from './run-config.ts';
import { configFileSchema, type VenueSection } from './schema.ts';

/**
 * Turns the `venue` section into a remote venue (three group URLs, each defaulting to
 * `baseUrl`) or an embedded sandbox. Exactly one of the two must be given; live and paper need
 * a venue, a backtest does not. `venueUrl` (the command line's `--venue`) is the venue in every
 * mode: every group at that URL, the section's other settings (profile, timeouts, limits, chain)
 * kept. With `venue.embedded` the section stays as it is: the run opens `venueUrl` instead of
 * starting the sandbox (app/open-venue.ts), and a live run then needs a key of its own: the sandbox's
 * throwaway key stands in only for the in-process sandbox (resolve-account.ts).
 */
export function resolveVenue(section: VenueSection | undefined, mode: Mode, venueUrl?: string): { venue: VenueConfig | undefined; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  if (venueUrl !== undefined && section?.embedded === undefined) {
    const { profile, timeoutMs, retries, limits, rateBudget, chainId, contracts } = section ?? configFileSchema.shape.venue.unwrap().parse({});
    const urls = { metadata: venueUrl, trading: venueUrl, analytics: venueUrl };
    return { venue: { kind: 'remote', profile, timeoutMs, retries, limits, ...(rateBudget ? { rateBudget } : {}), chainId, contracts, urls }, issues };
  }
  if (section === undefined) {
    if (mode !== 'backtest') {
      issues.push({ path: ['venue'], message: `required in ${mode} mode: set venue.baseUrl (a venue URL) or venue.embedded (the in-process sandbox)` });
    }
    return { venue: undefined, issues };
  }
  const { baseUrl, urls, embedded, profile, timeoutMs, retries, limits, rateBudget, chainId, contracts } = section;
  const common = { profile, timeoutMs, retries, limits, ...(rateBudget ? { rateBudget } : {}), chainId, contracts };
  const anyUrl = baseUrl !== undefined || (urls !== undefined && Object.values(urls).some((u) => u !== undefined));

  if (embedded !== undefined) {
    if (anyUrl) {
      issues.push({
        path: baseUrl !== undefined ? ['venue', 'baseUrl'] : ['venue', 'urls'],
        message: 'cannot be combined with venue.embedded: use either a venue URL or the embedded sandbox',
      });
    }
    if (embedded.profile !== undefined && embedded.profile !== profile) {
      issues.push({
        path: ['venue', 'embedded', 'profile'],
        message: `must match venue.profile (${profile}): the client speaks venue.profile to the sandbox`,
        showValue: true,
      });
    }
    if (embedded.events > embedded.markets) {
      issues.push({ path: ['venue', 'embedded', 'events'], message: `must be <= venue.embedded.markets (${embedded.markets})`, showValue: true });
    }
    const { seed, markets, events, flow, episodes, nearEnd, resolution, host, port } = embedded;
    return { venue: { kind: 'embedded', ...common, embedded: { seed, markets, events, flow, episodes, nearEnd, resolution, profile, host, port } }, issues };
  }

  if (!anyUrl) {
    issues.push({ path: ['venue'], message: 'needs venue.baseUrl (a venue URL) or venue.embedded (the in-process sandbox)' });
    return { venue: undefined, issues };
  }
  const resolved: Partial<Record<keyof VenueUrls, string>> = {
    metadata: urls?.metadata ?? baseUrl,
    trading: urls?.trading ?? baseUrl,
    analytics: urls?.analytics ?? baseUrl,
  };
  const missing = (Object.keys(resolved) as (keyof VenueUrls)[]).filter((k) => resolved[k] === undefined);
  if (missing.length > 0) {
    issues.push({
      path: ['venue', 'urls'],
      message: `no URL for ${missing.join(', ')}: set venue.baseUrl, or every group in venue.urls (metadata, trading, analytics)`,
    });
    return { venue: undefined, issues };
  }
  return { venue: { kind: 'remote', ...common, urls: resolved as VenueUrls }, issues };
}
