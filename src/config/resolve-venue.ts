import type { ConfigIssue } from './config-issue.ts';
import type { Mode, VenueConfig, VenueUrls } from './run-config.ts';
import type { VenueSection } from './schema.ts';

/**
 * Turns the `venue` section into a remote venue (three group URLs, each defaulting to
 * `baseUrl`) or an embedded sandbox. Exactly one of the two must be given; live and paper need
 * a venue, a backtest does not.
 */
export function resolveVenue(section: VenueSection | undefined, mode: Mode): { venue: VenueConfig | undefined; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  if (section === undefined) {
    if (mode !== 'backtest') {
      issues.push({ path: ['venue'], message: `required in ${mode} mode: set venue.baseUrl (a venue URL) or venue.embedded (the in-process sandbox)` });
    }
    return { venue: undefined, issues };
  }
  const { baseUrl, urls, embedded, profile, timeoutMs, retries, limits, chainId, contracts } = section;
  const common = { profile, timeoutMs, retries, limits, chainId, contracts };
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
    const { seed, markets, events, flow, host, port } = embedded;
    return { venue: { kind: 'embedded', ...common, embedded: { seed, markets, events, flow, profile, host, port } }, issues };
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
