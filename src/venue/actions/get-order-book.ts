import type { OrderBook, TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeOrderBook } from '../decode.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /book?token_id=`: one order book. */
export async function getOrderBook(client: VenueClient, tokenId: TokenId, options: CallOptions = {}): Promise<OrderBook> {
  const { value, tsInit } = await requestJson(client, { route: 'getOrderBook', query: toQuery({ token_id: tokenId }), ...options });
  return decodeOrderBook(value, tsInit);
}
