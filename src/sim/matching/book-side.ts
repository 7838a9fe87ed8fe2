import type { Micros } from '../../core/fixed.ts';

/**
 * What a level's FIFO needs of a resting order: the links of an intrusive doubly linked list
 * (so a cancel is O(1)) and the level it is in. The matching engine's OrderRecord is one.
 */
export interface LevelEntry<E extends LevelEntry<E>> {
  prev: E | null;
  next: E | null;
  level: PriceLevel<E> | null;
}

/** One price of one side of a market book (YES terms): a FIFO of resting orders. */
export class PriceLevel<E extends LevelEntry<E>> {
  /** Σ open size of the orders here. */
  total: Micros = 0;
  count = 0;
  head: E | null = null;
  tail: E | null = null;
  /** Stamp of the last engine call that changed this level (to report each change once). */
  touched = 0;

  constructor(readonly price: Micros, readonly isBid: boolean) {}

  append(o: E): void {
    o.level = this;
    o.prev = this.tail;
    o.next = null;
    if (this.tail === null) this.head = o;
    else this.tail.next = o;
    this.tail = o;
    this.count++;
  }

  unlink(o: E): void {
    if (o.prev === null) this.head = o.next;
    else o.prev.next = o.next;
    if (o.next === null) this.tail = o.prev;
    else o.next.prev = o.prev;
    o.prev = null;
    o.next = null;
    o.level = null;
    this.count--;
  }
}

/**
 * One side of a market book in YES terms. Levels are kept in an array sorted from worst to best,
 * so the best level is the last element: matching and most quoting happen at the end of the
 * array (push, pop), and a new level is placed by binary search. A Map finds a level by price.
 */
export class BookSide<E extends LevelEntry<E>> {
  /** Worst first, best last: bids by ascending price, asks by descending price. */
  readonly levels: PriceLevel<E>[] = [];
  readonly #byPrice = new Map<Micros, PriceLevel<E>>();

  constructor(readonly isBid: boolean) {}

  best(): PriceLevel<E> | undefined {
    return this.levels[this.levels.length - 1];
  }

  get(price: Micros): PriceLevel<E> | undefined {
    return this.#byPrice.get(price);
  }

  /** The level at `price`, created in its sorted place when missing. */
  levelAt(price: Micros): PriceLevel<E> {
    const found = this.#byPrice.get(price);
    if (found !== undefined) return found;
    const level = new PriceLevel<E>(price, this.isBid);
    this.#byPrice.set(price, level);
    const levels = this.levels;
    const n = levels.length;
    // Fast path: a new best level.
    if (n === 0 || this.#better(price, (levels[n - 1] as PriceLevel<E>).price)) {
      levels.push(level);
      return level;
    }
    levels.splice(this.#insertionIndex(price), 0, level);
    return level;
  }

  /** Removes an empty level. */
  drop(level: PriceLevel<E>): void {
    this.#byPrice.delete(level.price);
    const levels = this.levels;
    const last = levels.length - 1;
    if (levels[last] === level) {
      levels.pop();
      return;
    }
    const i = this.#insertionIndex(level.price) - 1;
    if (levels[i] === level) levels.splice(i, 1);
  }

  #better(a: Micros, b: Micros): boolean {
    return this.isBid ? a > b : a < b;
  }

  /** Index of the first level better than `price`. */
  #insertionIndex(price: Micros): number {
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#better((levels[mid] as PriceLevel<E>).price, price)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
