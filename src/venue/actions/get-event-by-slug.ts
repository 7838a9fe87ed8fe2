import type { CallOptions, VenueClient } from '../client.ts';
import { decodeEvent } from '../decode.ts';
import type { VenueEvent } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetEventBySlugParams {
  /** A creator wallet address or site identifier scoping the lookup (interface 4.9). */
  readonly creator?: string;
}

/** `GET /events/slug/{slug}`: one event, full form (2.8). */
export async function getEventBySlug(
  client: VenueClient,
  slug: string,
  params: GetEventBySlugParams = {},
  options: CallOptions = {},
): Promise<VenueEvent> {
  const { value } = await requestJson(client, {
    route: 'getEventBySlug',
    pathParams: { slug },
    query: toQuery({ creator: params.creator }),
    ...options,
  });
  return decodeEvent(value);
}
