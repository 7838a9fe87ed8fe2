import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTradingMarketsPage, FIRST_CURSOR } from '../decode.ts';
import type { Page, TradingMarket } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /markets`: one page of trading markets (2.10), plain form. Start with no cursor (`MA==`). */
export async function getMarkets(client: VenueClient, nextCursor: string = FIRST_CURSOR, options: CallOptions = {}): Promise<Page<TradingMarket>> {
  const { value } = await requestJson(client, { route: 'getMarkets', query: toQuery({ next_cursor: nextCursor }), ...options });
  return decodeTradingMarketsPage(value);
}
