import type { EventInfo, MarketRules, OrderBook, TokenId, TokenPrices, TradePrint } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';

/** Static description of a tracked token (from the market list). */
export interface TrackedToken {
  readonly tokenId: TokenId;
  readonly conditionId: string;
  readonly outcome: string;
  readonly outcomeIndex: 0 | 1;
  readonly complementTokenId: TokenId | undefined;
  readonly question: string;
  readonly negRiskMarketId: string | undefined;
  readonly rules: MarketRules;
  /** The event the market belongs to, when the venue (or the recording) names one. */
  readonly event?: EventInfo | undefined;
}

/** The newest state of one token. Replaced, never mutated, on every change. */
export interface TokenState {
  readonly token: TrackedToken;
  readonly rules: MarketRules;
  readonly book: OrderBook | undefined;
  /**
   * When the newest poll or message confirmed the book (epoch ms, our clock): a quiet book whose
   * hash has not changed is still fresh. Staleness is measured from here, not from `book.tsInit`.
   */
  readonly bookSeenAt: number | undefined;
  readonly prices: TokenPrices | undefined;
  /** The newest public trade print of the token. */
  readonly lastTrade: TradePrint | undefined;
}

/** Which part of a token's state an event changed; `undefined` from `apply` means nothing did. */
export type MarketChange =
  | { readonly kind: 'book'; readonly state: TokenState }
  | { readonly kind: 'prices'; readonly state: TokenState }
  | { readonly kind: 'trade'; readonly state: TokenState }
  | { readonly kind: 'tickSize'; readonly state: TokenState };

/**
 * Per-token market state. Drops a book whose `hash` equals the held one (unchanged content),
 * applies a tick-size change to the token's rules at once (from a `tickSize` event or from a
 * book whose `tick_size` differs), and never moves a book back in venue time.
 */
export class MarketCache {
  readonly #states = new Map<TokenId, TokenState>();
  /** Each event's tracked tokens, in the order tracked, and the event's newest description. */
  readonly #events = new Map<string, { event: EventInfo; tokenIds: TokenId[] }>();

