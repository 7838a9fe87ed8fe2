import type { CallOptions, VenueClient } from '../client.ts';
import { decodeServerTime } from '../decode.ts';
import type { ServerTime } from '../domain/trading.ts';
import { requestJson } from '../request.ts';

/** `GET /time`: the venue's clock (unix seconds on the wire, epoch ms here) and our receipt time. */
export async function getServerTime(client: VenueClient, options: CallOptions = {}): Promise<ServerTime> {
  const { value, tsInit } = await requestJson(client, { route: 'getServerTime', ...options });
  return decodeServerTime(value, tsInit);
}
