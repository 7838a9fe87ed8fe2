import type { ConditionId, Side } from '../../core/types.ts';

/**
 * Domain types of the wallet-analytics routes (2.2-2.5). These are cached analytics served as
 * JSON numbers: sizes, prices and values stay `number` (for display and analysis; nothing here
 * is ever sent back to the venue). Times are epoch milliseconds. Fields the venue left out are
 * undefined. Decoders also read the venue's newer snake_case shape.
 */

export interface TradeFill {
  readonly proxyWallet: string;
  readonly side: Side;
  /** `<condition_id>:<outcome_index>` in the interface; captured payloads carry a token id. */
  readonly asset: string;
  readonly conditionId: ConditionId;
  readonly size: number;
  readonly price: number;
  /** Epoch ms (the venue sends unix seconds). */
  readonly tsEvent: number;
  readonly usdcSize: number | undefined;
  readonly title: string | undefined;
  readonly slug: string | undefined;
  readonly eventSlug: string | undefined;
  readonly outcome: string | undefined;
  readonly icon: string | undefined;
  readonly outcomeIndex: number | undefined;
  readonly name: string | undefined;
  readonly pseudonym: string | undefined;
  readonly bio: string | undefined;
  readonly profileImage: string | undefined;
  readonly profileImageOptimized: string | undefined;
  readonly transactionHash: string | undefined;
}

export interface ClosedPosition {
  readonly proxyWallet: string;
  readonly asset: string;
  readonly conditionId: ConditionId;
  readonly size: number | undefined;
  readonly avgPrice: number | undefined;
  readonly initialValue: number | undefined;
  readonly currentValue: number | undefined;
  readonly cashPnl: number | undefined;
  readonly totalBought: number | undefined;
  readonly realizedPnl: number | undefined;
  readonly percentPnl: number | undefined;
  readonly percentRealizedPnl: number | undefined;
  readonly curPrice: number | undefined;
  readonly redeemable: boolean | undefined;
  readonly mergeable: boolean | undefined;
  readonly title: string | undefined;
  readonly slug: string | undefined;
  readonly eventSlug: string | undefined;
  readonly outcome: string | undefined;
  readonly oppositeOutcome: string | undefined;
  readonly oppositeAsset: string | undefined;
  readonly icon: string | undefined;
  readonly outcomeIndex: number | undefined;
  /** Epoch ms (unix seconds on the wire). */
  readonly tsEvent: number | undefined;
  /** Epoch ms. */
  readonly endDate: number | undefined;
}

export interface Activity {
  readonly proxyWallet: string;
  readonly conditionId: ConditionId;
  readonly type: string;
  /** Epoch ms (unix seconds on the wire). */
  readonly tsEvent: number;
  readonly transactionHash: string | undefined;
  readonly asset: string | undefined;
  readonly title: string | undefined;
  readonly slug: string | undefined;
  readonly eventSlug: string | undefined;
  readonly outcome: string | undefined;
  readonly name: string | undefined;
  readonly pseudonym: string | undefined;
  readonly bio: string | undefined;
  readonly size: number | undefined;
  readonly usdcSize: number | undefined;
  readonly price: number | undefined;
  /** Undefined for activity that is not a trade (the venue sends an empty string). */
  readonly side: Side | undefined;
  readonly outcomeIndex: number | undefined;
  readonly icon: string | undefined;
  readonly profileImage: string | undefined;
  readonly profileImageOptimized: string | undefined;
}

export interface Holder {
  readonly proxyWallet: string;
  readonly asset: string;
  /** Outcome token balance. */
  readonly amount: number;
  readonly bio: string | undefined;
  readonly pseudonym: string | undefined;
  readonly name: string | undefined;
  readonly displayUsernamePublic: boolean | undefined;
  readonly outcomeIndex: number | undefined;
  readonly profileImage: string | undefined;
  readonly profileImageOptimized: string | undefined;
}

export interface HolderGroup {
  readonly token: string;
  readonly holders: readonly Holder[];
}
