import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeFeeRate } from '../decode.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /fee-rate?token_id=`: the token's base fee in basis points. */
export async function getFeeRate(client: VenueClient, tokenId: TokenId, options: CallOptions = {}): Promise<number> {
  const { value } = await requestJson(client, { route: 'getFeeRate', query: toQuery({ token_id: tokenId }), ...options });
  return decodeFeeRate(value);
}
