import type { CallOptions, VenueClient } from '../client.ts';
import { decodeHeartbeatId } from '../decode.ts';
import { requestJson } from '../request.ts';

/**
 * `POST /v1/heartbeats` with `{"heartbeat_id": previousId}` ('' starts a chain): the id to send
 * on the next beat. A wrong or expired id is a 400 `Invalid Heartbeat ID`, thrown as a
 * VenueRejectError whose `body.heartbeat_id` is the id the venue expects (adopt it and go on).
 * Needs an L2-authenticated client. Not retried (a write).
 */
export async function postHeartbeatV1(client: VenueClient, previousId: string, options: CallOptions = {}): Promise<string> {
  const { value } = await requestJson(client, { route: 'postHeartbeatV1', body: { heartbeat_id: previousId }, ...options });
  return decodeHeartbeatId(value);
}
