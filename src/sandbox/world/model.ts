import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, Side, TokenId } from '../../core/types.ts';

/**
 * The sandbox world in domain form: what the routes serialise into the wire shapes. Times are
 * epoch milliseconds; prices and sizes are Micros. Objects are built once and not mutated by the
 * read routes.
 */

export interface SandboxTag {
  readonly id: string;
  readonly label: string;
  readonly slug: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface SandboxSeries {
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly seriesType: string;
  readonly recurrence: string;
  readonly image: string;
  readonly icon: string;
  readonly active: boolean;
  readonly closed: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface SandboxCreator {
  readonly id: string;
  readonly creatorName: string;
  readonly creatorHandle: string;
  readonly creatorUrl: string;
  readonly creatorImage: string;
  /** Wallet the creator signs with; the `creator` query of 4.5/4.9 accepts it. */
  readonly address: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type Topic = 'politics' | 'sports' | 'crypto' | 'culture' | 'weather' | 'tech';

export interface SandboxEvent {
  readonly index: number;
  readonly id: string;
  readonly ticker: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly resolutionSource: string;
  readonly image: string;
  readonly icon: string;
  readonly topic: Topic;
  readonly startDate: number;
  readonly creationDate: number;
  readonly endDate: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  /** Multi-outcome event: its markets share `negRiskMarketId`. */
  readonly negRisk: boolean;
  /** `0x` + 64 hex for neg-risk events, else empty. */
  readonly negRiskMarketId: string;
  /**
   * A neg-risk event with an implicit "Other" outcome that is not listed (the venue's
   * `negRiskAugmented`): its listed outcomes' YES prices need not add up to 1, so their asks
   * summing below 1 is no arbitrage. Always false for a binary event.
   */
  readonly negRiskAugmented: boolean;
  readonly tags: readonly SandboxTag[];
  readonly series: SandboxSeries | undefined;
  readonly creator: SandboxCreator;
  /** Filled in right after the markets are built. */
  readonly markets: SandboxMarket[];
}

export interface SandboxToken {
  readonly tokenId: TokenId;
  readonly outcome: string;
  readonly outcomeIndex: 0 | 1;
  readonly market: SandboxMarket;
  /** The other outcome's token (YES <-> NO): its book is the mirror of this one. */
  readonly complement: () => SandboxToken;
}

export interface SandboxRewards {
  readonly dailyRate: number;
  readonly minSize: number;
  /** Cents, as the venue states it. */
  readonly maxSpread: number;
}

export interface SandboxMarket {
  readonly index: number;
  /** Numeric market id, as a decimal string. */
  readonly id: string;
  readonly numericId: number;
  readonly conditionId: ConditionId;
  readonly questionId: string;
  readonly slug: string;
  readonly question: string;
  readonly description: string;
  readonly resolutionSource: string;
  readonly image: string;
  readonly icon: string;
  readonly event: SandboxEvent;
  readonly tokens: readonly [SandboxToken, SandboxToken];
  readonly outcomes: readonly [string, string];
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  /** Basis points. */
  readonly makerBaseFee: number;
  readonly takerBaseFee: number;
  readonly negRisk: boolean;
  readonly negRiskMarketId: string;
  readonly negRiskRequestId: string;
  readonly secondsDelay: number;
  /**
   * A sports market's game start, epoch ms (`game_start_time`): the venue clears its book then
   * (world/game-starts.ts). Absent: not a game, or none scheduled.
   */
  readonly gameStartTime?: number;
  readonly startDate: number;
  readonly endDate: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly active: boolean;
  readonly closed: boolean;
  readonly archived: boolean;
  readonly acceptingOrders: boolean;
  readonly enableOrderBook: boolean;
  /** Outcome index that won, for resolved (closed) markets. */
  readonly winnerIndex: 0 | 1 | undefined;
  readonly rewards: SandboxRewards | undefined;
  /** The YES token's mid when the world was made (on the tick grid). */
  readonly initialMid: Micros;
}

export interface SandboxWallet {
  readonly index: number;
  /** Checksummed proxy wallet address. */
  readonly address: string;
  /** Checksummed EOA behind the proxy (comment profiles' `baseAddress`). */
  readonly baseAddress: string;
  readonly name: string;
  readonly pseudonym: string;
  readonly bio: string;
  readonly profileImage: string;
  readonly displayUsernamePublic: boolean;
  readonly isMod: boolean;
}

/** One fill of one wallet (wallet analytics, 2.2 / 2.4). */
export interface SandboxFill {
  readonly wallet: SandboxWallet;
  readonly token: SandboxToken;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  /** Epoch ms. */
  readonly timestamp: number;
  readonly taker: boolean;
  readonly transactionHash: string;
}

/** A position that went back to zero (sold out or resolved), 2.3. */
export interface SandboxClosedPosition {
  readonly wallet: SandboxWallet;
  readonly token: SandboxToken;
  /** Shares bought over the position's life. */
  readonly totalBought: Micros;
  readonly avgPrice: Micros;
  /** USDC micros. */
  readonly realizedPnl: Micros;
  /** Price used for the close: the resolution (0 or 1) or the last sell. */
  readonly curPrice: Micros;
  readonly redeemable: boolean;
  readonly timestamp: number;
}

/** An open holding: wallet x token with a positive balance. */
export interface SandboxHolding {
  readonly wallet: SandboxWallet;
  readonly token: SandboxToken;
  readonly size: Micros;
  readonly avgPrice: Micros;
}

export type CommentParentType = 'Event' | 'Series' | 'market';

export interface SandboxReaction {
  readonly id: string;
  readonly reactionType: string;
  readonly wallet: SandboxWallet;
  readonly createdAt: number;
}

export interface SandboxComment {
  readonly id: string;
  readonly body: string;
  readonly parentEntityType: CommentParentType;
  readonly parentEntityID: number;
  /** Empty for a top-level comment. */
  readonly parentCommentID: string;
  readonly wallet: SandboxWallet;
  /** Address replied to; empty for a top-level comment. */
  readonly replyAddress: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly reactions: readonly SandboxReaction[];
  readonly reportCount: number;
  readonly replies: SandboxComment[];
  /** Event the comment belongs to (directly, through its market, or through its series' first event). */
  readonly event: SandboxEvent | undefined;
  /** Tokens of the parent entity, for the profile's `positions`. */
  readonly parentTokens: readonly SandboxToken[];
}
