import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTradingMarket } from '../decode.ts';
import type { TradingMarket } from '../domain/trading.ts';
import { requestJson } from '../request.ts';

/** `GET /markets/{condition_id}`, trading form: one market with every field of 2.10. */
export async function getTradingMarket(client: VenueClient, conditionId: string, options: CallOptions = {}): Promise<TradingMarket> {
  const { value } = await requestJson(client, { route: 'getTradingMarket', pathParams: { condition_id: conditionId }, ...options });
  return decodeTradingMarket(value);
}
