import type { Side, TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTokenPrice } from '../decode.ts';
import type { TokenPrice } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /price?token_id=&side=`: the best price on one side of a token's book. */
export async function getPrice(client: VenueClient, tokenId: TokenId, side: Side, options: CallOptions = {}): Promise<TokenPrice> {
  const { value, tsInit } = await requestJson(client, { route: 'getPrice', query: toQuery({ token_id: tokenId, side }), ...options });
  return decodeTokenPrice(value, tokenId, side, tsInit);
}
