import type { CallOptions, VenueClient } from '../client.ts';
import type { AccountOrder } from '../domain/account.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getAccountOrders, type AccountOrdersFilter } from './get-account-orders.ts';

/** Every live order of the account matching `filter`, page by page from `MA==` to the last page. */
export function iterateAccountOrders(
  client: VenueClient,
  filter: AccountOrdersFilter = {},
  options: CallOptions = {},
): AsyncGenerator<AccountOrder, void, undefined> {
  return iteratePages((cursor) => getAccountOrders(client, filter, cursor, options));
}
