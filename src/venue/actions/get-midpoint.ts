import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeMidpoint } from '../decode.ts';
import type { Midpoint } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /midpoint?token_id=`. */
export async function getMidpoint(client: VenueClient, tokenId: TokenId, options: CallOptions = {}): Promise<Midpoint> {
  const { value, tsInit } = await requestJson(client, { route: 'getMidpoint', query: toQuery({ token_id: tokenId }), ...options });
  return decodeMidpoint(value, tokenId, tsInit);
}
