import type { TokenId } from '../core/types.ts';
import { listVenueMarkets, reselectMarkets, type MarketListing, type RemovedMarket, type Reselection } from '../data/market-reselection.ts';
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

/** What a refresh of the run's selections changed. */
export interface MarketsChange {
  /** Every selection's markets after the refresh. */
  readonly markets: VenueMarkets;
  /** Markets new to the run (no selection held them before). */
  readonly added: readonly TradingMarket[];
  /** Markets that left the run (no selection holds them now), with the first reason seen. */
  readonly removed: readonly RemovedMarket[];
  /** Each selection's own change. */
  readonly bySelection: ReadonlyMap<MarketSelection, Reselection>;
  /** `GET /markets` requests the scan took. */
  readonly requests: number;
}

/** Re-evaluates every selection against one fresh scan of the venue's market list. */
export async function refreshSelections(venue: VenueClient, current: VenueMarkets, list: () => Promise<MarketListing> = () => listVenueMarkets(venue)): Promise<MarketsChange> {
  const listing = await list();
  return reselectAll(current, listing);
}

/** `refreshSelections` on a listing already read. */
export function reselectAll(current: VenueMarkets, listing: MarketListing): MarketsChange {
  const bySelection = new Map<MarketSelection, Reselection>();
  const next = new Map<MarketSelection, readonly TradingMarket[]>();
  for (const [selection, held] of current.bySelection) {
    const r = reselectMarkets(selection, held, listing);
    bySelection.set(selection, r);
    next.set(selection, r.markets);
  }
  const byCondition = new Map<string, TradingMarket>();
  for (const m of current.markets) byCondition.set(m.conditionId, m);
  const added: TradingMarket[] = [];
  for (const r of bySelection.values()) {
    for (const m of r.added) {
      if (byCondition.has(m.conditionId)) continue;
      byCondition.set(m.conditionId, m);
      added.push(m);
    }
  }
  const stillHeld = new Set<string>();
  for (const list of next.values()) for (const m of list) stillHeld.add(m.conditionId);
  const removed: RemovedMarket[] = [];
  for (const r of bySelection.values()) {
    for (const x of r.removed) {
      if (stillHeld.has(x.market.conditionId) || !byCondition.has(x.market.conditionId)) continue;
      byCondition.delete(x.market.conditionId);
      removed.push(x);
    }
  }
  return { markets: { bySelection: next, markets: [...byCondition.values()] }, added, removed, bySelection, requests: listing.requests };
}

/** The tokens one strategy gains and loses in a change of its selection. */
export interface StrategyTokensChange {
  readonly added: readonly TokenId[];
  readonly removed: readonly TokenId[];
}

/** Per strategy (id and selection), the tokens its selection's change adds and removes. */
export function strategyTokenChanges(strategies: readonly { readonly id: string; readonly markets: MarketSelection }[], change: MarketsChange): Map<string, StrategyTokensChange> {
  const out = new Map<string, StrategyTokensChange>();
  for (const s of strategies) {
    const r = change.bySelection.get(s.markets);
    if (r === undefined || (r.added.length === 0 && r.removed.length === 0)) continue;
    out.set(s.id, { added: selectionTokens(s.markets, r.added), removed: r.removed.flatMap((x) => x.market.tokens.slice(0, 2).map((t) => t.tokenId)) });
  }
  return out;
}
