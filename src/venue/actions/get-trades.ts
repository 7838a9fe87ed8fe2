import type { Side } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTradeFills } from '../decode.ts';
import type { TradeFill } from '../domain/analytics.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetTradesParams {
  /** 0..10000, default 100. */
  readonly limit?: number;
  /** 0..10000, default 0. */
  readonly offset?: number;
  /** Default true: taker fills only. */
  readonly takerOnly?: boolean;
  /** Needs `filterAmount`. */
  readonly filterType?: 'CASH' | 'TOKENS';
  /** >= 0. */
  readonly filterAmount?: number;
  /** Condition ids. */
  readonly market?: readonly string[];
  /** Wallet address. */
  readonly user?: string;
  readonly side?: Side;
}

/** `GET /trades`: trade fills from the wallet-analytics cache (2.2). */
export async function getTrades(client: VenueClient, params: GetTradesParams = {}, options: CallOptions = {}): Promise<TradeFill[]> {
  const { value } = await requestJson(client, {
    route: 'getTrades',
    query: toQuery({
      limit: params.limit,
      offset: params.offset,
      takerOnly: params.takerOnly,
      filterType: params.filterType,
      filterAmount: params.filterAmount,
      market: params.market,
      user: params.user,
      side: params.side,
    }),
    ...options,
  });
  return decodeTradeFills(value);
}
