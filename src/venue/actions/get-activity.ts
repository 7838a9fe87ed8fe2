import type { CallOptions, VenueClient } from '../client.ts';
import { decodeActivity } from '../decode.ts';
import type { Activity } from '../domain/analytics.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetActivityParams {
  /** Wallet address (required). */
  readonly user: string;
  /** At most 500. */
  readonly limit?: number;
  /** At most 10000. */
  readonly offset?: number;
}

/** `GET /activity`: a wallet's activity feed (2.4). */
export async function getActivity(client: VenueClient, params: GetActivityParams, options: CallOptions = {}): Promise<Activity[]> {
  const { value } = await requestJson(client, {
    route: 'getActivity',
    query: toQuery({ user: params.user, limit: params.limit, offset: params.offset }),
    ...options,
  });
  return decodeActivity(value);
}
