import type { TokenId } from '../core/types.ts';
import { resolveMarkets, type MarketSelection } from '../data/market-selection.ts';
import type { VenueClient } from '../venue/client.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';

export interface VenueMarkets {
  /** Each selection's markets. */
  readonly bySelection: ReadonlyMap<MarketSelection, readonly TradingMarket[]>;
  /** Every selected market once, in the order first resolved. */
  readonly markets: readonly TradingMarket[];
}

/** Resolves each distinct selection once against the venue (live and paper runs, the recorder). */
export async function resolveSelections(venue: VenueClient, selections: readonly MarketSelection[]): Promise<VenueMarkets> {
  const bySelection = new Map<MarketSelection, TradingMarket[]>();
  for (const s of selections) if (!bySelection.has(s)) bySelection.set(s, await resolveMarkets(venue, s));
  const byCondition = new Map<string, TradingMarket>();
  for (const list of bySelection.values()) for (const m of list) if (!byCondition.has(m.conditionId)) byCondition.set(m.conditionId, m);
  return { bySelection, markets: [...byCondition.values()] };
}

/**
 * The tokens a strategy trades in its selection's markets: both outcomes of each market, except
 * that a market chosen only by an explicit token trades that token alone.
 */
export function selectionTokens(selection: MarketSelection, markets: readonly TradingMarket[]): TokenId[] {
  const explicit = new Set(selection.tokenIds);
  const out: TokenId[] = [];
  for (const m of markets) {
    for (const [i, t] of m.tokens.entries()) {
      if (i > 1) continue;
      const chosenByToken = m.tokens.some((x) => explicit.has(x.tokenId));
      if (chosenByToken && !explicit.has(t.tokenId) && !selection.conditionIds.includes(m.conditionId as `0x${string}`)) continue;
      out.push(t.tokenId);
    }
  }
  return out;
}
