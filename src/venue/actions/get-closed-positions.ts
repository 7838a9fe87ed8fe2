import type { CallOptions, VenueClient } from '../client.ts';
import { decodeClosedPositions } from '../decode.ts';
import type { ClosedPosition } from '../domain/analytics.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetClosedPositionsParams {
  /** Wallet address (required). */
  readonly user: string;
  /** Condition ids. */
  readonly market?: readonly string[];
  /** Substring of the market title, at most 100 characters. */
  readonly title?: string;
  /** 0..50, default 10. */
  readonly limit?: number;
  /** 0..100000, default 0. */
  readonly offset?: number;
  readonly sortBy?: 'REALIZEDPNL' | 'TITLE' | 'PRICE' | 'AVGPRICE' | 'TIMESTAMP';
  readonly sortDirection?: 'ASC' | 'DESC';
}

/** `GET /closed-positions` (2.3). */
export async function getClosedPositions(
  client: VenueClient,
  params: GetClosedPositionsParams,
  options: CallOptions = {},
): Promise<ClosedPosition[]> {
  const { value } = await requestJson(client, {
    route: 'getClosedPositions',
    query: toQuery({
      user: params.user,
      market: params.market,
      title: params.title,
      limit: params.limit,
      offset: params.offset,
      sortBy: params.sortBy,
      sortDirection: params.sortDirection,
    }),
    ...options,
  });
  return decodeClosedPositions(value);
}
