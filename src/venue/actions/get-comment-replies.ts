import type { CallOptions, VenueClient } from '../client.ts';
import { decodeComments } from '../decode.ts';
import type { VenueComment } from '../domain/comments.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';
import type { CommentPageParams } from './get-comments-by-user.ts';

/** `GET /comments/{id}`: the replies of one comment. */
export async function getCommentReplies(
  client: VenueClient,
  commentId: string,
  params: CommentPageParams = {},
  options: CallOptions = {},
): Promise<VenueComment[]> {
  const { value } = await requestJson(client, {
    route: 'getCommentReplies',
    pathParams: { id: commentId },
    query: toQuery({ limit: params.limit, offset: params.offset }),
    ...options,
  });
  return decodeComments(value);
}
