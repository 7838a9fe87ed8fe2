import type { TokenId } from '../core/types.ts';
import type { VenueClient } from '../venue/client.ts';
import { getOrderBooks } from '../venue/actions/get-order-books.ts';
import { getPrices } from '../venue/actions/get-prices.ts';
import type { BookFeed } from './poll-source.ts';

/** The poller's feed over the venue client: `POST /books` and `POST /prices`, paced by its budget. */
export function venueBookFeed(client: VenueClient): BookFeed {
  return {
    fetchBooks: (tokenIds: readonly TokenId[], signal?: AbortSignal) => getOrderBooks(client, tokenIds, { signal }),
    fetchPrices: (tokenIds: readonly TokenId[], signal?: AbortSignal) => getPrices(client, tokenIds, { signal }),
  };
}
