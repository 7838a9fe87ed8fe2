import { ParameterError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeMetadataMarket } from '../decode.ts';
import type { MetadataMarket } from '../domain/metadata.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetMetadataMarketParams {
  /** A creator wallet address or site identifier scoping the lookup (interface 4.5). */
  readonly creator?: string;
}

/**
 * `GET /markets/{id}`, metadata form (2.7): by numeric id, or by condition id when the metadata
 * group has its own base URL. With one base URL for every group, `/markets/0x…` is the trading
 * form's path (PROTOCOL "Profiles"), so a condition id is refused here: use a numeric id,
 * `getMarketBySlug`, or separate group URLs.
 */
export async function getMetadataMarket(
  client: VenueClient,
  id: string,
  params: GetMetadataMarketParams = {},
  options: CallOptions = {},
): Promise<MetadataMarket> {
  if (id.startsWith('0x') && client.urls.metadata === client.urls.trading) {
    throw new ParameterError(
      'getMetadataMarket',
      'id',
      'is a condition id, which the shared base URL answers with the trading form; use the numeric id or separate group URLs',
    );
  }
  const { value } = await requestJson(client, {
    route: 'getMetadataMarket',
    pathParams: { id },
    query: toQuery({ creator: params.creator }),
    ...options,
  });
  return decodeMetadataMarket(value);
}
