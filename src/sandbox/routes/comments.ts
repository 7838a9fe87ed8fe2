import type { FastifyInstance } from 'fastify';
import { ParameterError } from '../../core/errors.ts';
import { isAddress } from '../../venue/signing/address.ts';
import type { WireComment } from '../../venue/wire/comments.ts';
import type { SandboxContext } from '../context.ts';
import { notFound } from '../http-error.ts';
import { toComment } from '../wire/comments.ts';
import type { SandboxComment } from '../world/model.ts';
import type { RouteId } from '../../venue/endpoints.ts';
import { checkedQuery, intOf, orderKeyOf, slice, sortBy, stringOf, type Query } from './query.ts';

/**
 * The comment routes (4.4). `order` sorts by `createdAt` (default), `updatedAt`,
 * `reactionCount`, `replyCount` or `id`, newest / largest first unless `ascending=true`; any
 * other `order` is a 400 naming the parameter.
 */

const DEFAULT_LIMIT = 20;

const byCreatedAt = (c: SandboxComment): number => c.createdAt;
const ORDER: Readonly<Record<string, (c: SandboxComment) => number>> = {
  createdAt: byCreatedAt,
  updatedAt: (c) => c.updatedAt,
  reactionCount: (c) => c.reactions.length,
  replyCount: (c) => c.replies.length,
  id: (c) => Number(c.id),
};

function ordered(route: RouteId, comments: readonly SandboxComment[], query: Query): SandboxComment[] {
  const key = orderKeyOf(route, query, ORDER, 'createdAt');
  return sortBy(comments, key, query['ascending'] === 'true');
}

export function registerCommentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { world } = ctx;
  const paged = (route: RouteId, comments: readonly SandboxComment[], query: Query): WireComment[] =>
    slice(ordered(route, comments, query), intOf(query, 'offset', 0), intOf(query, 'limit', DEFAULT_LIMIT)).map((c) => toComment(world, c));

  app.get('/comments', { config: { routeId: 'getComments' } }, (request) => {
    const query = checkedQuery('getComments', request);
    const type = stringOf(query, 'parent_entity_type');
    const id = stringOf(query, 'parent_entity_id');
    const eventSlug = stringOf(query, 'event_slug');
    const event = eventSlug === undefined ? undefined : world.eventBySlug(eventSlug);
    if (eventSlug !== undefined && !event) throw notFound(`event with slug '${eventSlug}' not found`);
    const holdersOnly = query['holders_only'] === 'true';
    const comments = world.comments.filter((c) => {
      if (type !== undefined && c.parentEntityType !== type) return false;
      if (id !== undefined && String(c.parentEntityID) !== id) return false;
      if (event && !(c.parentEntityType === 'Event' && c.event === event)) return false;
      if (holdersOnly) {
        const tokens = new Set(c.parentTokens);
        if (!world.holdingsOf(c.wallet).some((h) => tokens.has(h.token))) return false;
      }
      return true;
    });
    return paged('getComments', comments, query);
  });

  app.get('/comments/user_address/:user_address', { config: { routeId: 'getCommentsByUser' } }, (request) => {
    const query = checkedQuery('getCommentsByUser', request);
    const address = (request.params as { user_address: string }).user_address;
    if (!isAddress(address)) throw new ParameterError('getCommentsByUser', 'user_address', `must be a 0x address (40 hex digits), was '${address.slice(0, 60)}'`);
    const wallet = world.wallet(address);
    if (!wallet) return [];
    const mine: SandboxComment[] = [];
    for (const c of world.comments) {
      if (c.wallet === wallet) mine.push(c);
      for (const r of c.replies) if (r.wallet === wallet) mine.push(r);
    }
    return paged('getCommentsByUser', mine, query);
  });

  app.get('/comments/:id', { config: { routeId: 'getCommentReplies' } }, (request) => {
    const query = checkedQuery('getCommentReplies', request);
    const { id } = request.params as { id: string };
    const comment = world.comment(id);
    if (!comment) throw notFound(`comment '${id.slice(0, 80)}' not found`);
    return paged('getCommentReplies', comment.replies, query);
  });
}
