import type { Micros } from '../../core/fixed.ts';
import { type FeeRate, notional } from '../../core/money.ts';
import type { TokenId } from '../../core/types.ts';
import type { VenueFill } from '../../execution/execution-client.ts';
import { restingBuyReserve } from '../admission.ts';
import { Account } from '../ledger.ts';
import { undoFill } from '../settlement-reversal.ts';
import { RecordedBook } from './recorded-book.ts';
import { type SimOrder, type SimToken, type TokenVenue, UNSEEN } from './edge-order.ts';

/**
 * A closed order is forgotten this long (virtual time) after it closed, so a long backtest does
 * not keep every order it ever placed; the engine's lookups of an order come well within it.
 */
export const CLOSED_ORDER_RETENTION_MS = 10 * 60_000;

export interface SimulatedExecutionStats {
  orders: number;
  rejected: Record<string, number>;
  makerFills: number;
  takerFills: number;
  canceled: number;
  expired: number;
}

/**
 * The simulated venue's state of OUR side: our account, our orders by id, the resting ones on
 * each token's recorded book, and what happens to them: resting (with the hold), fills as taker
 * or maker (with fees), cancel, expiry, and forgetting closed orders after the retention time.
 * Every fill is handed to `onFill` as the venue sees it; timing is the client's.
 */
export class EdgeVenue {
  readonly tokens = new Map<TokenId, TokenVenue>();
  readonly orders = new Map<string, SimOrder>();
  readonly account: Account;
  readonly lot: Micros;
  readonly stats: SimulatedExecutionStats = { orders: 0, rejected: {}, makerFills: 0, takerFills: 0, canceled: 0, expired: 0 };
  readonly #onFill: (fill: VenueFill) => void;
  readonly #now: () => number;
  readonly #tradePrefix: string;
  /** Closed orders in the order they closed, with when; forgotten after CLOSED_ORDER_RETENTION_MS. */
  readonly #closedIds: { id: string; at: number }[] = [];
  #closedHead = 0;
  /** Resting GTD orders (none: expiry checks cost nothing). */
  #expiring = 0;
  #seq = 0;
  #tradeSeq = 0;

  constructor(options: {
    tokens: readonly SimToken[];
    balance: Micros;
    lot: Micros;
    now: () => number;
    onFill: (fill: VenueFill) => void;
    /** Prefix of our trade ids ('bt' gives bt-trade-1, bt-trade-2, ...). */
    tradePrefix: string;
    accountName: string;
  }) {
    this.account = new Account(options.accountName, options.balance);
    this.lot = options.lot;
    this.#now = options.now;
    this.#onFill = options.onFill;
    this.#tradePrefix = options.tradePrefix;
    for (const token of options.tokens) this.addToken(token);
  }

  /** A token the venue trades from now on (a market that joined a paper run); a known one is kept. */
  addToken(token: SimToken): void {
    if (this.tokens.has(token.tokenId)) return;
    this.tokens.set(token.tokenId, { token, book: new RecordedBook(token.tickSize, token.minOrderSize), bids: [], asks: [] });
  }

  nextSeq(): number {
    return ++this.#seq;
  }

  /** Forgets orders closed longer than the retention before `now` (cheap when there are none). */
  forgetBefore(now: number): void {
    const ids = this.#closedIds;
    let head = this.#closedHead;
    if (head >= ids.length || ids[head]!.at >= now - CLOSED_ORDER_RETENTION_MS) return;
    while (head < ids.length && ids[head]!.at < now - CLOSED_ORDER_RETENTION_MS) this.orders.delete(ids[head++]!.id);
    if (head > 4096 && head * 2 > ids.length) {
      ids.splice(0, head);
      head = 0;
    }
    this.#closedHead = head;
  }

  close(order: SimOrder, status: 'MATCHED' | 'CANCELED' | 'UNMATCHED'): void {
    order.status = status;
    this.#closedIds.push({ id: order.id, at: this.#now() });
  }

