import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { PriceLevel } from './book-side.ts';
import type { MarketBook } from './market-book.ts';
import type { BookChanged, LevelChange, SimEvent, SimEventListener } from '../types.ts';
import type { OrderRecord } from './order-record.ts';

/**
 * The matching engine's events of one call: collected while the call changes state and
 * dispatched when it ends, so a listener always sees a complete state (and may call the engine
 * again). Changed price levels are gathered and reported as one BookChanged per market.
 *
 * Nothing is collected while nobody listens: `listening` is fixed at the start of each call and
 * the engine skips building events when it is false.
 */
export class EventBatch {
  readonly #listeners: SimEventListener[] = [];
  readonly #onListenerError: (error: unknown, event: SimEvent) => void;
  #listening = false;
  #pending: SimEvent[] = [];
  /** Stamp of the current call; levels changed in it carry it (PriceLevel.touched). */
  #stamp = 0;
  #touchedLevels: PriceLevel<OrderRecord>[] = [];
  #touchedBooks: MarketBook<OrderRecord>[] = [];

  constructor(onListenerError: (error: unknown, event: SimEvent) => void) {
    this.#onListenerError = onListenerError;
  }

  /** True when the current call has listeners to build events for. */
  get listening(): boolean {
    return this.#listening;
  }

  /** Listens to every event; returns the unsubscribe function. */
  listen(listener: SimEventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  /** Starts a call: a new stamp, and whether its events are wanted. */
  begin(): void {
    this.#stamp++;
    this.#listening = this.#listeners.length > 0;
  }

  /** Queues an event of the current call (only when listening). */
  push(event: SimEvent): void {
    this.#pending.push(event);
  }

  /** A level changed in this call: reported once, in the call's BookChanged. */
  touch(book: MarketBook<OrderRecord>, level: PriceLevel<OrderRecord>): void {
    if (!this.#listening || level.touched === this.#stamp) return;
    level.touched = this.#stamp;
    this.#touchedLevels.push(level);
    this.#touchedBooks.push(book);
  }

  /** Ends a call: one BookChanged per market whose levels changed, then dispatch. */
  end(now: number): void {
    if (this.#touchedLevels.length > 0) {
      const levels = this.#touchedLevels;
      const books = this.#touchedBooks;
      this.#touchedLevels = [];
      this.#touchedBooks = [];
      for (const event of bookChanges(levels, books, this.#stamp, now)) this.#pending.push(event);
    }
    if (this.#pending.length === 0) return;
    const events = this.#pending;
    this.#pending = [];
    const listeners = this.#listeners.slice();
    for (const event of events) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          this.#onListenerError(error, event);
        }
      }
    }
  }
}

function bookChanges(levels: PriceLevel<OrderRecord>[], books: MarketBook<OrderRecord>[], stamp: number, now: number): BookChanged[] {
  const distinct: MarketBook<OrderRecord>[] = [];
  for (const b of books) if (!distinct.includes(b)) distinct.push(b);
  const out: BookChanged[] = [];
  for (const book of distinct) {
    const [yes, no] = book.tokenIds;
    const changes: LevelChange[] = [];
    for (let i = 0; i < levels.length; i++) {
      if (books[i] !== book) continue;
      const level = levels[i] as PriceLevel<OrderRecord>;
      // A level emptied and recreated in one call is two objects at one price: report only the
      // one on the book now.
      const current = book.side(level.isBid).get(level.price);
      if (current !== undefined && current !== level && current.touched === stamp) continue;
      changes.push(Object.freeze({ tokenId: yes, side: level.isBid ? 'BUY' : 'SELL', price: level.price, size: level.total }));
      changes.push(
        Object.freeze({ tokenId: no, side: level.isBid ? 'SELL' : 'BUY', price: MICROS_PER_UNIT - level.price, size: level.total }),
      );
    }
    out.push({
      type: 'BookChanged',
      ts: now,
      conditionId: book.conditionId,
      changes: Object.freeze(changes),
      tops: [book.top(0), book.top(1)],
      lastTradePrices: [book.lastTradePrice(0), book.lastTradePrice(1)],
    });
  }
  return out;
}
