import { interval, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketListing } from '../data/market-reselection.ts';
import type { WatchedTokens } from '../data/watched-tokens.ts';
import type { VenueClient } from '../venue/client.ts';
import { refreshSelections, type MarketsChange, type VenueMarkets } from './venue-markets.ts';

export interface MarketRefresherOptions {
  readonly venue: VenueClient;
  readonly clock: Clock;
  /** Period of the re-evaluation, ms (`data.marketRefreshMs`). */
  readonly intervalMs: number;
  /** The run's markets at start. */
  readonly markets: VenueMarkets;
  /** The market data's tokens: the refresher adds the new markets' and removes the gone ones'. */
  readonly watched: WatchedTokens;
  /**
   * Called with every refresh that changed something, before the market data streams the new
   * tokens (so the engine tracks them before their first book) and after it stopped the gone ones.
   */
  readonly onChange: (change: MarketsChange) => void;
  /** The venue's market list (default: a scan of its own; a run shares one, `sharedMarketList`). */
  readonly list?: () => Promise<MarketListing>;
  /** Every scan, with the requests it took. */
  readonly onScan?: (requests: number) => void;
  /** A scan that failed; the next period tries again. */
  readonly onError: (err: unknown) => void;
}

export interface MarketRefresher {
  /** The run's markets as of the last refresh. */
  current(): VenueMarkets;
  /** One refresh now (also what the timer runs); undefined when one is already running. */
  refresh(): Promise<MarketsChange | undefined>;
  stop(): void;
}

/**
 * Re-evaluates the run's market selections on a period (`refreshSelections`: one scan of the
 * venue's market list, ceil(markets / page size) `GET /markets` requests, paced by that route's
 * rate budget) and applies what changed: new markets' tokens are streamed, gone markets' tokens
 * no longer. Scans never overlap: a period that finds one still running is skipped.
 */
export function startMarketRefresher(options: MarketRefresherOptions): MarketRefresher {
  let current = options.markets;
  let running = false;
  let stopped = false;
  const refresh = async (): Promise<MarketsChange | undefined> => {
    if (running || stopped) return undefined;
    running = true;
    try {
      const change = await refreshSelections(options.venue, current, options.list);
      if (stopped) return undefined;
      options.onScan?.(change.requests);
      current = change.markets;
      if (change.added.length === 0 && change.removed.length === 0 && [...change.bySelection.values()].every((r) => r.added.length === 0 && r.removed.length === 0)) return change;
      const stillStreamed = new Set(change.markets.markets.flatMap((m) => m.tokens.slice(0, 2).map((t) => t.tokenId)));
      options.watched.remove(change.removed.flatMap((r) => r.market.tokens.slice(0, 2).map((t) => t.tokenId)).filter((id) => !stillStreamed.has(id)));
      options.onChange(change);
      options.watched.add(change.added.flatMap((m) => m.tokens.slice(0, 2).map((t) => t.tokenId)));
      return change;
    } catch (err) {
      if (!stopped) options.onError(err);
      return undefined;
    } finally {
      running = false;
    }
  };
  const timer: Subscription = interval(options.intervalMs, options.clock.scheduler).subscribe(() => void refresh());
  return {
    current: () => current,
    refresh,
    stop() {
      stopped = true;
      timer.unsubscribe();
    },
  };
}
