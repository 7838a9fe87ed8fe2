import type { CallOptions, VenueClient } from '../client.ts';
import type { SimplifiedMarket } from '../domain/trading.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getSamplingSimplifiedMarkets } from './get-sampling-simplified-markets.ts';

/** Every item of `GET /sampling-simplified-markets`, page by page from `MA==` to the last page. */
export function iterateSamplingSimplifiedMarkets(client: VenueClient, options: CallOptions = {}): AsyncGenerator<SimplifiedMarket, void, undefined> {
  return iteratePages((cursor) => getSamplingSimplifiedMarkets(client, cursor, options));
}
