import { Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { OrderBook, TokenId, TokenPrices } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import { WatchedTokens } from './watched-tokens.ts';

/** What the poller needs from the venue edge: one request per call, paced by the rate budget. */
export interface BookFeed {
  /**
   * One `POST /books` for these tokens (waits for the route's budget before sending); `signal`
   * aborts it, its wait for the budget and its retries (the poller's teardown).
   */
  fetchBooks(tokenIds: readonly TokenId[], signal?: AbortSignal): Promise<readonly OrderBook[]>;
  /** One `POST /prices` for these tokens. */
  fetchPrices(tokenIds: readonly TokenId[], signal?: AbortSignal): Promise<readonly TokenPrices[]>;
}

export interface PollOptions {
  readonly clock: Clock;
  readonly feed: BookFeed;
  /** The tokens to poll: a fixed list, or a set that changes while the poller runs. */
  readonly tokenIds: readonly TokenId[] | WatchedTokens;
  /** Tokens per request. */
  readonly chunkSize?: number;
  /**
   * Minimum time between two polls of the same chunk; 0 = as fresh as the rate budget allows
   * (the budget paces the requests, so the poller never draws a 429).
   */
  readonly pollIntervalMs?: number;
  /** Requests in flight at once per route (hides round-trip latency while the budget paces). */
  readonly concurrency?: number;
  /** Also poll `POST /prices` (one prices request per books cycle). */
  readonly prices?: boolean;
  /** Called on a failed request; the poller goes on with the next chunk. */
  readonly onError?: (err: unknown) => void;
}

/**
 * Polls books (and prices) for a set of tokens in chunks, round-robin, and emits them as market
 * events. The chunks are remade when a watched set changes (a token added is polled at once, a
 * token removed is not polled again). Cold: polling starts on subscribe and stops on unsubscribe,
 * which aborts the requests in flight (no retry of them goes out after the poller stopped).
 */
export function pollMarkets(options: PollOptions): Observable<MarketEvent> {
  const chunkSize = Math.max(1, options.chunkSize ?? 20);
  const watched = WatchedTokens.of(options.tokenIds);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const minGapMs = options.pollIntervalMs ?? 0;
  const { clock, feed } = options;

  return new Observable<MarketEvent>((subscriber) => {
    let stopped = false;
    const abort = new AbortController();
    let chunks: TokenId[][] = [];
    let lastPolled: number[] = [];
    let builtVersion = -1;
    let next = 0;
    /** When each token was last polled (books), so remade chunks keep their pace. */
    const tokenPolledAt = new Map<TokenId, number>();
    let waiters: (() => void)[] = [];
    const wakeAll = (): void => {
      const ws = waiters;
      waiters = [];
      for (const w of ws) w();
    };
    let booksLoops = 0;
    const unlisten = watched.listen(() => {
      wakeAll();
      // more chunks than loops: start loops up to `concurrency`
      rebuild();
      startBooksLoops();
    });
    const rebuild = (): void => {
      if (builtVersion === watched.version) return;
      builtVersion = watched.version;
      const ids = watched.list();
      chunks = [];
      for (let i = 0; i < ids.length; i += chunkSize) chunks.push(ids.slice(i, i + chunkSize));
      lastPolled = chunks.map((c) => Math.min(...c.map((id) => tokenPolledAt.get(id) ?? -Infinity)));
      for (const id of [...tokenPolledAt.keys()]) if (!watched.has(id)) tokenPolledAt.delete(id);
      next = chunks.length === 0 ? 0 : next % chunks.length;
    };
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const sub = clock.scheduler.schedule(() => resolve(), ms);
        if (stopped) sub.unsubscribe();
      });
    /** Resolves once the watched set changes (or the poller stops). */
    const changed = () => new Promise<void>((resolve) => (stopped ? resolve() : waiters.push(resolve)));

    const booksLoop = async (): Promise<void> => {
      while (!stopped) {
        rebuild();
        if (chunks.length === 0) {
          await changed();
          continue;
        }
        const index = next;
        next = (next + 1) % chunks.length;
        const chunk = chunks[index]!;
        const wait = lastPolled[index]! + minGapMs - clock.now();
        if (wait > 0) await sleep(wait);
        if (stopped) return;
        const now = clock.now();
        if (chunks[index] === chunk) lastPolled[index] = now;
        for (const id of chunk) tokenPolledAt.set(id, now);
        try {
          const books = await feed.fetchBooks(chunk, abort.signal);
          if (stopped) return;
          for (const book of books) if (watched.has(book.tokenId)) subscriber.next({ type: 'book', book, tsEvent: book.tsEvent, tsInit: book.tsInit });
        } catch (err) {
          if (stopped) return;
          options.onError?.(err);
          await sleep(250);
        }
      }
    };

    const pricesLoop = async (): Promise<void> => {
      let index = 0;
      while (!stopped) {
        rebuild();
        if (chunks.length === 0) {
          await changed();
          continue;
        }
        index %= chunks.length;
        const chunk = chunks[index]!;
        index = (index + 1) % chunks.length;
        try {
          const prices = (await feed.fetchPrices(chunk, abort.signal)).filter((p) => watched.has(p.tokenId));
          if (stopped) return;
          if (prices.length > 0) {
            const tsInit = prices[0]!.tsInit;
            subscriber.next({ type: 'prices', prices, tsEvent: tsInit, tsInit });
          }
        } catch (err) {
          if (stopped) return;
          options.onError?.(err);
          await sleep(250);
        }
        if (minGapMs > 0) await sleep(minGapMs / chunks.length);
      }
    };

    /** One loop per chunk up to `concurrency` (at least one, which waits for tokens when none). */
    function startBooksLoops(): void {
      while (!stopped && booksLoops < Math.max(1, Math.min(concurrency, chunks.length))) {
        booksLoops++;
        void booksLoop();
      }
    }

    rebuild();
    startBooksLoops();
    if (options.prices) void pricesLoop();
    return () => {
      stopped = true;
      abort.abort();
      unlisten();
      wakeAll();
    };
  });
}
