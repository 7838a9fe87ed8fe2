import type { Micros } from '../../core/fixed.ts';
import type { BookLevel, OrderBook } from '../../core/types.ts';

const NO_LEVELS: readonly BookLevel[] = Object.freeze([]);

/**
 * One token's recorded book as the simulated venue sees it, plus what our own orders have taken
 * out of it. The recording never shows our trades (we were not in the market it was recorded
 * from), so liquidity we took is remembered per price as `used` and subtracted from what the
 * later snapshots display: nothing is used twice. A level keeps its `used` while it shows at
 * least that much; when it shows less, the rest of what we took is taken to be what left, and
 * when it is gone the memory is dropped.
 */
export class RecordedBook {
  bids: readonly BookLevel[] = NO_LEVELS;
  asks: readonly BookLevel[] = NO_LEVELS;
  /** False until the first snapshot. */
  hasBook = false;
  tickSize: Micros;
  minOrderSize: Micros;
  /** Virtual time of the newest snapshot. */
  tsInit = 0;
  readonly #usedBids = new Map<Micros, Micros>();
  readonly #usedAsks = new Map<Micros, Micros>();
  /** Size printed by trades at each price since the last snapshot, per side of the book hit. */
  readonly printedBids = new Map<Micros, Micros>();
  readonly printedAsks = new Map<Micros, Micros>();

  constructor(tickSize: Micros, minOrderSize: Micros) {
    this.tickSize = tickSize;
    this.minOrderSize = minOrderSize;
  }

  applySnapshot(book: OrderBook): void {
    this.bids = book.bids;
    this.asks = book.asks;
    this.hasBook = true;
    this.tsInit = book.tsInit;
    if (book.tickSize !== undefined) this.tickSize = book.tickSize;
    if (book.minOrderSize !== undefined) this.minOrderSize = book.minOrderSize;
    if (this.#usedBids.size > 0) settleUsed(this.#usedBids, this.bids);
    if (this.#usedAsks.size > 0) settleUsed(this.#usedAsks, this.asks);
  }

  /** Forgets the trade prints once the snapshot that follows them has been compared. */
  clearPrinted(): void {
    if (this.printedBids.size > 0) this.printedBids.clear();
    if (this.printedAsks.size > 0) this.printedAsks.clear();
  }

  /** A tick change: resting orders stay, new orders use the new tick. */
  setTickSize(tickSize: Micros): void {
    this.tickSize = tickSize;
  }

  levels(bidSide: boolean): readonly BookLevel[] {
    return bidSide ? this.bids : this.asks;
  }

  /** Displayed size at `price` on a side (0 when no level there). */
  sizeAt(bidSide: boolean, price: Micros): Micros {
    const levels = bidSide ? this.bids : this.asks;
    for (let i = 0; i < levels.length; i++) {
      const l = levels[i]!;
      if (l.price === price) return l.size;
      if (bidSide ? l.price < price : l.price > price) return 0;
    }
    return 0;
  }

  /**
   * Whether the book shows what rests at `price` on a side: the side is not empty and `price`
   * is no worse than its worst displayed level. Beyond that a recording cut at some depth shows
   * nothing, which must not be read as an empty level.
   */
  inView(bidSide: boolean, price: Micros): boolean {
    const levels = bidSide ? this.bids : this.asks;
    const worst = levels[levels.length - 1];
    if (worst === undefined) return false;
    return bidSide ? price >= worst.price : price <= worst.price;
  }

  /** Displayed size at a level not yet taken by our orders. */
  available(bidSide: boolean, level: BookLevel): Micros {
    const taken = bidSide ? this.#usedBids : this.#usedAsks;
    // nothing taken at any price: the common case, no lookup
    if (taken.size === 0) return level.size;
    const used = taken.get(level.price);
    return used === undefined ? level.size : level.size > used ? level.size - used : 0;
  }

  /** Records that our orders took `size` at `price` on a side. */
  take(bidSide: boolean, price: Micros, size: Micros): void {
    const used = bidSide ? this.#usedBids : this.#usedAsks;
    used.set(price, (used.get(price) ?? 0) + size);
  }

  /** Size displayed at strictly better prices than `price` on a side. */
  sizeBetterThan(bidSide: boolean, price: Micros): Micros {
    const levels = bidSide ? this.bids : this.asks;
    let total = 0;
    for (let i = 0; i < levels.length; i++) {
      const l = levels[i]!;
      if (bidSide ? l.price <= price : l.price >= price) break;
      total += l.size;
    }
    return total;
  }

  printed(bidSide: boolean): Map<Micros, Micros> {
    return bidSide ? this.printedBids : this.printedAsks;
  }
}

function settleUsed(used: Map<Micros, Micros>, levels: readonly BookLevel[]): void {
  for (const [price, amount] of used) {
    let shown = 0;
    for (const l of levels) {
      if (l.price === price) {
        shown = l.size;
        break;
      }
    }
    if (shown === 0) used.delete(price);
    else if (shown < amount) used.set(price, shown);
  }
}
