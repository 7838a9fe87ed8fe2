import { VenueRejectError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeAccountOrder, parseJsonText } from '../decode.ts';
import type { AccountOrder } from '../domain/account.ts';

/**
 * `GET /data/order/{id}`: one order of the account, or undefined when the venue does not know it
 * (a 404, or an empty / `null` answer as some venues send). Needs an L2-authenticated client.
 */
export async function getAccountOrder(client: VenueClient, orderId: string, options: CallOptions = {}): Promise<AccountOrder | undefined> {
  let text: string;
  try {
    text = (await client.send({ route: 'getAccountOrder', pathParams: { id: orderId }, ...options })).text;
  } catch (err) {
    if (err instanceof VenueRejectError && err.status === 404) return undefined;
    throw err;
  }
  if (text.trim() === '') return undefined;
  const value = parseJsonText(text, 'GET /data/order/{id}');
  if (value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)) return undefined;
  return decodeAccountOrder(value);
}
