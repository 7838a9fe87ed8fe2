import type { Micros } from '../../core/fixed.ts';
import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTickSize } from '../decode.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /tick-size?token_id=`: the token's minimum tick, in Micros. */
export async function getTickSize(client: VenueClient, tokenId: TokenId, options: CallOptions = {}): Promise<Micros> {
  const { value } = await requestJson(client, { route: 'getTickSize', query: toQuery({ token_id: tokenId }), ...options });
  return decodeTickSize(value);
}
