import type { CallOptions, VenueClient } from '../client.ts';
import { decodeEvents } from '../decode.ts';
import type { VenueEvent } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetEventsParams {
  readonly limit?: number;
  readonly offset?: number;
  /** Sort column. */
  readonly order?: string;
  readonly ascending?: boolean;
  readonly slug?: string;
  readonly tagId?: string;
  readonly active?: boolean;
  readonly closed?: boolean;
  readonly archived?: boolean;
}

/** `GET /events`: a list of events, full form (2.8). */
export async function getEvents(client: VenueClient, params: GetEventsParams = {}, options: CallOptions = {}): Promise<VenueEvent[]> {
  const { value } = await requestJson(client, {
    route: 'getEvents',
    query: toQuery({
      limit: params.limit,
      offset: params.offset,
      order: params.order,
      ascending: params.ascending,
      slug: params.slug,
      tag_id: params.tagId,
      active: params.active,
      closed: params.closed,
      archived: params.archived,
    }),
    ...options,
  });
  return decodeEvents(value);
}
