import { merge, Observable, Subject } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { TokenId } from '../core/types.ts';
import type { DataConfig } from '../config/run-config.ts';
import type { FeedEvent } from '../data/feed-events.ts';
import { pollFeeRates } from '../data/fee-rate-poll.ts';
import { watchGameStarts } from '../data/game-start-watch.ts';
import { pollMarketStatus, type MarketStatus, type WatchedMarket } from '../data/market-status-poll.ts';
import { listVenueMarkets, type MarketListing } from '../data/market-reselection.ts';
import type { MarketLookRequest, MarketLooks } from '../data/market-looks.ts';
import { getFeeRate } from '../venue/actions/get-fee-rate.ts';
import { pollMarkets } from '../data/poll-source.ts';
import { getTradingMarket } from '../venue/actions/get-trading-market.ts';
import { venueBookFeed } from '../data/venue-book-feed.ts';
import type { WatchedTokens } from '../data/watched-tokens.ts';
import { wsMarketSource } from '../data/ws-source.ts';
import { getOrderBooks } from '../venue/actions/get-order-books.ts';
import { venueWalletSource } from './venue-wallet-source.ts';
import type { VenueClient } from '../venue/client.ts';

/** Tokens per `POST /books` and `POST /prices` request. */
export const POLL_CHUNK_SIZE = 20;
/** Book requests in flight at once (the rate budget paces them either way). */
export const POLL_CONCURRENCY = 2;
/** The WS source confirms quiet books at most this often, ms. */
const MIN_CONFIRM_MS = 250;

export interface MarketDataOptions {
  /** The config's `data` section: transport, poll period, WS watchdog and connection size. */
  readonly data: DataConfig;
  readonly venue: VenueClient;
  /** The tokens to stream: a fixed list, or a set the run's market refresher changes. */
  readonly tokenIds: readonly TokenId[] | WatchedTokens;
  readonly clock: Clock;
  /** A failed request or connection; the source goes on. */
  readonly onError: (err: unknown) => void;
  /** What the WS source says about its connections and its watchdog. */
  readonly onFeedEvent?: (event: FeedEvent) => void;
  /**
   * The oldest a book may be (a run's `risk.staleBookMs`): the WS source confirms quiet books
   * often enough to stay under it (those a third of it old; `WsSourceOptions.confirmBooksMs`).
   * Absent (a recording): books are emitted only when they change.
   */
  readonly bookMaxAgeMs?: number;
  /** The venue's market list, shared with the run's other readers (`sharedMarketList`); default: a scan per read. */
  readonly list?: () => Promise<MarketListing>;
  /** The markets whose status (closed, resolved) is read every `data.marketStatusMs`; none: not read. */
  readonly markets?: () => readonly WatchedMarket[];
  /** Looks at one of `markets` now (its status, then its game start), asked by the engine (EngineOptions.marketLook). */
  readonly looks?: MarketLooks;
}

/**
 * The market data of a run and of a recording, built in one place so that a live or paper run
 * sees exactly the events a recorder writes (and a backtest of that recording replays):
 *
 * - `poll`: books through `POST /books` and prices through `POST /prices`, each token's chunk
 *   once per `data.pollIntervalMs` per route (`auto`: as fresh as each route's rate budget
 *   allows; the budget paces the requests, so polling never draws a 429);
 * - `ws`: the venue's market channel with its custom features (`best_bid_ask` as prices), at
 *   most `data.wsMaxAssetsPerConnection` assets per connection, with the watchdog of
 *   `data.wsSilentAfterMs` (a silent connection is resubscribed and its books fetched by REST).
 *
 * With a `WatchedTokens` set the source follows it: tokens added are streamed from then on,
 * tokens removed no longer. With `data.wallets`, the followed wallets' trades join the stream
 * (`walletTrade` events, app/venue-wallet-source.ts).
 */
export function marketDataSource(options: MarketDataOptions): Observable<MarketEvent> {
  const books$ = bookSource(options);
  const wallets = options.data.wallets;
  if (wallets === undefined) return books$;
  return merge(books$, venueWalletSource({ wallets, venue: options.venue, clock: options.clock, onError: options.onError }));
}

