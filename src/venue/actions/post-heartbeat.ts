import type { CallOptions, VenueClient } from '../client.ts';
import { decodeHeartbeatStatus } from '../decode.ts';
import { requestJson } from '../request.ts';

/** `POST /heartbeats` (no body): the older form; answers `{status: "ok"}`. Needs an L2-authenticated client. */
export async function postHeartbeat(client: VenueClient, options: CallOptions = {}): Promise<string> {
  const { value } = await requestJson(client, { route: 'postHeartbeat', ...options });
  return decodeHeartbeatStatus(value);
}
