import type { CallOptions, VenueClient } from '../client.ts';
import { withL1Auth, type L1AuthOptions } from '../auth/with-l1-auth.ts';
import { decodeApiCredentials } from '../decode.ts';
import { requestJson } from '../request.ts';
import type { ApiCredentials } from '../signing/l2-auth.ts';

/**
 * `POST /auth/api-key` with L1 headers: new API credentials for the key's address and nonce.
 * The venue refuses (a VenueRejectError) when credentials already exist for that nonce; see
 * `deriveApiKey` and `getOrCreateApiKey`.
 */
export async function createApiKey(client: VenueClient, auth: L1AuthOptions, options: CallOptions = {}): Promise<ApiCredentials> {
  const { value } = await requestJson(withL1Auth(client, auth), { route: 'createApiKey', ...options });
  return decodeApiCredentials(value);
}
