import { VenueRejectError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import type { L1AuthOptions } from '../auth/with-l1-auth.ts';
import type { ApiCredentials } from '../signing/l2-auth.ts';
import { createApiKey } from './create-api-key.ts';
import { deriveApiKey } from './derive-api-key.ts';

/**
 * The credentials of the key's address and nonce: derived when they exist, created otherwise
 * (the venue answers a 4xx other than 401 to a derive for a nonce it never issued). A 401, a
 * 429 or a network failure is thrown as it is.
 */
export async function getOrCreateApiKey(client: VenueClient, auth: L1AuthOptions, options: CallOptions = {}): Promise<ApiCredentials> {
  try {
    return await deriveApiKey(client, auth, options);
  } catch (err) {
    if (err instanceof VenueRejectError && err.status >= 400 && err.status < 500 && err.status !== 429) {
      return createApiKey(client, auth, options);
    }
    throw err;
  }
}
