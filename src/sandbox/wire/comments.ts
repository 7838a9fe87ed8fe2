import { formatMicros } from '../../core/fixed.ts';
import type { WireComment, WireCommentProfile } from '../../venue/wire/comments.ts';
import { isoTime } from '../world/ids.ts';
import type { SandboxComment, SandboxWallet } from '../world/model.ts';
import type { World } from '../world/world.ts';

/** Comments in the wire shape of 2.6; a profile's `positions` are its holdings in the parent entity. */

function toProfile(world: World, w: SandboxWallet, comment: SandboxComment): WireCommentProfile {
  const tokens = new Set(comment.parentTokens);
  const positions = world
    .holdingsOf(w)
    .filter((h) => tokens.has(h.token))
    .map((h) => ({ tokenId: h.token.tokenId, positionSize: formatMicros(h.size) }));
  return {
    name: w.name,
    pseudonym: w.pseudonym,
    bio: w.bio,
    proxyWallet: w.address,
    baseAddress: w.baseAddress,
    profileImage: w.profileImage,
    displayUsernamePublic: w.displayUsernamePublic,
    isMod: w.isMod,
    isCreator: false,
    profileImageOptimized: {},
    positions,
  };
}

export function toComment(world: World, c: SandboxComment): WireComment {
  return {
    id: c.id,
    body: c.body,
    parentEntityType: c.parentEntityType,
    parentEntityID: c.parentEntityID,
    parentCommentID: c.parentCommentID,
    userAddress: c.wallet.address,
    replyAddress: c.replyAddress,
    createdAt: isoTime(c.createdAt),
    updatedAt: isoTime(c.updatedAt),
    profile: toProfile(world, c.wallet, c),
    reactions: c.reactions.map((r) => ({
      id: r.id,
      commentID: Number(c.id),
      reactionType: r.reactionType,
      icon: '',
      userAddress: r.wallet.address,
      createdAt: isoTime(r.createdAt),
    })),
    reportCount: c.reportCount,
    reactionCount: c.reactions.length,
    replyCount: c.replies.length,
    replies: c.replies.map((r) => toComment(world, r)),
  };
}
