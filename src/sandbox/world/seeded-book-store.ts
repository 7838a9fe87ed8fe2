import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { BookLevel, TokenId } from '../../core/types.ts';
import type { BookSource, BookView } from './book-source.ts';
import type { SandboxMarket, SandboxToken } from './model.ts';
import { Prng } from './prng.ts';

/**
 * Book state per market, built lazily from the seed on first use: one ladder in the YES frame,
 * from which both tokens' views follow (a NO bid at p is a YES ask at 1 - p), so the two books
 * always mirror each other. Active markets get 3 to 10 levels a side on the tick grid with
 * bid < ask; closed markets have empty books. `replaceLevels` swaps a ladder (tests, tools) and
 * stamps the change with the clock.
 */
export class SeededBookStore implements BookSource {
  readonly #seed: number;
  readonly #clock: Clock;
  readonly #tokens: (tokenId: TokenId) => SandboxToken | undefined;
  readonly #lastTrade: ReadonlyMap<TokenId, Micros>;
  readonly #createdAtMs: number;
  readonly #ladders = new Map<SandboxMarket, Ladder>();
  readonly #views = new Map<TokenId, BookView>();

  constructor(options: {
    seed: number;
    clock: Clock;
    token: (tokenId: TokenId) => SandboxToken | undefined;
    lastTradePrices: ReadonlyMap<TokenId, Micros>;
  }) {
    this.#seed = options.seed;
    this.#clock = options.clock;
    this.#tokens = options.token;
    this.#lastTrade = options.lastTradePrices;
    this.#createdAtMs = options.clock.now();
  }

  book(tokenId: TokenId): BookView | undefined {
    const cached = this.#views.get(tokenId);
    if (cached) return cached;
    const token = this.#tokens(tokenId);
    if (!token) return undefined;
    const view = this.#makeView(token, this.#ladder(token.market));
    this.#views.set(tokenId, view);
    return view;
  }

  /**
   * Replaces the levels of a token's book (given in that token's frame, any order). Throws a
   * RangeError for a price off the tick grid or outside [tick, 1 - tick], a size that is not
   * positive, or a crossed book.
   */
  replaceLevels(tokenId: TokenId, levels: { bids: readonly BookLevel[]; asks: readonly BookLevel[] }): BookView {
    const token = this.#tokens(tokenId);
    if (!token) throw new RangeError(`unknown token ${tokenId}`);
    const market = token.market;
    const tick = market.tickSize;
    for (const level of [...levels.bids, ...levels.asks]) {
      if (level.price % tick !== 0 || level.price < tick || level.price > MICROS_PER_UNIT - tick) {
        throw new RangeError(`price ${level.price} is off the ${tick} grid of market ${market.conditionId}`);
      }
      if (!(level.size > 0)) throw new RangeError(`size ${level.size} must be > 0`);
    }
    const bids = [...levels.bids].sort((a, b) => b.price - a.price);
    const asks = [...levels.asks].sort((a, b) => a.price - b.price);
    if (bids[0] && asks[0] && bids[0].price >= asks[0].price) throw new RangeError('crossed book: best bid >= best ask');
    const ladder: Ladder =
      token.outcomeIndex === 0
        ? { bids, asks, timestampMs: this.#clock.now() }
        : { bids: mirror(asks), asks: mirror(bids), timestampMs: this.#clock.now() };
    this.#ladders.set(market, ladder);
    for (const t of market.tokens) this.#views.delete(t.tokenId);
    return this.book(tokenId) as BookView;
  }

  #ladder(market: SandboxMarket): Ladder {
    let ladder = this.#ladders.get(market);
    if (!ladder) {
      ladder = seedLadder(this.#seed, market, this.#createdAtMs);
      this.#ladders.set(market, ladder);
    }
    return ladder;
  }

  #makeView(token: SandboxToken, ladder: Ladder): BookView {
    const market = token.market;
    const bids = token.outcomeIndex === 0 ? ladder.bids : mirror(ladder.asks);
    const asks = token.outcomeIndex === 0 ? ladder.asks : mirror(ladder.bids);
    return Object.freeze({
      tokenId: token.tokenId,
      conditionId: market.conditionId,
      bids,
      asks,
      tickSize: market.tickSize,
      minOrderSize: market.minOrderSize,
      negRisk: market.negRisk,
      lastTradePrice: this.#lastTrade.get(token.tokenId),
      hash: contentHash(market.conditionId, token.tokenId, bids, asks),
      timestampMs: ladder.timestampMs,
    });
  }
}

interface Ladder {
  /** YES frame, best first. */
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
  readonly timestampMs: number;
}

/** YES-frame levels to the other token's frame: price p becomes 1 - p, order reversed. */
function mirror(levels: readonly BookLevel[]): BookLevel[] {
  return levels.map((l) => ({ price: MICROS_PER_UNIT - l.price, size: l.size }));
}

const SIZE_STEP: Micros = 10_000; // 0.01 share

function seedLadder(seed: number, market: SandboxMarket, timestampMs: number): Ladder {
  if (market.closed || !market.enableOrderBook) return { bids: [], asks: [], timestampMs };
  const rng = Prng.from(seed, 'book', market.index);
  const tick = market.tickSize;
  const maxPrice = MICROS_PER_UNIT - tick;
  const spreadTicks = rng.int(1, 3);
  // Best prices keep three ticks of room to the edges, so each side has at least three levels.
  let bestBid = market.initialMid - Math.floor(spreadTicks / 2) * tick;
  bestBid = Math.min(Math.max(bestBid, 3 * tick), MICROS_PER_UNIT - 3 * tick - spreadTicks * tick);
  const bestAsk = bestBid + spreadTicks * tick;
  const minSteps = Math.max(1, market.minOrderSize / SIZE_STEP);
  const side = (best: Micros, direction: 1 | -1): BookLevel[] => {
    const out: BookLevel[] = [];
    const count = rng.int(4, 10);
    let price = best;
    for (let j = 0; j < count && price >= tick && price <= maxPrice; j++) {
      const depth = 1 + j * 0.5;
      out.push({ price, size: Math.round(rng.int(minSteps, 150_000) * depth) * SIZE_STEP });
      const gap = rng.int(1, 2) * tick;
      const room = direction < 0 ? price - tick : maxPrice - price;
      price += direction * (room >= 2 * gap ? gap : tick);
    }
    return out;
  };
  return { bids: side(bestBid, -1), asks: side(bestAsk, 1), timestampMs };
}

function contentHash(conditionId: string, tokenId: string, bids: readonly BookLevel[], asks: readonly BookLevel[]): string {
  let text = `${conditionId}|${tokenId}|b`;
  for (const l of bids) text += `:${l.price}@${l.size}`;
  text += '|a';
  for (const l of asks) text += `:${l.price}@${l.size}`;
  return createHash('sha1').update(text).digest('hex');
}
