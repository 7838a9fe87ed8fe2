import { ParameterError } from '../../core/errors.ts';
import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeBalanceAllowance } from '../decode.ts';
import type { BalanceAllowance } from '../domain/account.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export type BalanceAllowanceParams =
  | { readonly assetType: 'COLLATERAL'; readonly signatureType?: number }
  | { readonly assetType: 'CONDITIONAL'; readonly tokenId: TokenId; readonly signatureType?: number };

/**
 * `GET /balance-allowance` (docs/protocol-additions.md): the account's collateral, or one
 * outcome token, in base units, and the exchanges' allowances. `signatureType` says which wallet
 * of the key holds the funds (0 the key's own address, 1 and 2 its proxy or safe: the funder).
 * Needs an L2-authenticated client.
 */
export async function getBalanceAllowance(client: VenueClient, params: BalanceAllowanceParams, options: CallOptions = {}): Promise<BalanceAllowance> {
  const tokenId = params.assetType === 'CONDITIONAL' ? params.tokenId : undefined;
  if (params.assetType === 'CONDITIONAL' && (tokenId === undefined || tokenId === '')) {
    throw new ParameterError('getBalanceAllowance', 'token_id', "is required when asset_type is 'CONDITIONAL'");
  }
  const { value } = await requestJson(client, {
    route: 'getBalanceAllowance',
    query: toQuery({ asset_type: params.assetType, token_id: tokenId, signature_type: params.signatureType }),
    ...options,
  });
  return decodeBalanceAllowance(value);
}
