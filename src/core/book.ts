import type { Micros } from './fixed.ts';
import type { BookLevel } from './types.ts';

/**
 * The price rules of one order book, in one place: the best bid and ask, the mid and the mark.
 * Every room reads a book's prices through these (the engine's risk view and strategy snapshot,
 * the backtest's marks, the status views, the sandbox's routes), so they cannot drift apart.
 */

/** What these rules read of a book: its levels best first (bids descending, asks ascending). */
export interface BookSides {
  readonly bids: readonly BookLevel[];
  readonly asks: readonly BookLevel[];
}

/** The best (highest) bid, or undefined for an empty bid side or no book. */
export function bestBid(book: BookSides | undefined): Micros | undefined {
  return book?.bids[0]?.price;
}

/** The best (lowest) ask, or undefined for an empty ask side or no book. */
export function bestAsk(book: BookSides | undefined): Micros | undefined {
  return book?.asks[0]?.price;
}

/**
 * The mid of a best bid and ask, rounded to the micro (half up), or undefined unless both sides
 * are there. Prices on the venue's tick grid (0.0001 or coarser) give an exact mid.
 */
export function midPrice(bid: Micros | undefined, ask: Micros | undefined): Micros | undefined {
  return bid !== undefined && ask !== undefined ? Math.round((bid + ask) / 2) : undefined;
}

/** The mid of a book (see `midPrice`). */
export function bookMid(book: BookSides | undefined): Micros | undefined {
  return midPrice(bestBid(book), bestAsk(book));
}

/**
 * The mark of a token, what a position is valued at: the mid, else the one side shown, else the
 * last trade, else undefined (nothing to value it by).
 */
export function markPrice(bid: Micros | undefined, ask: Micros | undefined, lastTrade: Micros | undefined): Micros | undefined {
  return midPrice(bid, ask) ?? bid ?? ask ?? lastTrade;
}

/** The mark of a book and its last trade (see `markPrice`). */
export function bookMark(book: (BookSides & { readonly lastTradePrice: Micros | undefined }) | undefined): Micros | undefined {
  return markPrice(bestBid(book), bestAsk(book), book?.lastTradePrice);
}
