import type { Micros } from '../core/fixed.ts';
import { quoteInYesTerms, type RewardQuote } from '../core/rewards.ts';
import type { BookLevel, TokenId } from '../core/types.ts';

/**
 * Level composition: which orders a price level is made of, inferred from the book's levels
 * alone (L3 from L2). The venue shows a level's total size, not its orders, so each change of a
 * level's size is read as an order event (docs/rewards.md "The model"):
 *
 * - a level first seen, or held by a book of unknown history (the first snapshot): ONE order of
 *   its size, until later changes refine it;
 * - a size increase by d: a new order of size d at the back of the level's queue;
 * - a decrease by d at the price of a trade print heard since the token's previous book: fills,
 *   consumed from the front (time priority);
 * - any other decrease by d: a cancel, the order of exactly size d if the level holds one (the
 *   newest such), else d taken from the back;
 * - a level gone from the book: its orders gone.
 *
 * Each level's orders always sum to its displayed size. Memory is bounded: a level keeps at most
 * `MAX_ORDERS_PER_LEVEL` orders (past that its two oldest merge into one), and only the tokens fed.
 * The queues are arrays mutated in place; a book that changes no level allocates nothing.
 */

/** Orders kept per level; past this the two oldest merge (a level of 64 separate orders is rare). */
export const MAX_ORDERS_PER_LEVEL = 64;

interface Level {
  /** Order sizes, oldest first. */
  readonly orders: Micros[];
  /** The orders' sum: the level's displayed size. */
  total: Micros;
  /** The feed's generation that last saw the level; an older one is gone from the book. */
  seen: number;
}

interface TokenLevels {
  readonly bids: Map<Micros, Level>;
  readonly asks: Map<Micros, Level>;
  /** Prices traded since this token's previous book (decreases there are fills). */
  readonly traded: Set<Micros>;
  generation: number;
  /** The previous book's sides: a book at the same prices is read level against level, with no lookup of unchanged levels. */
  prevBids: readonly BookLevel[];
  prevAsks: readonly BookLevel[];
}

/** The book's two sides as the tracker reads them (the shape of `OrderBook`). */
export interface LevelsBook {
  readonly tokenId: TokenId;
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

const NONE: readonly Micros[] = [];
const NO_LEVELS: readonly BookLevel[] = [];

export class LevelComposition {
  readonly #tokens = new Map<TokenId, TokenLevels>();

  /** A new book of the token (a snapshot, or the held book with deltas applied): each level's change read as order events. */
  onBook(book: LevelsBook): void {
    let t = this.#tokens.get(book.tokenId);
    if (t === undefined) {
      t = { bids: new Map(), asks: new Map(), traded: new Set(), generation: 0, prevBids: NO_LEVELS, prevAsks: NO_LEVELS };
      this.#tokens.set(book.tokenId, t);
    }
    const gen = ++t.generation;
    applySide(t.bids, t.prevBids, book.bids, t.traded, gen);
    applySide(t.asks, t.prevAsks, book.asks, t.traded, gen);
    t.prevBids = book.bids;
    t.prevAsks = book.asks;
    t.traded.clear();
  }

  /** A public trade print of the token at `price`: the next decrease there is a fill. */
  onTrade(tokenId: TokenId, price: Micros): void {
    this.#tokens.get(tokenId)?.traded.add(price);
  }

  /** The token is no longer followed (closed, unsubscribed): its levels are dropped. */
  forget(tokenId: TokenId): void {
    this.#tokens.delete(tokenId);
  }

  /** The inferred orders (sizes, oldest first) of a level; empty when the level is not held. */
  orders(tokenId: TokenId, side: 'BUY' | 'SELL', price: Micros): readonly Micros[] {
    const t = this.#tokens.get(tokenId);
    if (t === undefined) return NONE;
    return (side === 'BUY' ? t.bids : t.asks).get(price)?.orders ?? NONE;
  }

