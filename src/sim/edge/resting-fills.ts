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
    this.#snapshotSide(token, token.bids, now);
    this.#snapshotSide(token, token.asks, now);
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

  #snapshotSide(token: TokenVenue, list: SimOrder[], now: number): void {
    // what a shrink at one price filled of our orders there (the optimistic model): gone for the
    // orders behind them at that price
    let price = -1;
    let used = 0;
    // an order that fills up leaves the list: the next one takes its index
    for (let i = 0; i < list.length; ) {
      const order = list[i]!;
      if (order.price !== price) {
        price = order.price;
        used = 0;
      }
      used += this.#snapshotOrder(token, order, used, now);
      if (list[i] === order) i++;
    }
  }

  /** Moves one order with its level; returns what a shrink filled of it. */
  #snapshotOrder(token: TokenVenue, order: SimOrder, used: Micros, now: number): Micros {
    const book = token.book;
    const isBuy = order.isBuy;
    this.#crossFill(token, order, now);
    if (order.status !== 'LIVE') return 0;
    if (!book.inView(isBuy, order.price)) {
      order.lastSeen = undefined;
      return 0;
    }
    const shown = book.sizeAt(isBuy, order.price);
    const before = order.lastSeen;
    let q = 0;
    if (before !== undefined && shown < before) {
      const printed = book.printed(isBuy).get(order.price) ?? 0;
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
   * ask): that size would have traded with us, at our price, after anything displayed ahead of us.
   * What an earlier order of ours took of it is used up (book.take), so the next one meets only
   * the rest.
   */
  #crossFill(token: TokenVenue, order: SimOrder, now: number): void {
    const book = token.book;
    const isBuy = order.isBuy;
    const opposite = book.levels(!isBuy);
    const best = opposite[0];
    if (best === undefined || (isBuy ? best.price > order.price : best.price < order.price)) return;
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
