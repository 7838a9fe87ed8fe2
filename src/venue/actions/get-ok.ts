import type { CallOptions, VenueClient } from '../client.ts';
import { decodeOk } from '../decode.ts';

/** `GET /`: the venue's health answer (`"OK"`). */
export async function getOk(client: VenueClient, options: CallOptions = {}): Promise<string> {
  const response = await client.send({ route: 'getOk', ...options });
  return decodeOk(response.text);
}
