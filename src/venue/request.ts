import type { VenueClient, VenueRequest } from './client.ts';
import { parseJsonText } from './decode.ts';
import { ENDPOINTS } from './endpoints.ts';

/** Sends a request and parses the answer as JSON (a DecodeError naming the route otherwise). */
export async function requestJson(client: VenueClient, request: VenueRequest): Promise<{ value: unknown; tsInit: number }> {
  const response = await client.send(request);
  const endpoint = ENDPOINTS[request.route];
  return { value: parseJsonText(response.text, `${endpoint.method} ${endpoint.path}`), tsInit: response.tsInit };
}