  /** Whether the token has been fed a book. */
  has(tokenId: TokenId): boolean {
    return this.#tokens.has(tokenId);
  }
}

function applySide(held: Map<Micros, Level>, prev: readonly BookLevel[], levels: readonly BookLevel[], traded: ReadonlySet<Micros>, gen: number): void {
  if (samePrices(prev, levels)) {
    // the common update: the same levels, a few sizes changed; only those are looked up
    for (let k = 0; k < levels.length; k++) {
      const l = levels[k]!;
      if (l !== prev[k] && l.size !== prev[k]!.size) changeLevel(held, l, traded, gen);
    }
    return;
  }
  for (const l of levels) changeLevel(held, l, traded, gen);
  for (const [price, level] of held) if (level.seen !== gen) held.delete(price);
}

function samePrices(prev: readonly BookLevel[], levels: readonly BookLevel[]): boolean {
  if (prev.length !== levels.length || prev.length === 0) return false;
  for (let k = 0; k < levels.length; k++) if (levels[k]!.price !== prev[k]!.price) return false;
  return true;
}

/** One level of a new book against the held one: its change of size read as an order event. */
function changeLevel(held: Map<Micros, Level>, l: BookLevel, traded: ReadonlySet<Micros>, gen: number): void {
  if (!(l.size > 0)) return;
  const level = held.get(l.price);
  if (level === undefined) {
    held.set(l.price, { orders: [l.size], total: l.size, seen: gen });
    return;
  }
  level.seen = gen;
  const total = level.total;
  if (l.size > total) addOrder(level.orders, l.size - total);
  else if (l.size < total) {
    if (traded.has(l.price)) takeFromFront(level.orders, total - l.size);
    else cancel(level.orders, total - l.size);
  }
  level.total = l.size;
}

function addOrder(orders: Micros[], size: Micros): void {
  orders.push(size);
  if (orders.length > MAX_ORDERS_PER_LEVEL) {
    orders[1] = orders[0]! + orders[1]!;
    orders.shift();
  }
}

/** Fills: `size` consumed from the oldest order on. */
function takeFromFront(orders: Micros[], size: Micros): void {
  let left = size;
  while (left > 0 && orders.length > 0) {
    const o = orders[0]!;
    if (o > left) {
      orders[0] = o - left;
      return;
    }
    left -= o;
    orders.shift();
  }
}

/** A cancel of `size`: the newest order of exactly that size, else `size` taken from the newest orders back. */
function cancel(orders: Micros[], size: Micros): void {
  const at = orders.lastIndexOf(size);
  if (at >= 0) {
    orders.splice(at, 1);
    return;
  }
  let left = size;
  while (left > 0 && orders.length > 0) {
    const i = orders.length - 1;
    const o = orders[i]!;
    if (o > left) {
      orders[i] = o - left;
      return;
    }
    left -= o;
    orders.pop();
  }
}

/**
 * The inferred orders of every level of `book` (the token's latest book, fed to `composition`)
 * as the reward model's quotes in YES terms (`outcomeIndex` 1: a NO order flipped). A level the
 * tracker does not hold counts as one order. Undefined when the token was never fed.
 */
export function inferredQuotes(composition: LevelComposition, book: LevelsBook, outcomeIndex: 0 | 1): RewardQuote[] | undefined {
  if (!composition.has(book.tokenId)) return undefined;
  const out: RewardQuote[] = [];
  const side = (levels: readonly BookLevel[], s: 'BUY' | 'SELL'): void => {
    for (const l of levels) {
      const orders = composition.orders(book.tokenId, s, l.price);
      if (orders.length === 0) out.push(quoteInYesTerms(outcomeIndex, s, l.price, l.size));
      else for (const size of orders) out.push(quoteInYesTerms(outcomeIndex, s, l.price, size));
    }
  };
  side(book.bids, 'BUY');
  side(book.asks, 'SELL');
  return out;
}
