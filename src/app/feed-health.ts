import type { MarketEvent } from '../core/events.ts';
import type { TokenId } from '../core/types.ts';
import type { FeedEvent } from '../data/feed-events.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';

/**
 * Turns the market-data watchdog's findings into the run's health (engine/health.ts): a connection
 * found silent (`FeedSilent`) is a `feedSilent` reason until a market event for one of its tokens
 * arrives again (its REST books or its stream). A market event costs one size check while no
 * connection is silent.
 */
export class FeedHealth {
  readonly #engine: () => TradingEngine | undefined;
  /** Silent connections and their tokens. */
  readonly #silent = new Map<number, ReadonlySet<TokenId>>();

  constructor(engine: () => TradingEngine | undefined) {
    this.#engine = engine;
  }

  readonly feed = (event: FeedEvent): void => {
    if (event.type !== 'FeedSilent') return;
    this.#silent.set(event.connection, new Set(event.tokenIds));
    this.#engine()?.healthReason({ kind: 'feedSilent', connection: event.connection, silentMs: event.silentMs, tokens: event.tokenIds.length });
  };

  readonly market = (event: MarketEvent): void => {
    if (this.#silent.size === 0) return;
    for (const [connection, tokens] of this.#silent) {
      if (!names(event, tokens)) continue;
      this.#silent.delete(connection);
      this.#engine()?.clearHealthReason('feedSilent', connection);
    }
  };
}

/** Whether the event is about one of `tokens`. */
function names(event: MarketEvent, tokens: ReadonlySet<TokenId>): boolean {
  switch (event.type) {
    case 'book':
      return tokens.has(event.book.tokenId);
    case 'trade':
    case 'tickSize':
      return tokens.has(event.tokenId);
    case 'prices':
      return event.prices.some((p) => tokens.has(p.tokenId));
    default:
      return false;
  }
}