/** The books, prices and trade prints (and market status) of the run's tokens. */
function bookSource(options: MarketDataOptions): Observable<MarketEvent> {
  const { data, venue, tokenIds, clock, onError } = options;
  if (data.transport === 'ws') {
    return withMarketStatus(options, wsMarketSource({
      url: venue.urls.trading,
      tokenIds,
      clock,
      customFeatures: true,
      maxAssetsPerConnection: data.wsMaxAssetsPerConnection,
      silentAfterMs: data.wsSilentAfterMs,
      ...(options.bookMaxAgeMs === undefined ? {} : { confirmBooksMs: Math.max(MIN_CONFIRM_MS, Math.floor(options.bookMaxAgeMs / 3)) }),
      refreshBooks: (ids) => getOrderBooks(venue, ids),
      onError,
      onFeedEvent: options.onFeedEvent,
    }));
  }
  return withMarketStatus(options, pollMarkets({
    clock,
    feed: venueBookFeed(venue),
    tokenIds,
    chunkSize: POLL_CHUNK_SIZE,
    pollIntervalMs: data.pollIntervalMs === 'auto' ? 0 : data.pollIntervalMs,
    concurrency: POLL_CONCURRENCY,
    prices: true,
    onError,
  }));
}

/**
 * The books' events plus, when `markets` is given: each market's close and resolution
 * (`marketClosed`, `marketResolved`) from `GET /markets/{condition_id}` every `data.marketStatusMs`
 * (0: never); each token's fee rate from `GET /fee-rate` every `data.feeRateRefreshMs` (`feeRate`
 * when it changed; 0: never); and a sports market's book cleared at its game start
 * (`marketCleared`, `data.gameStartGraceMs` after the start: the listed one, or the newer one the
 * status poll read, as a game's start may move); and, asked through `looks`, one market at once.
 */
function withMarketStatus(options: MarketDataOptions, books$: Observable<MarketEvent>): Observable<MarketEvent> {
  const { data, venue, clock, onError, markets } = options;
  if (markets === undefined) return books$;
  const list = options.list ?? (() => listVenueMarkets(venue));
  // each market's game start as the status poll last read it (it may have moved since the listing)
  const starts = new Map<string, number>();
  const games = (): readonly WatchedMarket[] =>
    starts.size === 0
      ? markets()
      : markets().map((m) => {
          const at = starts.get(m.conditionId);
          return at === undefined || at === m.gameStartTime ? m : { ...m, gameStartTime: at };
        });
  // a look (options.looks) reads the market's status now (a close, a resolution, a moved start), then checks its game start
  const statusLooks = new Subject<MarketLookRequest>();
  const gameLooks = new Subject<MarketLookRequest>();
  const sources = [books$, watchGameStarts({ clock, markets: games, graceMs: data.gameStartGraceMs, looks$: gameLooks })];
  const looks = options.looks;
  if (looks !== undefined) {
    const byStatus = data.marketStatusMs > 0;
    sources.push(new Observable<never>(() => looks.serve((request) => (byStatus ? statusLooks : gameLooks).next(byStatus ? { ...request, done: () => gameLooks.next(request) } : request))));
  }
  if (data.feeRateRefreshMs > 0) {
    const fetchAll = async (): Promise<ReadonlyMap<TokenId, number>> => {
      const fees = new Map<TokenId, number>();
      for (const m of (await list()).markets) for (const t of m.tokens) fees.set(t.tokenId, m.takerBaseFeeBps);
      return fees;
    };
    sources.push(pollFeeRates({ clock, fetch: (tokenId, signal) => getFeeRate(venue, tokenId, { signal }), fetchAll, markets, intervalMs: data.feeRateRefreshMs, onError }));
  }
  if (data.marketStatusMs === 0) return merge(...sources);
  const status$ = pollMarketStatus({
    clock,
    fetch: async (conditionId, signal) => {
      const m = await getTradingMarket(venue, conditionId, { signal });
      if (m.gameStartTime !== undefined) starts.set(conditionId, m.gameStartTime);
      return { closed: m.closed, tokens: m.tokens };
    },
    // a large set reads the market list instead (page by page), game starts included
    fetchAll: async () => {
      const all = new Map<string, MarketStatus>();
      for (const m of (await list()).markets) {
        if (m.gameStartTime !== undefined) starts.set(m.conditionId, m.gameStartTime);
        all.set(m.conditionId, { closed: m.closed, tokens: m.tokens });
      }
      return all;
    },
    markets,
    intervalMs: data.marketStatusMs,
    onError,
    looks$: statusLooks,
  });
  return merge(...sources, status$);
}
