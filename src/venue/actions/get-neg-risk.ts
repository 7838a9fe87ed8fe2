import type { TokenId } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeNegRisk } from '../decode.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

/** `GET /neg-risk?token_id=`: whether the token's market is neg-risk (another exchange contract). */
export async function getNegRisk(client: VenueClient, tokenId: TokenId, options: CallOptions = {}): Promise<boolean> {
  const { value } = await requestJson(client, { route: 'getNegRisk', query: toQuery({ token_id: tokenId }), ...options });
  return decodeNegRisk(value);
}