  /** Puts the open rest of an order in the book: its queue is what the book shows at its price now. */
  rest(venue: TokenVenue, order: SimOrder): void {
    const book = venue.book;
    const remaining = order.size - order.filled;
    if (book.inView(order.isBuy, order.price)) {
      const shown = book.sizeAt(order.isBuy, order.price);
      order.queueAhead = shown;
      order.lastSeen = shown;
    } else {
      order.queueAhead = UNSEEN;
      order.lastSeen = undefined;
    }
    const account = this.account;
    if (order.isBuy) {
      order.hold = restingBuyReserve(order.price, remaining, venue.token.fees.maker);
      account.collateral -= order.hold;
      account.collateralReserved += order.hold;
    } else {
      const h = account.holding(order.tokenId);
      h.free -= remaining;
      h.reserved += remaining;
    }
    // after every order at a better price or at the same price (those came first)
    const list = order.isBuy ? venue.bids : venue.asks;
    let at = list.length;
    while (at > 0 && (order.isBuy ? list[at - 1]!.price < order.price : list[at - 1]!.price > order.price)) at--;
    list.splice(at, 0, order);
    if (order.expiration !== undefined) this.#expiring++;
  }

  cancel(order: SimOrder): void {
    const venue = this.tokens.get(order.tokenId)!;
    this.#release(order);
    this.close(order, 'CANCELED');
    this.#unrest(venue, order);
    this.stats.canceled++;
  }

  /** Cancels the GTD orders of a token due at `now`. */
  expire(venue: TokenVenue, now: number): void {
    if (this.#expiring === 0) return;
    for (const list of [venue.bids, venue.asks]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const order = list[i]!;
        if (order.expiration !== undefined && order.expiration <= now) {
          this.#release(order);
          this.close(order, 'CANCELED');
          list.splice(i, 1);
          this.#expiring--;
          this.stats.expired++;
        }
      }
    }
  }

  /** Our order took `size` at `price` from the book. */
  fillTaker(order: SimOrder, price: Micros, size: Micros, rate: FeeRate, now: number): void {
    const fee = rate.fee(price, size);
    const value = notional(price, size);
    const account = this.account;
    const h = account.holding(order.tokenId);
    if (order.isBuy) {
      account.collateral -= value + fee;
      h.free += size;
    } else {
      h.free -= size;
      account.collateral += value - fee;
    }
    order.filled += size;
    this.stats.takerFills++;
    this.#onFill(this.#fill(order, price, size, fee, 'TAKER', now));
  }

  /** Our resting order traded `size` at its price; it leaves the book when it is full. */
  fillMaker(venue: TokenVenue, order: SimOrder, size: Micros, now: number): void {
    const price = order.price;
    const maker = venue.token.fees.maker;
    const fee = maker.fee(price, size);
    const value = notional(price, size);
    const account = this.account;
    const h = account.holding(order.tokenId);
    order.filled += size;
    const remaining = order.size - order.filled;
    if (order.isBuy) {
      const hold = restingBuyReserve(price, remaining, maker);
      const released = order.hold - hold;
      order.hold = hold;
      account.collateralReserved -= released;
      account.collateral += released - value - fee;
      h.free += size;
    } else {
      h.reserved -= size;
      account.collateral += value - fee;
    }
    this.stats.makerFills++;
    if (remaining <= 0) {
      this.close(order, 'MATCHED');
      this.#unrest(venue, order);
    }
    this.#onFill(this.#fill(order, price, size, fee, 'MAKER', now));
  }

  /**
   * Undoes one of our fills whose trade FAILED on chain (src/sim/settlement-model.ts): the
   * collateral and tokens it moved, fee included, go back. Tokens sold since may leave the
   * holding below zero: that is what the account holds once the trade is void.
   */
  reverse(fill: VenueFill): void {
    undoFill(this.account, fill.tokenId, fill.side, fill.price, fill.size, fill.fee);
  }

  #unrest(venue: TokenVenue, order: SimOrder): void {
    const list = order.isBuy ? venue.bids : venue.asks;
    const i = list.indexOf(order);
    if (i < 0) return;
    list.splice(i, 1);
    if (order.expiration !== undefined) this.#expiring--;
  }

  /** Gives back what a resting order held for its open size. */
  #release(order: SimOrder): void {
    const account = this.account;
    if (order.isBuy) {
      account.collateralReserved -= order.hold;
      account.collateral += order.hold;
      order.hold = 0;
    } else {
      const remaining = order.size - order.filled;
      const h = account.holding(order.tokenId);
      h.reserved -= remaining;
      h.free += remaining;
    }
  }

  #fill(order: SimOrder, price: Micros, size: Micros, fee: Micros, liquidity: 'MAKER' | 'TAKER', now: number): VenueFill {
    return {
      tradeId: `${this.#tradePrefix}-trade-${++this.#tradeSeq}`,
      orderId: order.id,
      tokenId: order.tokenId,
      side: order.side,
      price,
      size,
      fee,
      liquidity,
      status: 'CONFIRMED',
      tsEvent: now,
      tsInit: now,
    };
  }
}
