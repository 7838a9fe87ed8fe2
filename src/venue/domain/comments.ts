/** Domain types of the comment routes (2.6). Times are epoch milliseconds. */

export interface CommentPosition {
  readonly tokenId: string;
  /** Decimal string as sent (the venue's own units; not used for trading). */
  readonly positionSize: string;
}

export interface CommentProfile {
  readonly name: string | undefined;
  readonly pseudonym: string | undefined;
  readonly bio: string | undefined;
  readonly proxyWallet: string | undefined;
  readonly baseAddress: string | undefined;
  readonly profileImage: string | undefined;
  readonly displayUsernamePublic: boolean | undefined;
  readonly isMod: boolean | undefined;
  readonly isCreator: boolean | undefined;
  /** Fields not shown by the interface; kept as sent. */
  readonly profileImageOptimized: Readonly<Record<string, unknown>> | undefined;
  readonly positions: readonly CommentPosition[];
}

/** Reaction: fields not shown by the interface; the known ones typed, the object kept whole. */
export interface CommentReaction {
  readonly id: string | undefined;
  readonly reactionType: string | undefined;
  readonly userAddress: string | undefined;
  readonly createdAt: number | undefined;
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface VenueComment {
  readonly id: string;
  readonly body: string;
  readonly parentEntityType: string | undefined;
  /** Integer in the interface; kept as a string so large ids stay exact. */
  readonly parentEntityId: string | undefined;
  readonly parentCommentId: string | undefined;
  readonly userAddress: string | undefined;
  readonly replyAddress: string | undefined;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
  readonly profile: CommentProfile | undefined;
  readonly reactions: readonly CommentReaction[];
  readonly reportCount: number | undefined;
  readonly reactionCount: number | undefined;
  readonly replyCount: number | undefined;
  readonly replies: readonly VenueComment[];
}
