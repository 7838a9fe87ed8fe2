import type { CallOptions, VenueClient } from '../client.ts';
import type { SimplifiedMarket } from '../domain/trading.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getSimplifiedMarkets } from './get-simplified-markets.ts';

/** Every item of `GET /simplified-markets`, page by page from `MA==` to the last page. */
export function iterateSimplifiedMarkets(client: VenueClient, options: CallOptions = {}): AsyncGenerator<SimplifiedMarket, void, undefined> {
  return iteratePages((cursor) => getSimplifiedMarkets(client, cursor, options));
}
