import { ParameterError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeAccountTradesPage, FIRST_CURSOR } from '../decode.ts';
import type { AccountTrade } from '../domain/account.ts';
import type { Page } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface AccountTradesFilter {
  /** One trade id. */
  readonly id?: string;
  /** Taker address. */
  readonly taker?: string;
  /** Counterparty maker address. */
  readonly maker?: string;
  /** Condition id. */
  readonly market?: ConditionId;
  /** Unix seconds: trades strictly before. */
  readonly before?: number;
  /** Unix seconds: trades strictly after. */
  readonly after?: number;
}

/**
 * `GET /data/trades`: one page of the account's trades (4.8). Start with `MA==`; `LTE=` marks the
 * last page. Needs an L2-authenticated client.
 */
export async function getAccountTrades(
  client: VenueClient,
  filter: AccountTradesFilter = {},
  cursor: string = FIRST_CURSOR,
  options: CallOptions = {},
): Promise<Page<AccountTrade>> {
  for (const name of ['before', 'after'] as const) {
    const v = filter[name];
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) {
      throw new ParameterError('getAccountTrades', name, `must be non-negative unix seconds, was ${v}`);
    }
  }
  const { value } = await requestJson(client, {
    route: 'getAccountTrades',
    query: toQuery({
      id: filter.id,
      taker: filter.taker,
      maker: filter.maker,
      market: filter.market,
      before: filter.before,
      after: filter.after,
      next_cursor: cursor,
    }),
    ...options,
  });
  return decodeAccountTradesPage(value);
}
