import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTags } from '../decode.ts';
import type { Tag } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetTagsParams {
  readonly limit?: number;
  readonly offset?: number;
}

/** `GET /tags`. */
export async function getTags(client: VenueClient, params: GetTagsParams = {}, options: CallOptions = {}): Promise<Tag[]> {
  const { value } = await requestJson(client, {
    route: 'getTags',
    query: toQuery({ limit: params.limit, offset: params.offset }),
    ...options,
  });
  return decodeTags(value);
}
