import type { CallOptions, VenueClient } from '../client.ts';
import { decodeSimplifiedMarketsPage, FIRST_CURSOR } from '../decode.ts';
import type { Page, SimplifiedMarket } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /sampling-simplified-markets`: one page of simplified markets (2.11). Start with no cursor (`MA==`). */
export async function getSamplingSimplifiedMarkets(client: VenueClient, nextCursor: string = FIRST_CURSOR, options: CallOptions = {}): Promise<Page<SimplifiedMarket>> {
  const { value } = await requestJson(client, { route: 'getSamplingSimplifiedMarkets', query: toQuery({ next_cursor: nextCursor }), ...options });
  return decodeSimplifiedMarketsPage(value);
}
