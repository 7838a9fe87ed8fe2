import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeBatchPricesHistory } from '../decode.ts';
import type { PricePoint } from '../domain/trading.ts';
import { checkBody, toQuery } from '../params.ts';
import { requestJson } from '../request.ts';
import type { WireBatchPricesHistoryRequest } from '../wire/trading.ts';
import type { PriceHistoryInterval } from './get-prices-history.ts';

export interface GetBatchPricesHistoryParams {
  /** Token ids. */
  readonly markets: readonly TokenId[];
  /** Unix seconds. */
  readonly startTs?: number;
  /** Unix seconds. */
  readonly endTs?: number;
  readonly interval?: PriceHistoryInterval;
  /** Resolution in minutes. */
  readonly fidelity?: number;
}

/** `POST /batch-prices-history`: price histories of several tokens, keyed by token id. */
export async function getBatchPricesHistory(
  client: VenueClient,
  params: GetBatchPricesHistoryParams,
  options: CallOptions = {},
): Promise<Record<TokenId, PricePoint[]>> {
  const body: WireBatchPricesHistoryRequest = {
    markets: [...params.markets],
    start_ts: params.startTs,
    end_ts: params.endTs,
    interval: params.interval,
    fidelity: params.fidelity,
  };
  checkBody('getBatchPricesHistory', toQuery({ ...body }));
  const { value } = await requestJson(client, { route: 'getBatchPricesHistory', body, ...options });
  return decodeBatchPricesHistory(value);
}
