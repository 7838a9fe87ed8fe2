import type { CallOptions, VenueClient } from '../client.ts';
import { decodeComments } from '../decode.ts';
import type { VenueComment } from '../domain/comments.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetCommentsParams {
  /** 1..100, default 20. */
  readonly limit?: number;
  /** >= 0, default 0. */
  readonly offset?: number;
  /** Sort column. */
  readonly order?: string;
  readonly parentEntityType?: 'Event' | 'Series' | 'market';
  readonly parentEntityId?: string;
  /** Direct event shortcut. */
  readonly eventSlug?: string;
  /** Only comments from holders. */
  readonly holdersOnly?: boolean;
}

/** `GET /comments` (2.6). */
export async function getComments(client: VenueClient, params: GetCommentsParams = {}, options: CallOptions = {}): Promise<VenueComment[]> {
  const { value } = await requestJson(client, {
    route: 'getComments',
    query: toQuery({
      limit: params.limit,
      offset: params.offset,
      order: params.order,
      parent_entity_type: params.parentEntityType,
      parent_entity_id: params.parentEntityId,
      event_slug: params.eventSlug,
      holders_only: params.holdersOnly,
    }),
    ...options,
  });
  return decodeComments(value);
}
