import type { CallOptions, VenueClient } from '../client.ts';
import { decodeEventCreators } from '../decode.ts';
import type { EventCreator } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetEventCreatorsParams {
  /** 1..100, default 20. */
  readonly limit?: number;
  /** >= 0, default 0. */
  readonly offset?: number;
  /** Sort column. */
  readonly order?: string;
  /** Default false. */
  readonly ascending?: boolean;
  readonly creatorName?: string;
  readonly creatorHandle?: string;
}

/** `GET /events/creators` (2.9). */
export async function getEventCreators(
  client: VenueClient,
  params: GetEventCreatorsParams = {},
  options: CallOptions = {},
): Promise<EventCreator[]> {
  const { value } = await requestJson(client, {
    route: 'getEventCreators',
    query: toQuery({
      limit: params.limit,
      offset: params.offset,
      order: params.order,
      ascending: params.ascending,
      creator_name: params.creatorName,
      creator_handle: params.creatorHandle,
    }),
    ...options,
  });
  return decodeEventCreators(value);
}
