import type { RunConfig } from '../config/run-config.ts';
import { TransportError } from '../core/errors.ts';
import { DEFAULT_SANDBOX_PORT } from './commands/sandbox.ts';

/** The venue URL of a command that takes `--venue`: a sandbox on this machine unless told. */
export const DEFAULT_VENUE_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`;

/** The venue URL(s) a run config's command talks to: `--venue`, else the config's remote URLs; undefined for the embedded sandbox. */
export function remoteVenueOf(config: RunConfig, venueFlag: string | undefined): string | undefined {
  if (venueFlag !== undefined) return venueFlag;
  return config.venue?.kind === 'remote' ? [...new Set(Object.values(config.venue.urls))].join(', ') : undefined;
}

/**
 * Runs a command's venue work; a venue that cannot be reached (refused, unknown host, no answer
 * in time) becomes one line naming the URL tried and how to start a local venue. Other errors
 * pass through unchanged.
 */
export async function reachingVenue<T>(url: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (url === undefined || !(err instanceof TransportError)) throw err;
    throw new TransportError(
      `cannot reach the venue at ${url} (${err.message.replace(/: fetch failed$/, '')}${reason(err)}): start a local one with \`clobot sandbox\` (it listens on ${DEFAULT_VENUE_URL}) or pass --venue <url>`,
      err.requestSent,
      { cause: err },
    );
  }
}

/** What is behind a failed fetch (ECONNREFUSED, ENOTFOUND, "bad port", ...), when the message does not say it yet. */
function reason(err: TransportError): string {
  let cause: unknown = err.cause;
  let innermost: string | undefined;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return err.message.includes(code) ? '' : `: ${code}`;
    innermost = cause.message;
    cause = cause.cause;
  }
  return innermost !== undefined && innermost !== 'fetch failed' && !err.message.includes(innermost) ? `: ${innermost}` : '';
}
