import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodePricesHistory } from '../decode.ts';
import type { PriceHistoryInterval, PricePoint } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export type { PriceHistoryInterval };

export interface GetPricesHistoryParams {
  /** Token id. */
  readonly market: TokenId;
  /** Unix seconds. */
  readonly startTs?: number;
  /** Unix seconds. */
  readonly endTs?: number;
  readonly interval?: PriceHistoryInterval;
  /** Resolution in minutes. */
  readonly fidelity?: number;
}

/** `GET /prices-history`: the price history of one token. */
export async function getPricesHistory(client: VenueClient, params: GetPricesHistoryParams, options: CallOptions = {}): Promise<PricePoint[]> {
  const { value } = await requestJson(client, {
    route: 'getPricesHistory',
    query: toQuery({ market: params.market, startTs: params.startTs, endTs: params.endTs, interval: params.interval, fidelity: params.fidelity }),
    ...options,
  });
  return decodePricesHistory(value);
}
