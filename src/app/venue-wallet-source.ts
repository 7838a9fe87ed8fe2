import type { Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { ConditionId, Side } from '../core/types.ts';
import type { WalletsConfig } from '../config/run-config.ts';
import { walletActivitySource, type WalletFeedRow, type WalletRowToken } from '../data/wallet-activity-source.ts';
import { getActivity } from '../venue/actions/get-activity.ts';
import { getTrades } from '../venue/actions/get-trades.ts';
import { getTradingMarket } from '../venue/actions/get-trading-market.ts';
import type { VenueClient } from '../venue/client.ts';

/** Further pages one round may read for one wallet (10 pages of 100: a busy wallet between two rounds). */
export const WALLET_MAX_PAGES = 10;

export interface VenueWalletSourceOptions {
  readonly wallets: WalletsConfig;
  readonly venue: VenueClient;
  readonly clock: Clock;
  readonly onError: (err: unknown) => void;
}

/**
 * `data.wallets` over the venue client: each followed wallet's fills from `GET /activity?user=`
 * (its trades; other activity types are left out) or `GET /trades?user=&takerOnly=false`, paced
 * by the analytics routes' rate budget like every request of the client. A row's `asset` is a
 * token id (the real venue) or `<condition_id>:<outcome_index>` (the interface): the latter is
 * resolved once per market through `GET /markets/{condition_id}`.
 */
export function venueWalletSource(options: VenueWalletSourceOptions): Observable<MarketEvent> {
  const { wallets, venue } = options;
  const fetchPage = async (wallet: string, limit: number, offset: number): Promise<{ rows: WalletFeedRow[]; full: boolean }> => {
    if (wallets.route === 'trades') {
      const fills = await getTrades(venue, { user: wallet, limit, offset, takerOnly: false });
      return { rows: fills.map((f) => row(wallet, f.conditionId, f.asset, f.side, f.price, f.size, f.tsEvent, f.transactionHash, f.outcomeIndex)), full: fills.length >= limit };
    }
    const activity = await getActivity(venue, { user: wallet, limit, offset });
    const out: WalletFeedRow[] = [];
    for (const a of activity) {
      // a split, merge or redeem is not a trade (the page's length still tells whether it was full)
      if (a.type !== 'TRADE' || a.side === undefined || a.price === undefined || a.size === undefined || a.asset === undefined) continue;
      out.push(row(wallet, a.conditionId, a.asset, a.side, a.price, a.size, a.tsEvent, a.transactionHash, a.outcomeIndex));
    }
    return { rows: out, full: activity.length >= limit };
  };
  const markets = new Map<ConditionId, Promise<readonly { readonly tokenId: string }[]>>();
  const tokenOf = async (r: WalletFeedRow): Promise<WalletRowToken | undefined> => {
    const colon = r.asset.indexOf(':');
    if (colon < 0) return { tokenId: r.asset, conditionId: r.conditionId };
    const conditionId = r.asset.slice(0, colon);
    const index = Number(r.asset.slice(colon + 1));
    let tokens = markets.get(conditionId);
    if (tokens === undefined) {
      tokens = getTradingMarket(venue, conditionId).then((m) => m.tokens);
      markets.set(conditionId, tokens);
      // a failed lookup is tried again at the next fill
      tokens.catch(() => markets.delete(conditionId));
    }
    const token = Number.isInteger(index) ? (await tokens)[index] : undefined;
    return token === undefined ? undefined : { tokenId: token.tokenId, conditionId };
  };
  return walletActivitySource({
    clock: options.clock,
    wallets: wallets.addresses,
    pollMs: wallets.pollMs,
    pageSize: wallets.pageSize,
    maxPages: WALLET_MAX_PAGES,
    fetchPage,
    tokenOf,
    backfill: wallets.backfill,
    onError: options.onError,
  });
}

function row(wallet: string, conditionId: string, asset: string, side: Side, price: number, size: number, ts: number, txHash: string | undefined, outcomeIndex: number | undefined): WalletFeedRow {
  return { wallet, conditionId, asset, side, price, size, ts, txHash: txHash ?? '', outcomeIndex };
}
