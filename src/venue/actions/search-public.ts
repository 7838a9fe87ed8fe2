import type { CallOptions, VenueClient } from '../client.ts';
import { decodeSearchResults } from '../decode.ts';
import type { SearchResults } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface SearchPublicParams {
  /** Results per kind (events, tags, profiles), 1..100. */
  readonly limitPerType?: number;
}

/** `GET /public-search?q=`: events, tags and profiles matching `q`. */
export async function searchPublic(
  client: VenueClient,
  q: string,
  params: SearchPublicParams = {},
  options: CallOptions = {},
): Promise<SearchResults> {
  const { value } = await requestJson(client, {
    route: 'publicSearch',
    query: toQuery({ q, limit_per_type: params.limitPerType }),
    ...options,
  });
  return decodeSearchResults(value);
}
