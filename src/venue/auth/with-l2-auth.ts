import type { VenueClient } from '../client.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { createL2Signer, type ApiCredentials } from '../signing/l2-auth.ts';
import type { BeforeSend } from '../transport.ts';

export interface L2AuthOptions {
  /** The checksummed wallet address the credentials were derived for (`*_ADDRESS`). */
  readonly address: string;
  readonly credentials: ApiCredentials;
}

/**
 * The same client (budget, clock, URLs, counters) with L2 authentication: every request on a
 * route marked `auth: 'l2'` carries the five headers, computed in the transport's `beforeSend`
 * over exactly what is sent: the timestamp in unix seconds from the client's clock, the method,
 * the route's path without the query string, and the body text as serialised once. Header
 * names and signature encoding follow the client's profile (`SERVICE_` and hex, or `POLY_` and
 * base64url). Public routes stay unauthenticated. The decoded secret stays inside the signer.
 */
export function withL2Auth(client: VenueClient, options: L2AuthOptions): VenueClient {
  return client.withBeforeSend(l2BeforeSend(client, options));
}

/** The `beforeSend` hook of `withL2Auth`, for callers that build their own client. */
export function l2BeforeSend(client: Pick<VenueClient, 'clock' | 'profile'>, options: L2AuthOptions): BeforeSend {
  const signer = createL2Signer(options.address, options.credentials, client.profile);
  const clock = client.clock;
  return (route, method, path, bodyText) => {
    if (ENDPOINTS[route].auth !== 'l2') return {};
    return signer.headers(method, path, bodyText === '' ? undefined : bodyText, Math.floor(clock.now() / 1000));
  };
}
