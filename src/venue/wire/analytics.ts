/** Wire types of the wallet-analytics routes (interface 2.2-2.5, 4.3). Numbers are JSON numbers. */

/** Trade fill (2.2), `GET /trades`. */
export interface WireTradeFill {
  proxyWallet: string;
  side: 'BUY' | 'SELL';
  /** `<condition_id>:<outcome_index>` in the interface; captured payloads carry a token id. */
  asset: string;
  conditionId: string;
  size: number;
  price: number;
  timestamp: number;
  usdcSize?: number;
  title: string;
  slug: string;
  eventSlug: string;
  outcome: string;
  icon: string;
  outcomeIndex: number;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  profileImageOptimized: string;
  transactionHash: string;
}

/** Closed position (2.3), `GET /closed-positions`. */
export interface WireClosedPosition {
  proxyWallet: string;
  asset: string;
  conditionId: string;
  size: number;
  avgPrice: number;
  initialValue: number;
  currentValue: number;
  cashPnl: number;
  totalBought: number;
  realizedPnl: number;
  percentPnl: number;
  percentRealizedPnl: number;
  curPrice: number;
  redeemable: boolean;
  mergeable: boolean;
  title: string;
  slug: string;
  eventSlug: string;
  outcome: string;
  oppositeOutcome: string;
  oppositeAsset: string;
  icon: string;
  outcomeIndex: number;
  timestamp: number;
  endDate: string;
}

/** Activity event (2.4), `GET /activity`. */
export interface WireActivity {
  proxyWallet: string;
  conditionId: string;
  transactionHash: string;
  asset: string;
  title: string;
  slug: string;
  eventSlug: string;
  outcome: string;
  name: string;
  pseudonym: string;
  bio: string;
  timestamp: number;
  type: string;
  size: number;
  usdcSize: number;
  price: number;
  side: 'BUY' | 'SELL' | '';
  outcomeIndex: number;
  icon: string;
  profileImage: string;
  profileImageOptimized: string;
}

export interface WireHolder {
  proxyWallet: string;
  bio: string;
  asset: string;
  pseudonym: string;
  name: string;
  amount: number;
  displayUsernamePublic: boolean;
  outcomeIndex: number;
  profileImage: string;
  profileImageOptimized: string;
}

/** Holder group (2.5), `GET /holders`. */
export interface WireHolderGroup {
  token: string;
  holders: WireHolder[];
}
