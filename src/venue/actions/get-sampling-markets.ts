import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTradingMarketsPage, FIRST_CURSOR } from '../decode.ts';
import type { Page, TradingMarket } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /sampling-markets`: one page of trading markets with the detail fields (2.10). Start with no cursor (`MA==`). */
export async function getSamplingMarkets(client: VenueClient, nextCursor: string = FIRST_CURSOR, options: CallOptions = {}): Promise<Page<TradingMarket>> {
  const { value } = await requestJson(client, { route: 'getSamplingMarkets', query: toQuery({ next_cursor: nextCursor }), ...options });
  return decodeTradingMarketsPage(value);
}