  track(token: TrackedToken): void {
    if (this.#states.has(token.tokenId)) return;
    this.#states.set(token.tokenId, { token, rules: token.rules, book: undefined, bookSeenAt: undefined, prices: undefined, lastTrade: undefined });
    const event = token.event;
    if (event === undefined) return;
    const held = this.#events.get(event.id);
    if (held === undefined) this.#events.set(event.id, { event, tokenIds: [token.tokenId] });
    else {
      held.event = event;
      held.tokenIds.push(token.tokenId);
    }
  }

  /** An event some tracked token belongs to, by its id. */
  event(eventId: string): EventInfo | undefined {
    return this.#events.get(eventId)?.event;
  }

  /** The tracked tokens of an event (its markets' outcomes the run follows), in the order tracked. */
  eventTokens(eventId: string): readonly TokenId[] {
    return this.#events.get(eventId)?.tokenIds ?? [];
  }

  get(tokenId: TokenId): TokenState | undefined {
    return this.#states.get(tokenId);
  }

  tokenIds(): TokenId[] {
    return [...this.#states.keys()];
  }

  states(): IterableIterator<TokenState> {
    return this.#states.values();
  }

  get size(): number {
    return this.#states.size;
  }

  /** Applies one event; returns the changes it caused (a prices event may touch many tokens). */
  apply(event: MarketEvent): MarketChange[] {
    switch (event.type) {
      case 'book': {
        const change = this.#applyBook(event.book);
        return change ? [change] : [];
      }
      case 'prices': {
        const out: MarketChange[] = [];
        for (const prices of event.prices) {
          const state = this.#states.get(prices.tokenId);
          if (!state) continue;
          if (state.prices && state.prices.buy === prices.buy && state.prices.sell === prices.sell) continue;
          const next = tokenState(state, state.rules, state.book, state.bookSeenAt, prices, state.lastTrade);
          this.#states.set(prices.tokenId, next);
          out.push({ kind: 'prices', state: next });
        }
        return out;
      }
      case 'trade': {
        const state = this.#states.get(event.tokenId);
        if (!state) return [];
        const next = tokenState(state, state.rules, state.book, state.bookSeenAt, state.prices, { tokenId: event.tokenId, price: event.price, size: event.size, side: event.side, tsEvent: event.tsEvent, tsInit: event.tsInit });
        this.#states.set(event.tokenId, next);
        return [{ kind: 'trade', state: next }];
      }
      case 'tickSize': {
        const state = this.#states.get(event.tokenId);
        if (!state || state.rules.tickSize === event.tickSize) return [];
        // After a tick change the held book may be off the new grid: drop it until the next snapshot.
        const next = tokenState(state, { ...state.rules, tickSize: event.tickSize }, undefined, undefined, state.prices, state.lastTrade);
        this.#states.set(event.tokenId, next);
        return [{ kind: 'tickSize', state: next }];
      }
      case 'marketClosed':
      case 'marketResolved':
        // a closed market takes no orders (the marketOpen check reads this); strategies hear it
        // as a lifecycle event from the engine, not as a market change
        for (const tokenId of event.tokenIds) {
          const state = this.#states.get(tokenId);
          if (state && state.rules.acceptingOrders) {
            this.#states.set(tokenId, tokenState(state, { ...state.rules, acceptingOrders: false }, state.book, state.bookSeenAt, state.prices, state.lastTrade));
          }
        }
        return [];
      case 'feeRate': {
        // the new rates hold from now on (risk, strategies' rules); the engine tells FeeRateChanged
        const state = this.#states.get(event.tokenId);
        if (state && (state.rules.takerBaseFeeBps !== event.takerBps || state.rules.makerBaseFeeBps !== event.makerBps)) {
          this.#states.set(event.tokenId, tokenState(state, { ...state.rules, takerBaseFeeBps: event.takerBps, makerBaseFeeBps: event.makerBps }, state.book, state.bookSeenAt, state.prices, state.lastTrade));
        }
        return [];
      }
      case 'marketCleared':
        // the book's emptiness arrives as the venue's next book; the engine handles our orders
        return [];
      case 'marketAdded':
        // a recording's note that a market joined: whoever replays it tracks its tokens
        return [];
      case 'walletTrade':
        // a followed wallet's trade is no change of any book: the engine hands it to the strategies
        return [];
    }
  }

  #applyBook(book: OrderBook): MarketChange | undefined {
    const state = this.#states.get(book.tokenId);
    if (!state) return undefined;
    const held = state.book;
    if (held && held.hash === book.hash) {
      // unchanged content: nothing to tell the strategies, but the book is confirmed fresh
      if (state.bookSeenAt === undefined || book.tsInit > state.bookSeenAt) this.#states.set(book.tokenId, tokenState(state, state.rules, held, book.tsInit, state.prices, state.lastTrade));
      return undefined;
    }
    if (held && book.tsEvent < held.tsEvent) return undefined;
    let rules = state.rules;
    const tickChanged = book.tickSize !== undefined && book.tickSize !== rules.tickSize;
    if (tickChanged) rules = { ...rules, tickSize: book.tickSize };
    if (book.minOrderSize !== undefined && book.minOrderSize !== rules.minOrderSize) rules = { ...rules, minOrderSize: book.minOrderSize };
    const next = tokenState(state, rules, book, book.tsInit, state.prices, state.lastTrade);
    this.#states.set(book.tokenId, next);
    return { kind: 'book', state: next };
  }
}

/**
 * A token's next state, field by field: built once per market event, and an object spread with
 * changed keys takes V8's slow path (several µs where this takes a fraction of one).
 */
function tokenState(
  from: TokenState,
  rules: TokenState['rules'],
  book: TokenState['book'],
  bookSeenAt: TokenState['bookSeenAt'],
  prices: TokenState['prices'],
  lastTrade: TokenState['lastTrade'],
): TokenState {
  return { token: from.token, rules, book, bookSeenAt, prices, lastTrade };
}
