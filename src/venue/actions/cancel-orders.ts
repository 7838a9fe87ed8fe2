import { ParameterError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeCancelResult } from '../decode.ts';
import type { CancelResult } from '../domain/account.ts';
import { requestCost } from '../rate-limits.ts';
import { requestJson } from '../request.ts';

/** Most ids one `DELETE /orders` may carry (PROTOCOL "Routes whose shapes..."). */
export const MAX_CANCEL_IDS = 1000;

/**
 * `DELETE /orders` with a JSON array of order ids (1 to 1000; otherwise a ParameterError and
 * nothing is sent). Costs one per id against the cancel budgets. Needs an L2-authenticated client.
 */
export async function cancelOrders(client: VenueClient, orderIds: readonly string[], options: CallOptions = {}): Promise<CancelResult> {
  const n = orderIds.length;
  if (n === 0 || n > MAX_CANCEL_IDS) throw new ParameterError('cancelOrders', 'orderIds', `must hold 1 to ${MAX_CANCEL_IDS} ids, was ${n}`);
  const blank = orderIds.findIndex((id) => typeof id !== 'string' || id.trim() === '');
  if (blank >= 0) throw new ParameterError('cancelOrders', `orderIds[${blank}]`, 'must be a non-empty id');
  const { value } = await requestJson(client, { route: 'cancelOrders', body: [...orderIds], cost: requestCost('cancelOrders', n), ...options });
  return decodeCancelResult(value);
}
