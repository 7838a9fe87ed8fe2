import type { CallOptions, VenueClient } from '../client.ts';
import { decodeCancelResult } from '../decode.ts';
import type { CancelResult } from '../domain/account.ts';
import { requestJson } from '../request.ts';

/** `DELETE /cancel-all`: cancels every open order of the API key. Needs an L2-authenticated client. */
export async function cancelAll(client: VenueClient, options: CallOptions = {}): Promise<CancelResult> {
  const { value } = await requestJson(client, { route: 'cancelAll', ...options });
  return decodeCancelResult(value);
}
