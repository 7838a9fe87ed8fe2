import { ParameterError } from '../../core/errors.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeCancelResult } from '../decode.ts';
import type { CancelResult } from '../domain/account.ts';
import { requestJson } from '../request.ts';

/** `DELETE /order` with `{"orderID"}`: cancels one order. Needs an L2-authenticated client. */
export async function cancelOrder(client: VenueClient, orderId: string, options: CallOptions = {}): Promise<CancelResult> {
  if (orderId.trim() === '') throw new ParameterError('cancelOrder', 'orderID', 'is required');
  const { value } = await requestJson(client, { route: 'cancelOrder', body: { orderID: orderId }, ...options });
  return decodeCancelResult(value);
}
