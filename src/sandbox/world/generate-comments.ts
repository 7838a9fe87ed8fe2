import type { Catalog } from './generate-catalog.ts';
import type { WalletActivity } from './generate-activity.ts';
import type { CommentParentType, SandboxComment, SandboxEvent, SandboxReaction, SandboxToken, SandboxWallet } from './model.ts';
import { Prng } from './prng.ts';
import * as words from './vocabulary.ts';

/**
 * Comment threads from a seed: on events (half of the authors hold a position in the event),
 * on some markets and on every series; each top-level comment has up to three replies and up
 * to four reactions. Ids are sequential decimal strings; top-level comments come back in id order.
 */
export function generateComments(seed: number, epochMs: number, catalog: Catalog, activity: WalletActivity): SandboxComment[] {
  const holdersByEvent = new Map<SandboxEvent, SandboxWallet[]>();
  for (const h of activity.holdings) {
    const list = holdersByEvent.get(h.token.market.event) ?? [];
    list.push(h.wallet);
    holdersByEvent.set(h.token.market.event, list);
  }
  const wallets = activity.wallets;
  let nextId = 1_000_000;
  let nextReactionId = 1;
  const out: SandboxComment[] = [];
  const reactions = (rng: Prng, after: number): SandboxReaction[] => {
    const count = rng.int(0, 4);
    return Array.from({ length: count }, () => ({
      id: String(nextReactionId++),
      reactionType: rng.pick(words.REACTION_TYPES),
      wallet: rng.pick(wallets),
      createdAt: rng.int(after, Math.max(after, epochMs - 1)),
    }));
  };

  const thread = (
    rng: Prng,
    parentEntityType: CommentParentType,
    parentEntityID: number,
    event: SandboxEvent | undefined,
    parentTokens: readonly SandboxToken[],
    author: SandboxWallet,
    after: number,
  ): SandboxComment => {
    const createdAt = rng.int(after, Math.max(after, epochMs - 60_000));
    const id = String(nextId++);
    const comment: SandboxComment = {
      id,
      body: `${rng.pick(words.COMMENT_OPENERS)} ${rng.pick(words.COMMENT_CLOSERS)}`,
      parentEntityType,
      parentEntityID,
      parentCommentID: '',
      wallet: author,
      replyAddress: '',
      createdAt,
      updatedAt: rng.chance(0.2) ? rng.int(createdAt, Math.max(createdAt, epochMs - 1)) : createdAt,
      reactions: reactions(rng, createdAt),
      reportCount: rng.chance(0.05) ? 1 : 0,
      replies: [],
      event,
      parentTokens,
    };
    const replies = rng.int(0, 3);
    for (let r = 0; r < replies; r++) {
      const replyAt = rng.int(createdAt, Math.max(createdAt, epochMs - 1));
      comment.replies.push({
        id: String(nextId++),
        body: rng.pick(words.REPLY_BODIES),
        parentEntityType,
        parentEntityID,
        parentCommentID: id,
        wallet: rng.pick(wallets),
        replyAddress: author.address,
        createdAt: replyAt,
        updatedAt: replyAt,
        reactions: reactions(rng, replyAt),
        reportCount: 0,
        replies: [],
        event,
        parentTokens,
      });
    }
    comment.replies.sort((a, b) => a.createdAt - b.createdAt);
    return comment;
  };

  for (const event of catalog.events) {
    const rng = Prng.from(seed, 'comments', 'event', event.index);
    const tokens = event.markets.flatMap((m) => m.tokens);
    const holders = holdersByEvent.get(event) ?? [];
    const count = rng.int(0, 6);
    for (let c = 0; c < count; c++) {
      const author = holders.length > 0 && rng.chance(0.5) ? rng.pick(holders) : rng.pick(wallets);
      out.push(thread(rng, 'Event', Number(event.id), event, tokens, author, event.createdAt));
    }
  }
  for (const market of catalog.markets) {
    const rng = Prng.from(seed, 'comments', 'market', market.index);
    if (!rng.chance(0.1)) continue;
    const count = rng.int(1, 2);
    for (let c = 0; c < count; c++) {
      out.push(thread(rng, 'market', market.numericId, market.event, market.tokens, rng.pick(wallets), market.createdAt));
    }
  }
  for (const series of catalog.series) {
    const rng = Prng.from(seed, 'comments', 'series', series.id);
    const event = catalog.events.find((e) => e.series === series);
    const count = rng.int(1, 2);
    for (let c = 0; c < count; c++) {
      out.push(thread(rng, 'Series', Number(series.id), event, [], rng.pick(wallets), series.createdAt));
    }
  }
  return out;
}
