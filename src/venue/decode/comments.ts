import type { CommentPosition, CommentProfile, CommentReaction, VenueComment } from '../domain/comments.ts';
import { asObj, at, list, mapArray, optBool, optDate, optId, optInt, optRecord, optStr, reqId, reqStr } from './fields.ts';

/**
 * Decoders of comments (interface 2.6).
 */

function decodeCommentProfile(v: unknown, path: string): CommentProfile {
  const o = asObj(v, path);
  return {
    name: optStr(o, path, 'name'),
    pseudonym: optStr(o, path, 'pseudonym'),
    bio: optStr(o, path, 'bio'),
    proxyWallet: optStr(o, path, 'proxyWallet'),
    baseAddress: optStr(o, path, 'baseAddress'),
    profileImage: optStr(o, path, 'profileImage'),
    displayUsernamePublic: optBool(o, path, 'displayUsernamePublic'),
    isMod: optBool(o, path, 'isMod'),
    isCreator: optBool(o, path, 'isCreator'),
    profileImageOptimized: optRecord(o, path, 'profileImageOptimized'),
    positions: list(o, path, 'positions', (p, pp): CommentPosition => {
      const po = asObj(p, pp);
      return { tokenId: reqStr(po, pp, 'tokenId'), positionSize: reqId(po, pp, 'positionSize') };
    }),
  };
}

function decodeReaction(v: unknown, path: string): CommentReaction {
  const o = asObj(v, path);
  return {
    id: optId(o, path, 'id'),
    reactionType: optStr(o, path, 'reactionType'),
    userAddress: optStr(o, path, 'userAddress'),
    createdAt: optDate(o, path, 'createdAt'),
    raw: o,
  };
}

export function decodeComment(value: unknown, path = 'comment'): VenueComment {
  const o = asObj(value, path);
  const profile = o['profile'];
  return {
    id: reqId(o, path, 'id'),
    body: optStr(o, path, 'body') ?? '',
    parentEntityType: optStr(o, path, 'parentEntityType'),
    parentEntityId: optId(o, path, 'parentEntityID'),
    parentCommentId: optId(o, path, 'parentCommentID'),
    userAddress: optStr(o, path, 'userAddress'),
    replyAddress: optStr(o, path, 'replyAddress'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    profile: profile === undefined || profile === null ? undefined : decodeCommentProfile(profile, at(path, 'profile')),
    reactions: list(o, path, 'reactions', decodeReaction),
    reportCount: optInt(o, path, 'reportCount'),
    reactionCount: optInt(o, path, 'reactionCount'),
    replyCount: optInt(o, path, 'replyCount'),
    replies: list(o, path, 'replies', decodeComment),
  };
}

/** The comment routes: an array of comments. */
export function decodeComments(value: unknown): VenueComment[] {
  return mapArray(value, 'comments', decodeComment);
}
