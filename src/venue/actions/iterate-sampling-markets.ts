import type { CallOptions, VenueClient } from '../client.ts';
import type { TradingMarket } from '../domain/trading.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getSamplingMarkets } from './get-sampling-markets.ts';

/** Every item of `GET /sampling-markets`, page by page from `MA==` to the last page. */
export function iterateSamplingMarkets(client: VenueClient, options: CallOptions = {}): AsyncGenerator<TradingMarket, void, undefined> {
  return iteratePages((cursor) => getSamplingMarkets(client, cursor, options));
}
