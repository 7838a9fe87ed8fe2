import { ParameterError } from '../../core/errors.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeCancelResult } from '../decode.ts';
import type { CancelResult } from '../domain/account.ts';
import { requestJson } from '../request.ts';

export interface CancelMarketOrdersParams {
  /** Condition id: every open order of the market. */
  readonly market?: ConditionId;
  /** Token id: every open order on the token. */
  readonly assetId?: TokenId;
}

/**
 * `DELETE /cancel-market-orders` with `{market?, asset_id?}`. At least one must be given (a
 * ParameterError otherwise: use `cancelAll` to cancel everything). Needs an L2-authenticated client.
 */
export async function cancelMarketOrders(client: VenueClient, params: CancelMarketOrdersParams, options: CallOptions = {}): Promise<CancelResult> {
  const body: { market?: string; asset_id?: string } = {};
  if (params.market !== undefined && params.market !== '') body.market = params.market;
  if (params.assetId !== undefined && params.assetId !== '') body.asset_id = params.assetId;
  if (body.market === undefined && body.asset_id === undefined) {
    throw new ParameterError('cancelMarketOrders', 'market', 'or asset_id is required (cancelAll cancels everything)');
  }
  const { value } = await requestJson(client, { route: 'cancelMarketOrders', body, ...options });
  return decodeCancelResult(value);
}
