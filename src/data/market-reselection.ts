import type { VenueClient } from '../venue/client.ts';
import { getMarkets } from '../venue/actions/get-markets.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';
import { iteratePages } from '../venue/iterate-pages.ts';
import { filterMismatch, filterTags, namedBySelection, type MarketSelection } from './market-selection.ts';

/** The venue's market list as one scan read it. */
export interface MarketListing {
  /** Every listed market, in the venue's order. */
  readonly markets: readonly TradingMarket[];
  readonly byCondition: ReadonlyMap<string, TradingMarket>;
  /** `GET /markets` pages it took (one request each, against that route's rate budget). */
  readonly requests: number;
}

/** A market a selection no longer holds, and why. */
export interface RemovedMarket {
  readonly market: TradingMarket;
  readonly reason: string;
}

/** What re-evaluating one selection against a fresh listing changed. */
export interface Reselection {
  /** The selection's markets now: the kept ones in their old order, then the added ones. */
  readonly markets: readonly TradingMarket[];
  readonly added: readonly TradingMarket[];
  readonly removed: readonly RemovedMarket[];
}

/**
 * Reads the venue's whole market list, page by page (`GET /markets`, one request per page of
 * the venue's page size: 100 on the sandbox). The requests wait for the route's rate budget like
 * every other read, so a scan never draws a 429; it costs ceil(markets / page size) requests.
 */
export async function listVenueMarkets(client: VenueClient): Promise<MarketListing> {
  let requests = 0;
  const markets: TradingMarket[] = [];
  for await (const m of iteratePages((cursor) => {
    requests++;
    return getMarkets(client, cursor);
  })) {
    markets.push(m);
  }
  const byCondition = new Map<string, TradingMarket>();
  for (const m of markets) byCondition.set(m.conditionId.toLowerCase(), m);
  return { markets, byCondition, requests };
}

/**
 * One reader of the venue's market list for every part of a run that reads it (the market
 * refresher, the status and fee-rate watches of a large set): reads that overlap share one scan,
 * and a scan that ended less than `reuseMs` ago (by `now`) is handed out again. Over the whole
 * venue three scans of 10,000 markets alive at once cost about 100 MB more at their peak than one.
 */
export function sharedMarketList(client: VenueClient, now: () => number, reuseMs = 5_000): () => Promise<MarketListing> {
  let running: Promise<MarketListing> | undefined;
  let last: { listing: MarketListing; at: number } | undefined;
  return () => {
    if (running !== undefined) return running;
    if (last !== undefined && now() - last.at < reuseMs) return Promise.resolve(last.listing);
    last = undefined;
    const scan = listVenueMarkets(client).then(
      (listing) => {
        running = undefined;
        last = { listing, at: now() };
        return listing;
      },
      (err: unknown) => {
        running = undefined;
        throw err;
      },
    );
    running = scan;
    return scan;
  };
}

/**
 * Re-evaluates a selection against a fresh listing (the rule of `resolveMarkets`, applied again):
 *
 * - a held market the listing shows closed is removed, whoever chose it;
 * - a market held only through the filter is removed when it no longer matches the filter (not
 *   active, not accepting orders, order book disabled);
 * - the filter then takes listed markets that match and are not held, in the venue's order,
 *   until it holds `maxCount` markets of its own again.
 *
 * A held market missing from the listing is kept (the listing cannot tell what became of it).
 */
export function reselectMarkets(selection: MarketSelection, held: readonly TradingMarket[], listing: MarketListing): Reselection {
  const filter = selection.filter;
  const tags = filter ? filterTags(filter) : new Set<string>();
  const kept: TradingMarket[] = [];
  const removed: RemovedMarket[] = [];
  let byFilter = 0;
  for (const market of held) {
    const fresh = listing.byCondition.get(market.conditionId.toLowerCase());
    const named = namedBySelection(market, selection);
    const why = fresh === undefined ? undefined : fresh.closed ? 'closed' : !named && filter ? filterMismatch(fresh, filter, tags) : undefined;
    if (why !== undefined) {
      removed.push({ market, reason: why });
      continue;
    }
    kept.push(market);
    if (!named) byFilter++;
  }
  const added: TradingMarket[] = [];
  if (filter) {
    const heldIds = new Set(held.map((m) => m.conditionId.toLowerCase()));
    for (const market of listing.markets) {
      if (byFilter >= filter.maxCount) break;
      if (heldIds.has(market.conditionId.toLowerCase())) continue;
      if (filterMismatch(market, filter, tags) !== undefined) continue;
      added.push(market);
      byFilter++;
    }
  }
  return { markets: [...kept, ...added], added, removed };
}
