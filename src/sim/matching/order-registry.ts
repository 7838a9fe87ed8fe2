import { ParameterError } from '../../core/errors.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import type { MarketBook } from './market-book.ts';
import type { OrderRecord } from './order-record.ts';
import type { Trade } from '../types.ts';

/** Filter of `openOrders` / `trades`; every given field must match. */
export interface OrderQuery {
  readonly owner?: string;
  readonly conditionId?: ConditionId;
  readonly tokenId?: TokenId;
}

export interface OrderRegistryOptions {
  /** Keep closed orders queryable by id (else only their ids, for duplicate detection). */
  readonly keepClosedOrders: boolean;
  /** Owners whose closed orders and trades are not kept. */
  readonly transientOwner: ((owner: string) => boolean) | undefined;
  /** Trades kept when no owner is asked for: at least this many of the newest. */
  readonly tradeHistory: number;
}

/**
 * The matching engine's memory of orders and trades: every order by id (closed ones as the
 * options say), the open orders of each owner, and the trades, in full per owner and bounded
 * overall. Answers the engine's order and trade queries.
 */
export class OrderRegistry {
  readonly #orders = new Map<string, OrderRecord>();
  readonly #closedIds: Set<string> | undefined;
  readonly #liveByOwner = new Map<string, Set<OrderRecord>>();
  readonly #trades: Trade[] = [];
  readonly #tradesByOwner = new Map<string, Trade[]>();
  readonly #transient: ((owner: string) => boolean) | undefined;
  readonly #tradeHistory: number;

  constructor(options: OrderRegistryOptions) {
    const history = options.tradeHistory;
    if (!(history === Infinity || (Number.isSafeInteger(history) && history > 0))) {
      throw new ParameterError('MatchingEngine', 'tradeHistory', `must be a positive integer, was ${history}`);
    }
    this.#tradeHistory = history;
    this.#closedIds = options.keepClosedOrders ? undefined : new Set<string>();
    this.#transient = options.transientOwner;
  }

  /** True when an order with this id was ever accepted (open, or closed and remembered). */
  known(id: string): boolean {
    return this.#orders.has(id) || this.#closedIds?.has(id) === true;
  }

  get(id: string): OrderRecord | undefined {
    return this.#orders.get(id);
  }

  add(rec: OrderRecord): void {
    this.#orders.set(rec.id, rec);
  }

  /** A new order rests on the book. */
  addLive(rec: OrderRecord): void {
    let live = this.#liveByOwner.get(rec.owner);
    if (live === undefined) {
      live = new Set();
      this.#liveByOwner.set(rec.owner, live);
    }
    live.add(rec);
  }

  /** The open orders of an owner (a copy: the caller may close them while walking). */
  liveOf(owner: string): OrderRecord[] {
    const live = this.#liveByOwner.get(owner);
    return live === undefined ? [] : [...live];
  }

  /** A resting order left the book (filled, canceled, expired). */
  dropLive(rec: OrderRecord): void {
    const live = this.#liveByOwner.get(rec.owner);
    if (live !== undefined) {
      live.delete(rec);
      if (live.size === 0) this.#liveByOwner.delete(rec.owner);
    }
    this.closed(rec);
  }

  /** An order closed: forgotten now when its owner is transient or closed orders are not kept. */
  closed(rec: OrderRecord): void {
    if (this.#transient?.(rec.owner) === true) {
      this.#orders.delete(rec.id);
      return;
    }
    if (this.#closedIds !== undefined) {
      this.#orders.delete(rec.id);
      this.#closedIds.add(rec.id);
    }
  }

  recordTrade(trade: Trade): void {
    this.#trades.push(trade);
    if (this.#trades.length >= 2 * this.#tradeHistory) this.#trades.splice(0, this.#trades.length - this.#tradeHistory);
    this.#addOwnerTrade(trade.owner, trade);
    for (const m of trade.makerOrders) this.#addOwnerTrade(m.owner, trade);
  }

  /** Open orders matching the query, oldest first; `books` are the markets to look through. */
  openOrders(query: OrderQuery, books: () => Iterable<MarketBook<OrderRecord>>): OrderRecord[] {
    const found: OrderRecord[] = [];
    const { owner, conditionId, tokenId } = query;
    const keep = (r: OrderRecord): boolean =>
      (owner === undefined || r.owner === owner) &&
      (conditionId === undefined || r.book.conditionId === conditionId) &&
      (tokenId === undefined || r.tokenId === tokenId);
    if (owner !== undefined) {
      for (const r of this.#liveByOwner.get(owner) ?? []) if (keep(r)) found.push(r);
    } else {
      for (const book of books()) collect(book, keep, found);
    }
    found.sort((a, b) => a.seq - b.seq);
    return found;
  }

  /** Trades the query's owner took part in (as taker or maker), oldest first. */
  trades(query: OrderQuery): Trade[] {
    const { owner, conditionId, tokenId } = query;
    const source = owner === undefined ? this.#trades : (this.#tradesByOwner.get(owner) ?? []);
    return source.filter(
      (t) =>
        (conditionId === undefined || t.conditionId === conditionId) &&
        (tokenId === undefined || t.tokenId === tokenId || t.makerOrders.some((m) => m.tokenId === tokenId)),
    );
  }

  #addOwnerTrade(owner: string, trade: Trade): void {
    if (this.#transient?.(owner) === true) return;
    let list = this.#tradesByOwner.get(owner);
    if (list === undefined) {
      list = [];
      this.#tradesByOwner.set(owner, list);
    }
    if (list[list.length - 1] !== trade) list.push(trade);
  }
}

function collect(book: MarketBook<OrderRecord>, keep: (r: OrderRecord) => boolean, out: OrderRecord[]): void {
  for (const side of [book.bids, book.asks]) {
    for (const level of side.levels) {
      for (let o = level.head; o !== null; o = o.next) if (keep(o)) out.push(o);
    }
  }
}
