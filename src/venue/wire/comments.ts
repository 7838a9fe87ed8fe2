/** Wire types of the comment routes (interface 2.6, 4.4). */

export interface WireCommentPosition {
  tokenId: string;
  positionSize: string;
}

export interface WireCommentProfile {
  name: string;
  pseudonym: string;
  bio: string;
  proxyWallet: string;
  baseAddress: string;
  profileImage: string;
  displayUsernamePublic: boolean;
  isMod: boolean;
  isCreator: boolean;
  profileImageOptimized: Record<string, unknown>;
  positions: WireCommentPosition[];
}

/** Reaction element: fields not shown by the interface; the sandbox sends these. */
export interface WireCommentReaction {
  id: string;
  commentID: number | string;
  reactionType: string;
  icon: string;
  userAddress: string;
  createdAt: string;
}

export interface WireComment {
  id: string;
  body: string;
  parentEntityType: string;
  parentEntityID: number;
  parentCommentID: string;
  userAddress: string;
  replyAddress: string;
  createdAt: string;
  updatedAt: string;
  profile: WireCommentProfile;
  reactions: WireCommentReaction[];
  reportCount: number;
  reactionCount: number;
  replyCount: number;
  replies: WireComment[];
}
