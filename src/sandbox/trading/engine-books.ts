import type { Clock } from '../../core/clock.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import type { BookSource, BookView } from '../world/book-source.ts';
import type { World } from '../world/world.ts';
import type { SandboxEngine } from './sandbox-engine.ts';

/**
 * The book routes' view of the matching engine: each token's levels as the engine holds them
 * (so `POST /books`, `GET /book`, `/price`, `/prices`, `/midpoint` show every fill and cancel),
 * the engine's content hash (the same hash its BookChanged events carry, so REST and WebSocket
 * agree; it changes exactly when the levels or the tick change), and the venue time of the
 * market's last book change. Before a token has traded in the sandbox its last trade price is
 * the world's.
 *
 * Views are cached per token and rebuilt only when the hash or the change time moves, so an
 * unchanged book costs one quote. Every read first expires the GTD orders due at the clock's now.
 */
export class EngineBookSource implements BookSource {
  readonly #world: World;
  readonly #engine: SandboxEngine;
  readonly #clock: Clock;
  readonly #startedAtMs: number;
  readonly #changedAt = new Map<ConditionId, number>();
  readonly #views = new Map<TokenId, { view: BookView; engineLastTrade: number | undefined }>();

  constructor(world: World, engine: SandboxEngine, clock: Clock) {
    this.#world = world;
    this.#engine = engine;
    this.#clock = clock;
    this.#startedAtMs = clock.now();
    engine.onEvent((event) => {
      if (event.type === 'BookChanged' || event.type === 'TickSizeChanged') {
        const previous = this.#changedAt.get(event.conditionId);
        if (previous === undefined || event.ts > previous) this.#changedAt.set(event.conditionId, event.ts);
      }
    });
  }

  book(tokenId: TokenId): BookView | undefined {
    const token = this.#world.token(tokenId);
    if (token === undefined) return undefined;
    const engine = this.#engine;
    const now = this.#clock.now();
    engine.ensureSeeded(token.market.conditionId);
    engine.expire(now);
    const quote = engine.quote(tokenId);
    const changedAt = this.#changedAt.get(token.market.conditionId) ?? this.#startedAtMs;
    const cached = this.#views.get(tokenId);
    if (cached !== undefined && cached.view.hash === quote.hash && cached.view.timestampMs === changedAt && cached.engineLastTrade === quote.lastTradePrice) {
      return cached.view;
    }
    const book = engine.book(tokenId, now);
    const view: BookView = Object.freeze({
      tokenId,
      conditionId: book.conditionId,
      bids: book.bids,
      asks: book.asks,
      tickSize: book.tickSize ?? token.market.tickSize,
      minOrderSize: book.minOrderSize ?? token.market.minOrderSize,
      negRisk: book.negRisk ?? token.market.negRisk,
      lastTradePrice: book.lastTradePrice ?? this.#world.seededBooks.book(tokenId)?.lastTradePrice,
      hash: book.hash,
      timestampMs: changedAt,
    });
    this.#views.set(tokenId, { view, engineLastTrade: book.lastTradePrice });
    return view;
  }
}
