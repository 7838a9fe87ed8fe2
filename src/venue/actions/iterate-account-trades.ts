import type { CallOptions, VenueClient } from '../client.ts';
import type { AccountTrade } from '../domain/account.ts';
import { iteratePages } from '../iterate-pages.ts';
import { getAccountTrades, type AccountTradesFilter } from './get-account-trades.ts';

/** Every trade of the account matching `filter`, page by page from `MA==` to `LTE=`. */
export function iterateAccountTrades(
  client: VenueClient,
  filter: AccountTradesFilter = {},
  options: CallOptions = {},
): AsyncGenerator<AccountTrade, void, undefined> {
  return iteratePages((cursor) => getAccountTrades(client, filter, cursor, options));
}
