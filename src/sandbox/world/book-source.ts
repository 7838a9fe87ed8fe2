import type { Micros } from '../../core/fixed.ts';
import type { BookLevel, ConditionId, TokenId } from '../../core/types.ts';

/**
 * What the book routes read: one view per token with its levels in Micros, a content hash and
 * a timestamp. The seeded store (`SeededBookStore`) implements it now; the matching engine fed
 * by synthetic order flow replaces it without touching the routes.
 */
export interface BookView {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  /** Best first: bids descending, asks ascending; prices on the tick grid. */
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly negRisk: boolean;
  /** undefined when the token has not traded. */
  readonly lastTradePrice: Micros | undefined;
  /** Content hash (40 hex digits): same levels, same hash. */
  readonly hash: string;
  /** Venue time of the last change, epoch ms. */
  readonly timestampMs: number;
}

export interface BookSource {
  /** The book of a token of the world, or undefined for a token the world does not have. */
  book(tokenId: TokenId): BookView | undefined;
}
