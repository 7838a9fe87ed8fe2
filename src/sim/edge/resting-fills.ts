import type { Micros } from '../../core/fixed.ts';
import type { QueueModel } from './queue-model.ts';
import { floorLot, type SimOrder, type TokenVenue } from './edge-order.ts';
import type { EdgeVenue } from './edge-venue.ts';

/**
 * How our resting orders fill from the recording (docs/fill-model.md, "Resting orders and the
 * queue"): a new snapshot first fills what crosses them, then moves each one's queue with its
 * level by the queue model; a trade print at or through their price eats the displayed queue in
 * front of them and fills them with what is left of it.
 *
 * Several of our orders at one price share that level's displayed queue: what a print trades
 * there comes off the front, so it is in front of each of them; and what fills one of our orders
 * (from a print, a crossing, or a shrink the optimistic model reads as trades) is not there for
 * another (no liquidity is used twice).
 */
export class RestingFills {
  readonly #venue: EdgeVenue;
  readonly #queue: QueueModel;

  constructor(venue: EdgeVenue, queue: QueueModel) {
    this.#venue = venue;
    this.#queue = queue;
  }

  /** A new snapshot: crossings fill first, then each order's queue moves with its level. */
  onSnapshot(token: TokenVenue, now: number): void {
    this.#venue.expire(token, now);
    if (token.bids.length > 0) this.#snapshotSide(token, token.bids, true, now);
    if (token.asks.length > 0) this.#snapshotSide(token, token.asks, false, now);
  }

  /**
   * A trade print: a taker on `hitBids` side traded `size` at `price`. Past our price (the taker
   * went through it) it would have met us first. At our price it trades the displayed queue from
   * the front and our orders there in their turn: each of our orders at `price` is reached after
   * the displayed size in front of it that the print has not traded yet, and the size that fills
   * it is gone for the orders behind it. What the print traded of the displayed queue is then in
   * front of every one of our orders at `price`, reached or not: each queue shrinks by it.
   */
  onTrade(token: TokenVenue, hitBids: boolean, price: Micros, size: Micros, now: number): void {
    const venue = this.#venue;
    venue.expire(token, now);
    const lot = venue.lot;
    let left = size;
    /** Displayed size at `price` this print traded, counted from the front of the level. */
    let traded = 0;
    const list = hitBids ? token.bids : token.asks;
    for (let i = 0; i < list.length && left > 0; ) {
      const order = list[i]!;
      const through = hitBids ? order.price > price : order.price < price;
      if (!through && order.price !== price) break;
      if (!through) {
        const gap = order.queueAhead > traded ? order.queueAhead - traded : 0;
        const eaten = gap < left ? gap : left;
        traded += eaten;
        left -= eaten;
      }
      const q = floorLot(Math.min(order.size - order.filled, left), lot);
      if (q > 0) {
        left -= q;
        venue.fillMaker(token, order, q, now);
      }
      if (list[i] === order) i++;
    }
    if (traded === 0) return;
    for (const order of list) {
      if (order.price !== price) continue;
      order.queueAhead = order.queueAhead > traded ? order.queueAhead - traded : 0;
    }
  }

  /**
   * One side's orders (best first) against the new snapshot, in one pass: the side's levels are
   * in the same order, so one cursor finds the level of each order's price (instead of a scan
   * from the top per order); the opposite side's best price is read once, and an order it does
   * not reach is not looked at for a crossing (the common case: a few to a dozen orders of ours
   * on every snapshot of the token).
   */
  #snapshotSide(token: TokenVenue, list: SimOrder[], isBuy: boolean, now: number): void {
    const book = token.book;
    const levels = book.levels(isBuy);
    const nLevels = levels.length;
    const worst = nLevels > 0 ? levels[nLevels - 1]!.price : 0;
    const best = book.levels(!isBuy)[0];
    const reach = best === undefined ? -1 : best.price;
    // what a shrink at one price filled of our orders there (the optimistic model): gone for the
    // orders behind them at that price
    let price = -1;
    let used = 0;
    let j = 0; // the first level not better than the order's price
    // an order that fills up leaves the list: the next one takes its index
    for (let i = 0; i < list.length; ) {
      const order = list[i]!;
      const at = order.price;
      if (at !== price) {
        price = at;
        used = 0;
      }
      if (reach >= 0 && (isBuy ? reach <= at : reach >= at)) this.#crossFill(token, order, now);
      if (order.status === 'LIVE') {
        // a price the book does not show (beyond its depth) is not an empty level
        if (nLevels === 0 || (isBuy ? at < worst : at > worst)) order.lastSeen = undefined;
        else {
          while (j < nLevels && (isBuy ? levels[j]!.price > at : levels[j]!.price < at)) j++;
          const level = levels[j];
          used += this.#moveWithLevel(token, order, level !== undefined && level.price === at ? level.size : 0, used, now);
        }
      }
      if (list[i] === order) i++;
    }
  }

  /** Moves one live order in view with its level, which shows `shown`; returns what a shrink filled of it. */
  #moveWithLevel(token: TokenVenue, order: SimOrder, shown: Micros, used: Micros, now: number): Micros {
    const before = order.lastSeen;
    let q = 0;
    if (before !== undefined && shown < before) {
      const printed = token.book.printed(order.isBuy).get(order.price) ?? 0;
      const unexplained = Math.max(0, before - shown - printed - used);
      const moved = this.#queue.onShrink(Math.min(order.queueAhead, before), before, shown, unexplained);
      order.queueAhead = moved.ahead;
      q = floorLot(Math.min(order.size - order.filled, moved.fill), this.#venue.lot);
      if (q > 0) this.#venue.fillMaker(token, order, q, now);
    }
    // nobody in front of us can be left once the level shows less than them
    if (order.queueAhead > shown) order.queueAhead = shown;
    order.lastSeen = shown;
    return q;
  }

  /**
   * The opposite side reaches our price (a seller at or below our bid, a buyer at or above our
   * ask; the caller has seen its best level do so): that size would have traded with us, at our
   * price, after anything displayed ahead of us. What an earlier order of ours took of it is used
   * up (book.take), so the next one meets only the rest.
   */
  #crossFill(token: TokenVenue, order: SimOrder, now: number): void {
    const book = token.book;
    const isBuy = order.isBuy;
    const opposite = book.levels(!isBuy);
    let crossing = 0;
    for (const level of opposite) {
      if (isBuy ? level.price > order.price : level.price < order.price) break;
      crossing += book.available(!isBuy, level);
    }
    if (crossing <= 0) return;
    const shownAtPrice = book.sizeAt(isBuy, order.price);
    const ahead = book.sizeBetterThan(isBuy, order.price) + Math.min(order.queueAhead, shownAtPrice);
    const q = floorLot(Math.min(order.size - order.filled, crossing - ahead), this.#venue.lot);
    if (q <= 0) return;
    // the crossing size is used up from the best opposite level on
    let left = q;
    for (const level of opposite) {
      if (left <= 0) break;
      const take = Math.min(left, book.available(!isBuy, level));
      if (take <= 0) continue;
      book.take(!isBuy, level.price, take);
      left -= take;
    }
    this.#venue.fillMaker(token, order, q, now);
  }
}
