import { Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { OrderBook, TokenId, TokenPrices } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';

/** What the poller needs from the venue edge: one request per call, paced by the rate budget. */
export interface BookFeed {
  /** One `POST /books` for these tokens (waits for the route's budget before sending). */
  fetchBooks(tokenIds: readonly TokenId[]): Promise<readonly OrderBook[]>;
  /** One `POST /prices` for these tokens. */
  fetchPrices(tokenIds: readonly TokenId[]): Promise<readonly TokenPrices[]>;
}

export interface PollOptions {
  readonly clock: Clock;
  readonly feed: BookFeed;
  readonly tokenIds: readonly TokenId[];
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
 * events. Cold: polling starts on subscribe and stops on unsubscribe.
 */
export function pollMarkets(options: PollOptions): Observable<MarketEvent> {
  const chunkSize = Math.max(1, options.chunkSize ?? 20);
  const chunks: TokenId[][] = [];
  for (let i = 0; i < options.tokenIds.length; i += chunkSize) chunks.push(options.tokenIds.slice(i, i + chunkSize));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const minGapMs = options.pollIntervalMs ?? 0;
  const { clock, feed } = options;

  return new Observable<MarketEvent>((subscriber) => {
    if (chunks.length === 0) return undefined;
    let stopped = false;
    let next = 0;
    const lastPolled = new Array<number>(chunks.length).fill(-Infinity);
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const sub = clock.scheduler.schedule(() => resolve(), ms);
        if (stopped) sub.unsubscribe();
      });

    const booksLoop = async (): Promise<void> => {
      while (!stopped) {
        const index = next;
        next = (next + 1) % chunks.length;
        const wait = lastPolled[index]! + minGapMs - clock.now();
        if (wait > 0) await sleep(wait);
        if (stopped) return;
        lastPolled[index] = clock.now();
        try {
          const books = await feed.fetchBooks(chunks[index]!);
          if (stopped) return;
          for (const book of books) subscriber.next({ type: 'book', book, tsEvent: book.tsEvent, tsInit: book.tsInit });
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
        const chunk = chunks[index]!;
        index = (index + 1) % chunks.length;
        try {
          const prices = await feed.fetchPrices(chunk);
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

    for (let i = 0; i < Math.min(concurrency, chunks.length); i++) void booksLoop();
    if (options.prices) void pricesLoop();
    return () => {
      stopped = true;
    };
  });
}
