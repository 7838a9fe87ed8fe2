import type { CallOptions, VenueClient } from '../client.ts';
import { decodeMetadataMarket } from '../decode.ts';
import type { MetadataMarket } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetMarketBySlugParams {
  /** A creator wallet address or site identifier scoping the lookup (interface 4.5). */
  readonly creator?: string;
}

/** `GET /markets/slug/{slug}`: one market, metadata form (2.7), with its events. */
export async function getMarketBySlug(
  client: VenueClient,
  slug: string,
  params: GetMarketBySlugParams = {},
  options: CallOptions = {},
): Promise<MetadataMarket> {
  const { value } = await requestJson(client, {
    route: 'getMarketBySlug',
    pathParams: { slug },
    query: toQuery({ creator: params.creator }),
    ...options,
  });
  return decodeMetadataMarket(value);
}
