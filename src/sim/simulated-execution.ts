import { Observable, Subject, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { isValidPrice, type Micros } from '../core/fixed.ts';
import type { ConditionId, OrderType, Side, TokenId } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import type { CancelOutcome, ExecutionClient, PreparedOrder, SubmitResult, VenueFill, VenueOrderState } from '../execution/execution-client.ts';
import { notional, SIZE_LOT } from './amounts.ts';
import { Account } from './ledger.ts';
import {
  CANCEL_ALREADY_MATCHED,
  CANCEL_NOT_FOUND,
  ERR_BALANCE,
  ERR_DUPLICATED,
  ERR_FAK_NO_MATCH,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_MARKET_NOT_READY,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from './venue-messages.ts';
import type { OrderRequest } from '../core/intents.ts';
import { buyRequirement, restingBuyHold, type FeeRate, type MarketFees } from './fee-model.ts';
import type { LatencyModel } from './latency-model.ts';
import type { QueueModel } from './queue-model.ts';
import { RecordedBook } from './recorded-book.ts';

/** One token the simulated venue trades, with its rules at the start of the recording. */
export interface BacktestToken {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly fees: MarketFees;
  readonly acceptingOrders?: boolean;
}

export interface BacktestExecutionOptions {
  readonly clock: Clock;
  readonly tokens: readonly BacktestToken[];
  readonly latency: LatencyModel;
  readonly queue: QueueModel;
  /** Starting collateral of our account. */
  readonly balance: Micros;
  /** Size granularity of orders and fills; default 0.01 share. */
  readonly sizeLot?: Micros;
  /** Called at the venue for every fill of ours (before its report travels back). */
  readonly onFill?: (fill: VenueFill) => void;
}

type Status = 'LIVE' | 'MATCHED' | 'CANCELED';

interface BtOrder {
  readonly id: string;
  readonly seq: number;
  readonly request: OrderRequest;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly side: Side;
  readonly isBuy: boolean;
  readonly price: Micros;
  readonly size: Micros;
  readonly type: OrderType;
  readonly expiration: number | undefined;
  filled: Micros;
  status: Status;
  /** Displayed size in front of us at our price. */
  queueAhead: Micros;
  /** Size displayed at our price in the newest snapshot that showed it; undefined when out of view. */
  lastSeen: Micros | undefined;
  /** Collateral held for the open size (BUY). */
  hold: Micros;
}

interface TokenVenue {
  readonly token: BacktestToken;
  readonly book: RecordedBook;
  /** Our open resting orders on this token by side, in the order a taker meets them: best price first, then arrival. */
  readonly bids: BtOrder[];
  readonly asks: BtOrder[];
}

/** A queue position we cannot see yet (our price is beyond the displayed depth). */
const UNSEEN = Number.MAX_SAFE_INTEGER;

/**
 * A closed order is forgotten this long (virtual time) after it closed, so a long backtest does
 * not keep every order it ever placed; the engine's lookups of an order come well within it.
 */
export const CLOSED_ORDER_RETENTION_MS = 10 * 60_000;

export interface BacktestExecutionStats {
  orders: number;
  rejected: Record<string, number>;
  makerFills: number;
  takerFills: number;
  canceled: number;
  expired: number;
}

/**
 * The backtest's execution edge: our orders against the RECORDED books, never against other
 * simulated orders. Orders and cancels reach the venue after the latency model's entry delay
 * and are checked there with the venue's rules and error strings (tick and minimum size as the
 * recording last showed them, post-only, FOK/FAK, balance). Marketable orders take the displayed
 * depth not already used by us; resting orders wait in the queue model and fill on trade prints
 * past the queue ahead, or when the opposite side crosses their price. Every answer and fill
 * reaches the engine after the response delay. Deterministic on a simulated clock. The
 * assumptions are in docs/fill-model.md.
 */
export class BacktestExecutionClient implements ExecutionClient {
  readonly kind = 'backtest';
  readonly #opts: BacktestExecutionOptions;
  readonly #clock: Clock;
  readonly #lot: Micros;
  readonly #tokens = new Map<TokenId, TokenVenue>();
  readonly #orders = new Map<string, BtOrder>();
  readonly #account: Account;
  readonly #fills = new Subject<VenueFill>();
  readonly fills$: Observable<VenueFill> = this.#fills.asObservable();
  readonly #pending = new Set<Subscription>();
  /** Closed orders in the order they closed, with when; forgotten after CLOSED_ORDER_RETENTION_MS. */
  readonly #closedIds: { id: string; at: number }[] = [];
  #closedHead = 0;
  /** Resting GTD orders (none: expiry checks cost nothing). */
  #expiring = 0;
  readonly stats: BacktestExecutionStats = { orders: 0, rejected: {}, makerFills: 0, takerFills: 0, canceled: 0, expired: 0 };
  #seq = 0;
  #tradeSeq = 0;
  #closed = false;

  constructor(options: BacktestExecutionOptions) {
    this.#opts = options;
    this.#clock = options.clock;
    this.#lot = options.sizeLot ?? SIZE_LOT;
    this.#account = new Account('backtest', options.balance);
    for (const token of options.tokens) {
      this.#tokens.set(token.tokenId, { token, book: new RecordedBook(token.tickSize, token.minOrderSize), bids: [], asks: [] });
    }
  }

  // ---------------------------------------------------------------- market data

  /** The venue's view of the market moves: called for every replayed event before the engine sees it. */
  onMarketEvent(event: MarketEvent): void {
    if (this.#closedHead < this.#closedIds.length && this.#closedIds[this.#closedHead]!.at < event.tsInit - CLOSED_ORDER_RETENTION_MS) this.#forget(event.tsInit);
    switch (event.type) {
      case 'book': {
        const venue = this.#tokens.get(event.book.tokenId);
        if (!venue) return;
        venue.book.applySnapshot(event.book);
        if (venue.bids.length > 0 || venue.asks.length > 0) this.#onSnapshot(venue, event.tsInit);
        venue.book.clearPrinted();
        return;
      }
      case 'trade': {
        const venue = this.#tokens.get(event.tokenId);
        if (!venue) return;
        // the taker's side: a SELL hit the bids, a BUY lifted the asks
        const hitBids = event.side === 'SELL';
        const printed = venue.book.printed(hitBids);
        printed.set(event.price, (printed.get(event.price) ?? 0) + event.size);
        if ((hitBids ? venue.bids : venue.asks).length > 0) this.#onTrade(venue, hitBids, event.price, event.size, event.tsInit);
        return;
      }
      case 'tickSize': {
        this.#tokens.get(event.tokenId)?.book.setTickSize(event.tickSize);
        return;
      }
      case 'prices':
        return;
    }
  }

  /** Collateral not held by resting orders. */
  get collateral(): Micros {
    return this.#account.collateral;
  }

  /** Tokens held (free and held by resting sells). */
  position(tokenId: TokenId): Micros {
    const h = this.#account.tokens.get(tokenId);
    return h === undefined ? 0 : h.free + h.reserved;
  }

  /** The recorded book of a token as the venue holds it. */
  book(tokenId: TokenId): RecordedBook | undefined {
    return this.#tokens.get(tokenId)?.book;
  }

  // ---------------------------------------------------------------- ExecutionClient

  prepare(requests: readonly OrderRequest[]): Observable<readonly PreparedOrder[]> {
    return new Observable((subscriber) => {
      // the client order id is unique per run: it serves as the venue's id too
      subscriber.next(requests.map((request) => ({ request, orderId: request.clientOrderId, payload: undefined })));
      subscriber.complete();
    });
  }

  submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]> {
    return this.#roundTrip(() => orders.map((o) => this.#arrive(o)));
  }

  cancel(orderIds: readonly string[]): Observable<CancelOutcome> {
    return this.#roundTrip(() => {
      const canceled: string[] = [];
      const notCanceled: Record<string, string> = {};
      for (const id of orderIds) {
        const order = this.#orders.get(id);
        if (!order || order.status === 'CANCELED') notCanceled[id] = CANCEL_NOT_FOUND;
        else if (order.status === 'MATCHED') notCanceled[id] = CANCEL_ALREADY_MATCHED;
        else {
          this.#cancelOrder(order);
          canceled.push(id);
        }
      }
      return { canceled, notCanceled };
    });
  }

  cancelAll(scope?: { conditionId?: ConditionId; tokenId?: TokenId }): Observable<CancelOutcome> {
    return this.#roundTrip(() => {
      const canceled: string[] = [];
      for (const venue of this.#tokens.values()) {
        if (scope?.tokenId !== undefined && venue.token.tokenId !== scope.tokenId) continue;
        if (scope?.conditionId !== undefined && venue.token.conditionId !== scope.conditionId) continue;
        for (const order of [...venue.bids, ...venue.asks]) {
          this.#cancelOrder(order);
          canceled.push(order.id);
        }
      }
      return { canceled, notCanceled: {} };
    });
  }

  openOrders(): Observable<readonly VenueOrderState[]> {
    return this.#roundTrip(() => {
      const out: VenueOrderState[] = [];
      for (const venue of this.#tokens.values()) {
        this.#expire(venue, this.#clock.now());
        for (const order of venue.bids) out.push(venueState(order));
        for (const order of venue.asks) out.push(venueState(order));
      }
      return out;
    });
  }

  order(orderId: string): Observable<VenueOrderState | undefined> {
    return this.#roundTrip(() => {
      const order = this.#orders.get(orderId);
      if (order) {
        const venue = this.#tokens.get(order.tokenId);
        if (venue) this.#expire(venue, this.#clock.now());
      }
      return order ? venueState(order) : undefined;
    });
  }

  balance(): Observable<Micros> {
    return this.#roundTrip(() => this.#account.collateral);
  }

  close(): void {
    this.#closed = true;
    for (const s of this.#pending) s.unsubscribe();
    this.#pending.clear();
    this.#fills.complete();
  }

  #close(order: BtOrder, status: 'MATCHED' | 'CANCELED'): void {
    order.status = status;
    this.#closedIds.push({ id: order.id, at: this.#clock.now() });
  }

  #forget(now: number): void {
    const ids = this.#closedIds;
    let head = this.#closedHead;
    while (head < ids.length && ids[head]!.at < now - CLOSED_ORDER_RETENTION_MS) this.#orders.delete(ids[head++]!.id);
    if (head > 4096 && head * 2 > ids.length) {
      ids.splice(0, head);
      head = 0;
    }
    this.#closedHead = head;
  }

  // ---------------------------------------------------------------- timing

  /** Runs `atVenue` after the entry delay and emits its answer after the response delay. */
  #roundTrip<T>(atVenue: () => T): Observable<T> {
    return new Observable<T>((subscriber) => {
      const scheduler = this.#clock.scheduler;
      let answer: Subscription | undefined;
      const arrival = scheduler.schedule(() => {
        const value = atVenue();
        answer = scheduler.schedule(() => {
          subscriber.next(value);
          subscriber.complete();
        }, this.#opts.latency.responseMs(this.#clock.now()));
      }, this.#opts.latency.entryMs(this.#clock.now()));
      return () => {
        arrival.unsubscribe();
        answer?.unsubscribe();
      };
    });
  }

  /** Reports a fill to the engine after the response delay. */
  #report(fill: VenueFill): void {
    this.#opts.onFill?.(fill);
    if (this.#closed) return;
    const delay = this.#opts.latency.responseMs(this.#clock.now());
    const sub = this.#clock.scheduler.schedule(() => {
      this.#pending.delete(sub);
      this.#fills.next({ ...fill, tsInit: this.#clock.now() });
    }, delay);
    this.#pending.add(sub);
  }

  // ---------------------------------------------------------------- order arrival

  #reject(orderId: string, errorMsg: string): SubmitResult {
    this.stats.rejected[errorMsg] = (this.stats.rejected[errorMsg] ?? 0) + 1;
    return { ok: false, orderId, errorMsg };
  }

  #arrive(prepared: PreparedOrder): SubmitResult {
    const now = this.#clock.now();
    const id = prepared.orderId;
    const r = prepared.request;
    this.stats.orders++;
    if (this.#orders.has(id)) return this.#reject(id, ERR_DUPLICATED);
    const venue = this.#tokens.get(r.tokenId);
    if (!venue) return this.#reject(id, ERR_INVALID_PAYLOAD);
    if (venue.token.acceptingOrders === false) return this.#reject(id, ERR_MARKET_NOT_READY);
    const type: OrderType = r.orderType ?? 'GTC';
    const postOnly = r.postOnly === true;
    const isBuy = r.side === 'BUY';
    if ((r.side !== 'BUY' && r.side !== 'SELL') || (type !== 'GTC' && type !== 'GTD' && type !== 'FOK' && type !== 'FAK')) {
      return this.#reject(id, ERR_INVALID_PAYLOAD);
    }
    if (postOnly && (type === 'FOK' || type === 'FAK')) return this.#reject(id, ERR_INVALID_PAYLOAD);
    if (type === 'GTD' && !(typeof r.expiresAt === 'number' && r.expiresAt > now)) return this.#reject(id, ERR_INVALID_PAYLOAD);
    const book = venue.book;
    if (!Number.isSafeInteger(r.price) || !isValidPrice(r.price, book.tickSize)) return this.#reject(id, ERR_PRICE_TICK);
    if (!Number.isSafeInteger(r.size)) return this.#reject(id, ERR_INVALID_PAYLOAD);
    if (r.size <= 0 || r.size < book.minOrderSize) return this.#reject(id, ERR_SIZE_MINIMUM);
    if (r.size % this.#lot !== 0) return this.#reject(id, ERR_INVALID_PAYLOAD);

    const fees = venue.token.fees;
    const account = this.#account;
    if (isBuy) {
      const rate = type === 'FOK' || type === 'FAK' ? fees.taker : postOnly ? fees.maker : maxRate(fees);
      if (account.collateral < buyRequirement(r.price, r.size, rate)) return this.#reject(id, ERR_BALANCE);
    } else if ((account.tokens.get(r.tokenId)?.free ?? 0) < r.size) {
      return this.#reject(id, ERR_BALANCE);
    }

    // what the opposite side offers within our limit, less what we already took from it
    const opposite = book.levels(!isBuy);
    const best = opposite.find((l) => book.available(!isBuy, l) >= this.#lot);
    const crosses = best !== undefined && (isBuy ? best.price <= r.price : best.price >= r.price);
    if (postOnly && crosses) return this.#reject(id, ERR_POST_ONLY_CROSSES);
    if (type === 'FOK' && (!crosses || this.#fillable(book, isBuy, r.price) < r.size)) return this.#reject(id, ERR_FOK_UNFILLED);
    if (type === 'FAK' && !crosses) return this.#reject(id, ERR_FAK_NO_MATCH);

    const order: BtOrder = {
      id,
      seq: ++this.#seq,
      request: r,
      tokenId: r.tokenId,
      conditionId: venue.token.conditionId,
      side: r.side,
      isBuy,
      price: r.price,
      size: r.size,
      type,
      expiration: type === 'GTD' ? r.expiresAt : undefined,
      filled: 0,
      status: 'LIVE',
      queueAhead: 0,
      lastSeen: undefined,
      hold: 0,
    };
    this.#orders.set(id, order);

    let making = 0;
    let taking = 0;
    if (crosses) {
      // walk the opposite levels from the best, each at its own price, as the taker
      for (const level of opposite) {
        const remaining = order.size - order.filled;
        if (remaining <= 0) break;
        if (isBuy ? level.price > r.price : level.price < r.price) break;
        const q = this.#floorLot(Math.min(remaining, book.available(!isBuy, level)));
        if (q <= 0) continue;
        book.take(!isBuy, level.price, q);
        const value = notional(level.price, q);
        making += isBuy ? value : q;
        taking += isBuy ? q : value;
        this.#fillTaker(order, level.price, q, fees.taker, now);
      }
    }

    if (order.filled >= order.size) {
      this.#close(order, 'MATCHED');
      return { ok: true, orderId: id, status: 'MATCHED', making, taking };
    }
    if (type === 'FAK' || type === 'FOK') {
      // the unfilled rest is killed
      this.#close(order, 'CANCELED');
      return { ok: true, orderId: id, status: 'MATCHED', making, taking };
    }
    this.#rest(venue, order);
    return { ok: true, orderId: id, status: order.filled > 0 ? 'MATCHED' : 'LIVE', making, taking };
  }

  /** Size a marketable order could take within `limit` now. */
  #fillable(book: RecordedBook, isBuy: boolean, limit: Micros): Micros {
    let total = 0;
    for (const level of book.levels(!isBuy)) {
      if (isBuy ? level.price > limit : level.price < limit) break;
      total += this.#floorLot(book.available(!isBuy, level));
    }
    return total;
  }

  /** Puts the open rest of an order in the book: its queue is what the book shows at its price now. */
  #rest(venue: TokenVenue, order: BtOrder): void {
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
    const account = this.#account;
    if (order.isBuy) {
      order.hold = restingBuyHold(order.price, remaining, venue.token.fees.maker);
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

  #unrest(venue: TokenVenue, order: BtOrder): void {
    const list = order.isBuy ? venue.bids : venue.asks;
    const i = list.indexOf(order);
    if (i < 0) return;
    list.splice(i, 1);
    if (order.expiration !== undefined) this.#expiring--;
  }

  #cancelOrder(order: BtOrder): void {
    const venue = this.#tokens.get(order.tokenId)!;
    this.#release(order);
    this.#close(order, 'CANCELED');
    this.#unrest(venue, order);
    this.stats.canceled++;
  }

  /** Gives back what a resting order held for its open size. */
  #release(order: BtOrder): void {
    const account = this.#account;
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

  #expire(venue: TokenVenue, now: number): void {
    if (this.#expiring === 0) return;
    for (const list of [venue.bids, venue.asks]) {
      for (let i = list.length - 1; i >= 0; i--) {
        const order = list[i]!;
        if (order.expiration !== undefined && order.expiration <= now) {
          this.#release(order);
          this.#close(order, 'CANCELED');
          list.splice(i, 1);
          this.#expiring--;
          this.stats.expired++;
        }
      }
    }
  }

  // ---------------------------------------------------------------- fills

  #fillTaker(order: BtOrder, price: Micros, size: Micros, rate: FeeRate, now: number): void {
    const fee = rate.fee(price, size);
    const value = notional(price, size);
    const account = this.#account;
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
    this.#report(this.#fill(order, price, size, fee, 'TAKER', now));
  }

  #fillMaker(venue: TokenVenue, order: BtOrder, size: Micros, now: number): void {
    const price = order.price;
    const maker = venue.token.fees.maker;
    const fee = maker.fee(price, size);
    const value = notional(price, size);
    const account = this.#account;
    const h = account.holding(order.tokenId);
    order.filled += size;
    const remaining = order.size - order.filled;
    if (order.isBuy) {
      const hold = restingBuyHold(price, remaining, maker);
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
      this.#close(order, 'MATCHED');
      this.#unrest(venue, order);
    }
    this.#report(this.#fill(order, price, size, fee, 'MAKER', now));
  }

  #fill(order: BtOrder, price: Micros, size: Micros, fee: Micros, liquidity: 'MAKER' | 'TAKER', now: number): VenueFill {
    return {
      tradeId: `bt-trade-${++this.#tradeSeq}`,
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

  // ---------------------------------------------------------------- resting orders against new data

  /** A new snapshot: crossings fill first, then each order's queue moves with its level. */
  #onSnapshot(venue: TokenVenue, now: number): void {
    this.#expire(venue, now);
    this.#snapshotSide(venue, venue.bids, now);
    this.#snapshotSide(venue, venue.asks, now);
  }

  #snapshotSide(venue: TokenVenue, list: BtOrder[], now: number): void {
    // an order that fills up leaves the list: the next one takes its index
    for (let i = 0; i < list.length; ) {
      const order = list[i]!;
      this.#snapshotOrder(venue, order, now);
      if (list[i] === order) i++;
    }
  }

  #snapshotOrder(venue: TokenVenue, order: BtOrder, now: number): void {
    const book = venue.book;
    const isBuy = order.isBuy;
    this.#crossFill(venue, order, now);
    if (order.status !== 'LIVE') return;
    if (!book.inView(isBuy, order.price)) {
      order.lastSeen = undefined;
      return;
    }
    const shown = book.sizeAt(isBuy, order.price);
    const before = order.lastSeen;
    if (before !== undefined && shown < before) {
      const printed = book.printed(isBuy).get(order.price) ?? 0;
      const unexplained = Math.max(0, before - shown - printed);
      const moved = this.#opts.queue.onShrink(Math.min(order.queueAhead, before), before, shown, unexplained);
      order.queueAhead = moved.ahead;
      const q = this.#floorLot(Math.min(order.size - order.filled, moved.fill));
      if (q > 0) this.#fillMaker(venue, order, q, now);
    }
    // nobody in front of us can be left once the level shows less than them
    if (order.queueAhead > shown) order.queueAhead = shown;
    order.lastSeen = shown;
  }

  /**
   * The opposite side reaches our price (a seller at or below our bid, a buyer at or above our
   * ask): that size would have traded with us, at our price, after anything displayed ahead of us.
   */
  #crossFill(venue: TokenVenue, order: BtOrder, now: number): void {
    const book = venue.book;
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
    const q = this.#floorLot(Math.min(order.size - order.filled, crossing - ahead));
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
    this.#fillMaker(venue, order, q, now);
  }

  /**
   * A trade print: a taker on `hitBids` side traded `size` at `price`. At our price it eats the
   * queue ahead first; past our price (the taker went through it) it would have met us first.
   */
  #onTrade(venue: TokenVenue, hitBids: boolean, price: Micros, size: Micros, now: number): void {
    this.#expire(venue, now);
    let left = size;
    const list = hitBids ? venue.bids : venue.asks;
    for (let i = 0; i < list.length && left > 0; ) {
      const order = list[i]!;
      const through = hitBids ? order.price > price : order.price < price;
      if (!through && order.price !== price) break;
      if (!through) {
        const eaten = Math.min(order.queueAhead, left);
        order.queueAhead -= eaten;
        left -= eaten;
      }
      const q = this.#floorLot(Math.min(order.size - order.filled, left));
      if (q > 0) {
        left -= q;
        this.#fillMaker(venue, order, q, now);
      }
      if (list[i] === order) i++;
    }
  }

  #floorLot(size: Micros): Micros {
    if (size <= 0) return 0;
    return size - (size % this.#lot);
  }
}

function maxRate(fees: MarketFees): FeeRate {
  return fees.maker.bps.gt(fees.taker.bps) ? fees.maker : fees.taker;
}

function venueState(order: BtOrder): VenueOrderState {
  return {
    orderId: order.id,
    status: order.status,
    tokenId: order.tokenId,
    conditionId: order.conditionId,
    side: order.side,
    price: order.price,
    originalSize: order.size,
    sizeMatched: order.filled,
    clientOrderId: order.request.clientOrderId,
  };
}
