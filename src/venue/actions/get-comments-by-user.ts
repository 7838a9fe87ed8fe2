import type { CallOptions, VenueClient } from '../client.ts';
import { decodeComments } from '../decode.ts';
import type { VenueComment } from '../domain/comments.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface CommentPageParams {
  /** 1..100, default 20. */
  readonly limit?: number;
  /** >= 0, default 0. */
  readonly offset?: number;
}

/** `GET /comments/user_address/{user_address}`: comments written by a user or proxy wallet. */
export async function getCommentsByUser(
  client: VenueClient,
  userAddress: string,
  params: CommentPageParams = {},
  options: CallOptions = {},
): Promise<VenueComment[]> {
  const { value } = await requestJson(client, {
    route: 'getCommentsByUser',
    pathParams: { user_address: userAddress },
    query: toQuery({ limit: params.limit, offset: params.offset }),
    ...options,
  });
  return decodeComments(value);
}
