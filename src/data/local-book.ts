import type { Micros } from '../core/fixed.ts';
import type { BookLevel, ConditionId, OrderBook, Side, TokenId } from '../core/types.ts';

/** A token's book kept from a snapshot and deltas: levels best first, updated by binary search. */
export class LocalBook {
  readonly bids: BookLevel[];
  readonly asks: BookLevel[];
  /** The book as last emitted (the WS source confirms it again while its connection is alive). */
  emitted: OrderBook | undefined;

  constructor(
    readonly tokenId: TokenId,
    readonly conditionId: ConditionId,
    bids: readonly BookLevel[],
    asks: readonly BookLevel[],
    public hash: string,
    public tsEvent: number,
  ) {
    // Snapshots are sorted by the decoder; zero-size levels are not levels.
    this.bids = bids.filter((l) => l.size > 0);
    this.asks = asks.filter((l) => l.size > 0);
  }

  /** A book from a snapshot (WS `book` or a REST refresh). */
  static of(book: OrderBook): LocalBook {
    return new LocalBook(book.tokenId, book.conditionId, book.bids, book.asks, book.hash, book.tsEvent);
  }

  /** Sets a level's aggregate size; 0 removes it. */
  apply(side: Side, price: Micros, size: Micros): void {
    const isBid = side === 'BUY';
    const levels = isBid ? this.bids : this.asks;
    // First index whose price is not better than `price`.
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = (levels[mid] as BookLevel).price;
      if (isBid ? p > price : p < price) lo = mid + 1;
      else hi = mid;
    }
    const found = lo < levels.length && (levels[lo] as BookLevel).price === price;
    if (size === 0) {
      if (found) levels.splice(lo, 1);
    } else if (found) {
      levels[lo] = { price, size };
    } else {
      levels.splice(lo, 0, { price, size });
    }
  }
}
