import type { CallOptions, VenueClient } from '../client.ts';
import { withL1Auth, type L1AuthOptions } from '../auth/with-l1-auth.ts';
import { decodeApiCredentials } from '../decode.ts';
import { requestJson } from '../request.ts';
import type { ApiCredentials } from '../signing/l2-auth.ts';

/** `GET /auth/derive-api-key` with L1 headers: the credentials of the key's address and nonce. */
export async function deriveApiKey(client: VenueClient, auth: L1AuthOptions, options: CallOptions = {}): Promise<ApiCredentials> {
  const { value } = await requestJson(withL1Auth(client, auth), { route: 'deriveApiKey', ...options });
  return decodeApiCredentials(value);
}
