import type { Clock } from '../core/clock.ts';
import type { EventInfo } from '../core/types.ts';
import type { DataConfig } from '../config/run-config.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { tokensOf, type MarketSelection } from '../data/market-selection.ts';
import type { MarketListing } from '../data/market-reselection.ts';
import type { WatchedTokens } from '../data/watched-tokens.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import type { VenueClient } from '../venue/client.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';
import type { MarketDataMonitor } from './market-data-monitor.ts';
import { startMarketRefresher, type MarketRefresher } from './market-refresher.ts';
import { strategyTokenChanges, type MarketsChange, type VenueMarkets } from './venue-markets.ts';

export interface FollowMarketsOptions {
  readonly data: DataConfig;
  readonly venue: VenueClient;
  readonly clock: Clock;
  readonly markets: VenueMarkets;
  readonly watched: WatchedTokens;
  /** The run's strategies and their selections (the ones `markets` was resolved from). */
  readonly strategies: readonly { readonly id: string; readonly markets: MarketSelection }[];
  /** The engine, once built (a change before that waits for the next refresh's effects). */
  readonly engine: () => TradingEngine | undefined;
  readonly monitor: MarketDataMonitor;
  /** Markets new to the run, to note in the store (so a replay of the store knows them). */
  readonly journalMarkets?: (markets: readonly TradingMarket[]) => void;
  /** New markets' tokens, before the engine and the market data take them (paper: the simulated venue). */
  readonly onTokens?: (tokens: readonly TrackedToken[]) => void;
  /** The run's markets after every change (for parts that watch each market, like its status). */
  readonly onMarkets?: (markets: VenueMarkets) => void;
  readonly onError: (err: unknown) => void;
  /** The events known at the start: a market joining one of them (listed among its markets) belongs to it. */
  readonly events?: readonly EventInfo[];
  /** The venue's market list, shared with the run's other readers of it (`sharedMarketList`); default: its own scans. */
  readonly list?: () => Promise<MarketListing>;
}

/** True when some selection has a filter, the only kind of selection that can change. */
export function followsMarkets(data: DataConfig, markets: VenueMarkets): boolean {
  return data.marketRefreshMs > 0 && [...markets.bySelection.keys()].some((s) => s.filter !== undefined);
}

/**
 * A filter-selected run follows the venue's markets (issue 13 point 6): every
 * `data.marketRefreshMs` the selections are re-evaluated (`startMarketRefresher`); a market new
 * to a strategy's selection is tracked by the engine, added to the strategy's tokens and
 * streamed, and every strategy hears `MarketAdded`; a market that closed or left the filter is
 * no longer streamed, its strategies hear `MarketRemoved` and lose its tokens (its positions stay
 * in the portfolio). Undefined when no selection has a filter or the refresh is off.
 */
export function followMarkets(options: FollowMarketsOptions): MarketRefresher | undefined {
  if (!followsMarkets(options.data, options.markets)) return undefined;
  return startMarketRefresher({
    venue: options.venue,
    clock: options.clock,
    intervalMs: options.data.marketRefreshMs,
    markets: options.markets,
    watched: options.watched,
    ...(options.list === undefined ? {} : { list: options.list }),
    onScan: (requests) => options.monitor.scanned(requests),
    onError: options.onError,
    onChange: (change) => applyChange(options, change),
  });
}

function applyChange(options: FollowMarketsOptions, change: MarketsChange): void {
  options.monitor.marketsChanged(change.added, change.removed);
  options.onMarkets?.(change.markets);
  if (change.added.length > 0) options.journalMarkets?.(change.added);
  const engine = options.engine();
  if (engine === undefined) return;
  const now = options.clock.now();
  // strategies trading a removed market hear it while they still hold its tokens
  for (const r of change.removed) {
    engine.lifecycle({ type: 'MarketRemoved', conditionId: r.market.conditionId, tokenIds: tokenIdsOf(r.market), reason: r.reason, tsInit: now });
  }
  const added = tokensOf(change.added, undefined, options.events);
  if (added.length > 0) options.onTokens?.(added);
  engine.changeTokens(added, strategyTokenChanges(options.strategies, change));
  for (const m of change.added) engine.lifecycle({ type: 'MarketAdded', conditionId: m.conditionId, tokenIds: tokenIdsOf(m), tsInit: now });
}

function tokenIdsOf(market: TradingMarket): string[] {
  return market.tokens.slice(0, 2).map((t) => t.tokenId);
}
