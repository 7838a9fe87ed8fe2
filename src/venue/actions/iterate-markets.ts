import type { CallOptions, VenueClient } from '../client.ts';
import type { TradingMarket } from '../domain/trading.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getMarkets } from './get-markets.ts';

/** Every item of `GET /markets`, page by page from `MA==` to the last page. */
export function iterateMarkets(client: VenueClient, options: CallOptions = {}): AsyncGenerator<TradingMarket, void, undefined> {
  return iteratePages((cursor) => getMarkets(client, cursor, options));
}
