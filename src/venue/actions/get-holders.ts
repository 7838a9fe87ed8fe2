import type { CallOptions, VenueClient } from '../client.ts';
import { decodeHolderGroups } from '../decode.ts';
import type { HolderGroup } from '../domain/analytics.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetHoldersParams {
  /** Condition ids (required, at least one). */
  readonly market: readonly string[];
  /** Holders per market, 0..500, default 100. */
  readonly limit?: number;
  /** >= 0, default 1: wallets below this balance are dropped. */
  readonly minBalance?: number;
}

/** `GET /holders`: top holders per outcome token of the given markets (2.5). */
export async function getHolders(client: VenueClient, params: GetHoldersParams, options: CallOptions = {}): Promise<HolderGroup[]> {
  const { value } = await requestJson(client, {
    route: 'getHolders',
    query: toQuery({ market: params.market, limit: params.limit, minBalance: params.minBalance }),
    ...options,
  });
  return decodeHolderGroups(value);
}
