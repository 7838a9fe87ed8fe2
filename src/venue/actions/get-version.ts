import type { CallOptions, VenueClient } from '../client.ts';
import { decodeVersion } from '../decode.ts';
import { requestJson } from '../request.ts';

/** `GET /version`: the venue's API generation (2 for CLOB V2). */
export async function getVersion(client: VenueClient, options: CallOptions = {}): Promise<number> {
  const { value } = await requestJson(client, { route: 'getVersion', ...options });
  return decodeVersion(value);
}
