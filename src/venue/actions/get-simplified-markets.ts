import type { CallOptions, VenueClient } from '../client.ts';
import { decodeSimplifiedMarketsPage, FIRST_CURSOR } from '../decode.ts';
import type { Page, SimplifiedMarket } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /simplified-markets`: one page of simplified markets (2.11). Start with no cursor (`MA==`). */
export async function getSimplifiedMarkets(client: VenueClient, nextCursor: string = FIRST_CURSOR, options: CallOptions = {}): Promise<Page<SimplifiedMarket>> {
  const { value } = await requestJson(client, { route: 'getSimplifiedMarkets', query: toQuery({ next_cursor: nextCursor }), ...options });
  return decodeSimplifiedMarketsPage(value);
}
