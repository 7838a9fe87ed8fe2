import type { OrderBook, TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeOrderBooksText } from '../decode.ts';
import type { WireTokenRequest } from '../wire/trading.ts';
import { tokenChunks } from '../token-chunks.ts';

/**
 * `POST /books`: the books of `tokenIds`, in chunks of MAX_TOKENS_PER_BOOKS_REQUEST tokens (one
 * request per chunk, each paced by the rate budget). Books come back in the venue's order,
 * chunk after chunk; levels sorted (bids descending, asks ascending), prices and sizes exact.
 */
export async function getOrderBooks(client: VenueClient, tokenIds: readonly TokenId[], options: CallOptions = {}): Promise<OrderBook[]> {
  const chunks = tokenChunks('getOrderBooks', tokenIds);
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const body: WireTokenRequest[] = chunk.map((token_id) => ({ token_id }));
      const response = await client.send({ route: 'getOrderBooks', body, ...options });
      return decodeOrderBooksText(response.text, response.tsInit);
    }),
  );
  return answers.flat();
}
