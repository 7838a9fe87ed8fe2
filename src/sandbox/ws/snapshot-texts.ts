import { formatMicros, type Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderBook, TokenId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SimEvent } from '../../sim/types.ts';
import type { WireWsBook } from '../../venue/wire/ws-market.ts';
import { bookMessage } from './market-messages.ts';

const ARRAY_OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const ARRAY_CLOSE = Buffer.from(']');

/**
 * The market channel's snapshots (`[book,book,...]`), made from texts shared by every
 * connection: each token's `book` message is made once per change of its book (UTF-8 bytes, kept
 * until an event makes it stale), and a snapshot message is those texts copied together. The last
 * message is kept with the assets it holds: a connect burst of clients asking for the same assets
 * (a bot fleet, every asset of the venue) shares one message, not a copy of hundreds of KB each,
 * which the garbage collector then held the event loop to free.
 */
export class SnapshotTexts {
  readonly #engine: MatchingEngine;
  readonly #lastTradeFallback: ((tokenId: TokenId) => Micros | undefined) | undefined;
  readonly #texts = new Map<TokenId, Buffer>();
  /** Counts the changes that made a text stale; the last message is reused only within one count. */
  #epoch = 0;
  #last: { readonly ids: readonly TokenId[]; readonly epoch: number; readonly message: Buffer } | undefined;

  constructor(engine: MatchingEngine, lastTradeFallback?: (tokenId: TokenId) => Micros | undefined) {
    this.#engine = engine;
    this.#lastTradeFallback = lastTradeFallback;
  }

  /** Drops the texts an event makes stale (levels, hash, last trade, tick); `pair`: a market's two tokens. */
  forget(event: SimEvent, pair: (conditionId: ConditionId) => readonly [TokenId, TokenId] | undefined): void {
    if (this.#texts.size === 0) return;
    switch (event.type) {
      case 'BookChanged':
        this.#epoch++;
        for (const top of event.tops) this.#texts.delete(top.tokenId);
        return;
      case 'TradeExecuted':
        this.#epoch++;
        for (const id of pair(event.trade.conditionId) ?? []) this.#texts.delete(id);
        return;
      case 'TickSizeChanged':
        this.#epoch++;
        for (const id of event.tokenIds) this.#texts.delete(id);
        return;
      default:
        return;
    }
  }

  /** True when the last message holds exactly `ids`, in their order, and no book changed since. */
  reusable(ids: ReadonlySet<TokenId>): boolean {
    const last = this.#last;
    return last !== undefined && last.epoch === this.#epoch && sameOrder(ids, last.ids);
  }

  /** Makes up to `limit` of the texts `ids` lack; true when it made that many (more may be lacking). */
  makeLacking(ids: Iterable<TokenId>, now: number, limit: number): boolean {
    let made = 0;
    for (const id of ids) {
      if (this.#texts.has(id)) continue;
      if (made === limit) return true;
      this.#text(id, now);
      made++;
    }
    return false;
  }

  /** The snapshot message of `ids`, in their order: the last one when it is reusable, else one made of the shared texts (then kept). */
  message(ids: ReadonlySet<TokenId>, now: number): Buffer {
    if (this.reusable(ids)) return (this.#last as { message: Buffer }).message;
    const epoch = this.#epoch;
    const parts: Buffer[] = [];
    for (const id of ids) parts.push(parts.length === 0 ? ARRAY_OPEN : COMMA, this.#text(id, now));
    parts.push(ARRAY_CLOSE);
    const message = Buffer.concat(parts);
    // kept only when no book changed while it was made (a book call may expire orders)
    if (epoch === this.#epoch) this.#last = { ids: [...ids], epoch, message };
    return message;
  }

  /** A snapshot message of `ids` made from fresh reads of their books (a custom-feature subscriber's); `onBook` sees each book read. */
  freshMessage(ids: ReadonlySet<TokenId>, now: number, onBook: (book: OrderBook) => void): Buffer {
    const parts: Buffer[] = [];
    for (const id of ids) {
      const book = this.#engine.book(id, now);
      const text = Buffer.from(this.bookText(book));
      this.#texts.set(id, text);
      onBook(book);
      parts.push(parts.length === 0 ? ARRAY_OPEN : COMMA, text);
    }
    parts.push(ARRAY_CLOSE);
    return Buffer.concat(parts);
  }

  /** The `book` message of a book, as JSON text (the world's last trade price when the book has none yet). */
  bookText(book: OrderBook): string {
    const message: WireWsBook = bookMessage(book);
    if (message.last_trade_price === undefined && this.#lastTradeFallback !== undefined) {
      const last = this.#lastTradeFallback(book.tokenId);
      if (last !== undefined) message.last_trade_price = formatMicros(last);
    }
    return JSON.stringify(message);
  }

  /** A token's text, made from the engine on the first ask after a change. */
  #text(id: TokenId, now: number): Buffer {
    let text = this.#texts.get(id);
    if (text === undefined) {
      // The book call may expire orders and dispatch their events (which clear this cache); the text is made after.
      text = Buffer.from(this.bookText(this.#engine.book(id, now)));
      this.#texts.set(id, text);
    }
    return text;
  }
}

/** True when `ids` holds exactly `order`, in the same order (no key string is built per connection). */
function sameOrder(ids: ReadonlySet<TokenId>, order: readonly TokenId[]): boolean {
  if (ids.size !== order.length) return false;
  let i = 0;
  for (const id of ids) if (id !== order[i++]) return false;
  return true;
}
