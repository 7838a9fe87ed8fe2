import { ParameterError } from '../core/errors.ts';
import type { TokenId } from '../core/types.ts';
import type { RouteId } from './endpoints.ts';
import { MAX_TOKENS_PER_BOOKS_REQUEST } from './params.ts';

/**
 * Checks a list of token ids (non-empty strings) and splits it into request-sized chunks of
 * at most MAX_TOKENS_PER_BOOKS_REQUEST, for `POST /books` and `POST /prices`.
 */
export function tokenChunks(route: RouteId, tokenIds: readonly TokenId[]): TokenId[][] {
  const chunks: TokenId[][] = [];
  for (let i = 0; i < tokenIds.length; i++) {
    const id = tokenIds[i];
    if (typeof id !== 'string' || id.trim() === '') throw new ParameterError(route, `token_id[${i}]`, 'must be a non-empty string');
  }
  for (let i = 0; i < tokenIds.length; i += MAX_TOKENS_PER_BOOKS_REQUEST) {
    chunks.push(tokenIds.slice(i, i + MAX_TOKENS_PER_BOOKS_REQUEST));
  }
  return chunks;
}
