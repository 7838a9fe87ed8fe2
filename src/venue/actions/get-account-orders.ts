import type { ConditionId, TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeAccountOrdersPage, FIRST_CURSOR } from '../decode.ts';
import type { AccountOrder } from '../domain/account.ts';
import type { Page } from '../domain/trading.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface AccountOrdersFilter {
  /** One order id. */
  readonly id?: string;
  /** Condition id. */
  readonly market?: ConditionId;
  /** Token id. */
  readonly assetId?: TokenId;
}

/**
 * `GET /data/orders`: one page of the account's live orders (4.8). Start with `MA==`; the last
 * page has an empty cursor (interface) or `LTE=` (polymarket profile), both marked `done`.
 * Needs an L2-authenticated client.
 */
export async function getAccountOrders(
  client: VenueClient,
  filter: AccountOrdersFilter = {},
  cursor: string = FIRST_CURSOR,
  options: CallOptions = {},
): Promise<Page<AccountOrder>> {
  const { value } = await requestJson(client, {
    route: 'getAccountOrders',
    query: toQuery({ id: filter.id, market: filter.market, asset_id: filter.assetId, next_cursor: cursor }),
    ...options,
  });
  return decodeAccountOrdersPage(value);
}
