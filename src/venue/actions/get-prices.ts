import type { TokenId, TokenPrices } from '../../core/types.ts';
import type { CallOptions, VenueClient } from '../client.ts';
import { decodeTokenPrices } from '../decode.ts';
import { requestJson } from '../request.ts';
import type { WireTokenRequest } from '../wire/trading.ts';
import { tokenChunks } from '../token-chunks.ts';

/** `POST /prices`: best BUY and SELL prices of `tokenIds`, chunked like `getOrderBooks`. */
export async function getPrices(client: VenueClient, tokenIds: readonly TokenId[], options: CallOptions = {}): Promise<TokenPrices[]> {
  const chunks = tokenChunks('getPrices', tokenIds);
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const body: WireTokenRequest[] = chunk.map((token_id) => ({ token_id }));
      const { value, tsInit } = await requestJson(client, { route: 'getPrices', body, ...options });
      return decodeTokenPrices(value, tsInit);
    }),
  );
  return answers.flat();
}
