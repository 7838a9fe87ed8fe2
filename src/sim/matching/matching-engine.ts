import { ParameterError } from '../../core/errors.ts';
import { FeeRate } from '../../core/money.ts';
import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderBook, TokenId } from '../../core/types.ts';
import { checkCrossing, checkFunds, checkTerms, disposition, restingBuyReserve, SIZE_LOT, submitStatus } from '../admission.ts';
import type { BookSide, PriceLevel } from './book-side.ts';
import { ExpiryQueue } from './expiry-queue.ts';
import { Ledger } from '../ledger.ts';
import { EventBatch } from './event-batch.ts';
import { MarketRegistry } from './market-registry.ts';
import { OrderRegistry, type OrderQuery } from './order-registry.ts';
import { TakerMatch } from './taker-match.ts';
import { OrderRecord } from './order-record.ts';
import { DelayedOrders, heldOrderState } from './delayed-orders.ts';
import { reverseTrade } from '../settlement-reversal.ts';
import { SettlementSchedule } from '../settlement-schedule.ts';
import type { SettlementKnobs } from '../settlement-model.ts';
import type { TradeStatus } from '../../venue/domain/statuses.ts';
import type {
  CancelReason,
  CancelResult,
  OrderState,
  OutcomeIndex,
  SimEvent,
  SimEventListener,
  SimMarketConfig,
  SimOrderRequest,
  SubmitResult,
  TokenQuote,
  Trade,
} from '../types.ts';
import { CANCEL_ALREADY_MATCHED, CANCEL_NOT_FOUND, ERR_DUPLICATED, ERR_INVALID_PAYLOAD, ERR_MARKET_NOT_READY } from '../venue-messages.ts';

export type { OrderQuery } from './order-registry.ts';

export interface MatchingEngineOptions {
  /** Collateral of an account opened on first use (micros). Default 10,000 units. */
  readonly startingCollateral?: Micros;
  /** Order sizes must be multiples of this (micros). Default 0.01 share; see admission.ts. */
  readonly sizeLot?: Micros;
  /** Trade id from a 1-based sequence number. Default: a uuid-shaped id carrying the number. */
  readonly tradeId?: (seq: number) => string;
  /**
   * Keep closed (matched, canceled, expired) orders queryable by id. Default true. When false
   * only their ids are kept (duplicate detection) and `order(id)` forgets them.
   */
  readonly keepClosedOrders?: boolean;
  /**
   * Owners whose history is not kept (the sandbox's synthetic flow agents): their orders are
   * forgotten as soon as they close and their trades are not listed by owner. Default: none.
   */
  readonly transientOwner?: (owner: string) => boolean;
  /**
   * Trades `trades()` keeps when no owner is asked for: at least this many of the newest (at most
   * twice as many). Trades listed by owner are kept in full. Default: all.
   */
  readonly tradeHistory?: number;
  /**
   * Called when an event listener throws. Events are dispatched after the engine's state is
   * complete, so a throwing listener never corrupts it; by default the error is rethrown from a
   * microtask so it surfaces without taking the engine call's result away.
   */
  readonly onListenerError?: (error: unknown, event: SimEvent) => void;
  /**
   * On-chain settlement of trades (src/sim/settlement-model.ts): the knobs (read at each trade,
   * so they can change while the engine runs), the seed of the draws, and which trades to follow
   * (default: every trade with a party that is not a transient owner). Without it trades stay
   * MATCHED, as before settlement was modelled.
   */
  readonly settlement?: { readonly knobs: () => SettlementKnobs; readonly seed: number };
  /**
   * The matching delay of a market, ms (its `seconds_delay` / `taker_order_delay_ms`): a
   * marketable order that is not post-only is held this long before it meets the book
   * (delayed-orders.ts). Default: no delay anywhere.
   */
  readonly matchingDelayMs?: (conditionId: ConditionId) => number;
}

/**
 * Price-time-priority matching engine of a binary prediction-market venue, with balances.
 *
 * Synchronous, no I/O, no clock: every call that can change state takes `now` (epoch ms), and
 * first expires GTD orders due at `now`. One book per market in YES terms (market-book.ts); the
 * fill price is the resting order's price; a taker walks levels best first and each level's FIFO.
 *
 * Its parts, each in src/sim/matching/: the listed markets (market-registry.ts), the orders
 * and trades it remembers (order-registry.ts), the matching loop (taker-match.ts) and each
 * call's events (event-batch.ts). Order admission is the venue's rules of src/sim/admission.ts,
 * shared with the paper/backtest edge.
 *
 * Model choices (also in src/sim/README.md):
 * - Self-trade is allowed: an order may fill against a resting order of the same owner, with
 *   fees, like any other; keeping a strategy from crossing itself is the risk layer's job.
 * - Fees: rate × min(p, 1 - p) × size in collateral, rounded down, paid by the taker at the
 *   taker rate and by the maker at the maker rate (nothing when the rate is 0). A buyer pays its
 *   fee on top of the notional; a seller's fee comes out of its proceeds.
 * - A BUY is accepted only if free collateral covers notional at its limit plus the largest fee
 *   it could pay; a SELL only if free tokens cover its size (no shorting: buy the complement).
 *   Resting orders reserve exactly what their open size needs; cancel and expiry release it.
 * - A tick size change keeps resting orders where they are; new orders use the new grid.
 */
export class MatchingEngine {
  readonly ledger: Ledger;
  readonly sizeLot: Micros;
  readonly #markets: MarketRegistry;
  readonly #registry: OrderRegistry;
  readonly #events: EventBatch;
  readonly #matcher: TakerMatch;
  readonly #expiry = new ExpiryQueue();
  readonly #delayed: DelayedOrders;
  readonly #delayOf: ((conditionId: ConditionId) => number) | undefined;
  readonly #settlement: SettlementSchedule<Trade> | undefined;
  readonly #transient: ((owner: string) => boolean) | undefined;
  #orderSeq = 0;

  constructor(options: MatchingEngineOptions = {}) {
    this.ledger = new Ledger(options.startingCollateral);
    const lot = options.sizeLot ?? SIZE_LOT;
    if (!Number.isSafeInteger(lot) || lot <= 0) {
      throw new ParameterError('MatchingEngine', 'sizeLot', `must be a positive integer of micros, was ${lot}`);
    }
    this.sizeLot = lot;
    this.#markets = new MarketRegistry(lot);
    this.#registry = new OrderRegistry({
      keepClosedOrders: options.keepClosedOrders ?? true,
      transientOwner: options.transientOwner,
      tradeHistory: options.tradeHistory ?? Infinity,
    });
    this.#events = new EventBatch(options.onListenerError ?? rethrowLater);
    this.#matcher = new TakerMatch(this.ledger, this.#registry, this.#events, options.tradeId ?? defaultTradeId);
    this.#transient = options.transientOwner;
    this.#delayed = new DelayedOrders(options.transientOwner);
    this.#delayOf = options.matchingDelayMs;
    this.#settlement = options.settlement === undefined ? undefined : new SettlementSchedule<Trade>(options.settlement.knobs, options.settlement.seed);
  }

  // ---------------------------------------------------------------- markets

  addMarket(config: SimMarketConfig): void {
    this.#markets.add(config);
  }

  market(conditionId: ConditionId): SimMarketConfig | undefined {
    return this.#markets.config(conditionId);
  }

  markets(): SimMarketConfig[] {
    return [...this.#markets.conditionIds()].map((c) => this.#markets.config(c) as SimMarketConfig);
  }

  /** The market and outcome index of a token, or undefined. */
  tokenInfo(tokenId: TokenId): { conditionId: ConditionId; outcomeIndex: OutcomeIndex } | undefined {
    const ref = this.#markets.token(tokenId);
    return ref === undefined ? undefined : { conditionId: ref.book.conditionId, outcomeIndex: ref.index };
  }

  /**
   * Changes a market's tick. Resting orders stay where they are (off the new grid if it is
   * coarser); new orders are checked against the new tick. The book hashes change.
   */
  setTickSize(conditionId: ConditionId, tickSize: Micros, now: number): void {
    const book = this.#markets.book('MatchingEngine.setTickSize', conditionId);
    this.#markets.checkTick('MatchingEngine.setTickSize', tickSize);
    const old = book.tickSize;
    if (old === tickSize) return;
    this.#begin(now);
    try {
      book.tickSize = tickSize;
      if (this.#events.listening) {
        this.#events.push({
          type: 'TickSizeChanged',
          ts: now,
          conditionId,
          tokenIds: book.tokenIds,
          oldTickSize: old,
          newTickSize: tickSize,
          tops: [book.top(0), book.top(1)],
        });
      }
    } finally {
      this.#events.end(now);
    }
  }

  /** Closing a market to new orders keeps its resting orders (cancels still work). */
  /**
   * Changes a market's taker fee rate (its base fee, what `GET /fee-rate` serves), basis points:
   * taker fills from now on pay it. The maker rate stays: resting buys hold collateral for it.
   */
  setTakerFee(conditionId: ConditionId, takerBps: number): void {
    const where = 'MatchingEngine.setTakerFee';
    const book = this.#markets.book(where, conditionId);
    if (!Number.isSafeInteger(takerBps) || takerBps < 0 || takerBps > 10_000) throw new ParameterError(where, 'takerBps', `must be a whole number of basis points in 0..10000, was ${takerBps}`);
    book.takerFeeBps = takerBps;
    book.fees = { maker: book.fees.maker, taker: FeeRate.of(takerBps) };
  }

  setAcceptingOrders(conditionId: ConditionId, accepting: boolean): void {
    this.#markets.book('MatchingEngine.setAcceptingOrders', conditionId).acceptingOrders = accepting;
  }

  /** Gives `address` `amount` of both tokens of a market for `amount` collateral. */
  split(address: string, conditionId: ConditionId, amount: Micros): void {
    this.ledger.split(address, conditionId, this.#markets.book('MatchingEngine.split', conditionId).tokenIds, amount);
  }

  merge(address: string, conditionId: ConditionId, amount: Micros): void {
    this.ledger.merge(address, conditionId, this.#markets.book('MatchingEngine.merge', conditionId).tokenIds, amount);
  }

  // ---------------------------------------------------------------- events

  /** Listens to every event; returns the unsubscribe function. Events arrive after each call's state change. */
  onEvent(listener: SimEventListener): () => void {
    return this.#events.listen(listener);
  }

  // ---------------------------------------------------------------- orders

  submit(req: SimOrderRequest, now: number): SubmitResult {
    this.#begin(now);
    try {
      return this.#submit(req, now);
    } finally {
      this.#events.end(now);
    }
  }

  cancel(orderId: string, owner: string, now: number): CancelResult {
    return this.cancelOrders([orderId], owner, now);
  }

  cancelOrders(orderIds: readonly string[], owner: string, now: number): CancelResult {
    this.#begin(now);
    try {
      const canceled: string[] = [];
      const notCanceled: Record<string, string> = {};
      for (const id of orderIds) {
        if (this.#delayed.cancel(id, owner)) {
          canceled.push(id);
          continue;
        }
        const rec = this.#registry.get(id);
        if (rec === undefined || rec.owner !== owner || rec.status === 'CANCELED') notCanceled[id] = CANCEL_NOT_FOUND;
        else if (rec.status === 'MATCHED') notCanceled[id] = CANCEL_ALREADY_MATCHED;
        else {
          this.#cancelResting(rec, 'USER', now);
          canceled.push(id);
        }
      }
      return { canceled, notCanceled };
    } finally {
      this.#events.end(now);
    }
  }

  /** Cancels every open order of `owner`. */
  cancelAll(owner: string, now: number): CancelResult {
    return this.cancelMarket(owner, {}, now);
  }

  /** Cancels the open orders of `owner` in a market and/or on one token (both optional). */
  cancelMarket(owner: string, scope: { conditionId?: ConditionId; tokenId?: TokenId }, now: number): CancelResult {
    this.#begin(now);
    try {
      const canceled: string[] = this.#delayed.cancelScope(owner, scope);
      for (const rec of this.#registry.liveOf(owner)) {
        if (scope.conditionId !== undefined && rec.book.conditionId !== scope.conditionId) continue;
        if (scope.tokenId !== undefined && rec.tokenId !== scope.tokenId) continue;
        this.#cancelResting(rec, 'USER', now);
        canceled.push(rec.id);
      }
      return { canceled, notCanceled: {} };
    } finally {
      this.#events.end(now);
    }
  }

  /** Removes every GTD order with expiration <= now; returns their ids. */
  expire(now: number): string[] {
    const out: string[] = [];
    try {
      this.#begin(now, out);
    } finally {
      this.#events.end(now);
    }
    return out;
  }

  // ---------------------------------------------------------------- queries

  order(orderId: string): OrderState | undefined {
    return this.#registry.get(orderId)?.toState() ?? this.#delayed.state(orderId);
  }

  /** Open orders matching the query: LIVE ones oldest first, then those held for a matching delay (DELAYED). */
  openOrders(query: OrderQuery = {}): OrderState[] {
    const live = this.#registry.openOrders(query, () => this.#markets.booksFor(query)).map((r) => r.toState());
    return this.#delayed.size === 0 ? live : live.concat(this.#delayed.list(query));
  }

  /**
   * A trade's settlement status now (settlement-model.ts): MATCHED until its steps come due,
   * then MINED, RETRYING, CONFIRMED or FAILED. A trade the settlement does not follow (no
   * settlement option: MATCHED, as matched; only transient parties: CONFIRMED).
   */
  tradeStatus(trade: Trade): TradeStatus {
    const schedule = this.#settlement;
    if (schedule === undefined) return trade.status;
    return schedule.status(trade.id) ?? 'CONFIRMED';
  }

  /** Trades on their way to the chain (not final yet). */
  get settlingTrades(): number {
    return this.#settlement?.pending ?? 0;
  }

  /** When the next settlement step of a trade comes due (epoch ms; applied by the next call at or after it), or undefined. */
  get nextSettlementAtMs(): number | undefined {
    return this.#settlement?.nextAtMs;
  }

  /** Trades the query's owner took part in (as taker or maker), oldest first. */
  trades(query: OrderQuery = {}): Trade[] {
    return this.#registry.trades(query);
  }

  /** One token's book (its own terms, mirrored for NO), after expiring orders due at `now`. */
  book(tokenId: TokenId, now: number): OrderBook {
    const ref = this.#markets.ref('MatchingEngine.book', tokenId);
    this.#begin(now);
    try {
      const b = ref.book;
      const { bids, asks } = b.levels(ref.index);
      return Object.freeze({
        tokenId,
        conditionId: b.conditionId,
        tsEvent: now,
        tsInit: now,
        hash: b.hash(ref.index),
        bids: Object.freeze(bids),
        asks: Object.freeze(asks),
        tickSize: b.tickSize,
        minOrderSize: b.minOrderSize,
        negRisk: b.negRisk,
        lastTradePrice: b.lastTradePrice(ref.index),
      });
    } finally {
      this.#events.end(now);
    }
  }

  /** Best prices, last trade and hash of a token as they stand (no expiry pass). */
  quote(tokenId: TokenId): TokenQuote {
    const ref = this.#markets.ref('MatchingEngine.quote', tokenId);
    const b = ref.book;
    return Object.freeze({
      tokenId,
      bestBid: b.bestBid(ref.index),
      bestAsk: b.bestAsk(ref.index),
      lastTradePrice: b.lastTradePrice(ref.index),
      hash: b.hash(ref.index),
    });
  }

  // ---------------------------------------------------------------- internals

  /** Admission (src/sim/admission.ts, in the venue's order), then matching, then the rest. */
  #submit(req: SimOrderRequest, now: number, delayOver = false): SubmitResult {
    const id = req.id;
    if (typeof id !== 'string' || id === '') return rejected('', ERR_INVALID_PAYLOAD);
    if (this.#registry.known(id) || this.#delayed.known(id)) return rejected(id, ERR_DUPLICATED);
    const ref = this.#markets.token(req.tokenId);
    if (ref === undefined) return rejected(id, ERR_INVALID_PAYLOAD);
    const book = ref.book;
    if (!book.acceptingOrders) return rejected(id, ERR_MARKET_NOT_READY);
    // the one venue-side difference in the terms: several accounts, so an order names its own
    if (typeof req.owner !== 'string' || typeof req.address !== 'string') return rejected(id, ERR_INVALID_PAYLOAD);

    const { side, type, price, size } = req;
    const postOnly = req.postOnly === true;
    const expiration = type === 'GTD' ? req.expiration : undefined;
    const bad = checkTerms({ side, type, price, size, postOnly, expiration }, { tickSize: book.tickSize, minOrderSize: book.minOrderSize, sizeLot: this.sizeLot }, now);
    if (bad !== undefined) return rejected(id, bad);
    const account = this.ledger.account(req.address);
    const broke = checkFunds({ side, type, postOnly, price, size }, book.fees, account.collateral, account.tokens.get(req.tokenId)?.free ?? 0);
    if (broke !== undefined) return rejected(id, broke);

    const isBuy = side === 'BUY';
    const tokenIndex = ref.index;
    const isBid = (tokenIndex === 0) === isBuy;
    const yesPrice = tokenIndex === 0 ? price : MICROS_PER_UNIT - price;
    const opposite = isBid ? book.asks : book.bids;
    const best = opposite.best();
    const crosses = best !== undefined && (isBid ? best.price <= yesPrice : best.price >= yesPrice);
    if (crosses && !postOnly && !delayOver) {
      const delayMs = this.#delayOf?.(book.conditionId) ?? 0;
      if (delayMs > 0) return this.#hold(req, tokenIndex, book.conditionId, now + delayMs);
    }
    const refused = checkCrossing(type, postOnly, crosses, () => canFill(opposite, isBid, yesPrice, size));
    if (refused !== undefined) return rejected(id, refused);
    const holding = account.holding(req.tokenId);

    const rec = new OrderRecord(
      id,
      ++this.#orderSeq,
      req.owner,
      req.address,
      book,
      tokenIndex,
      req.tokenId,
      side,
      price,
      yesPrice,
      isBid,
      size,
      type,
      postOnly,
      req.createdAt,
      expiration,
      req.clientMetadata,
      account,
      holding,
    );
    this.#registry.add(rec);

    let trades: readonly Trade[] = NO_TRADES;
    const matcher = this.#matcher;
    matcher.making = 0;
    matcher.taking = 0;
    if (crosses) {
      const filled: Trade[] = [];
      matcher.match(rec, book, opposite, now, filled);
      trades = filled;
      if (this.#settlement !== undefined) for (const t of filled) this.#follow(t, now);
    }

    const d = disposition(type, rec.remaining);
    if (d === 'FILLED') {
      rec.status = 'MATCHED';
      this.#registry.closed(rec);
    } else if (d === 'REST') {
      this.#rest(rec, now);
    } else {
      // FAK: the unfilled rest is killed (a FOK never gets here: it was checked to fill).
      rec.status = 'CANCELED';
      rec.cancelReason = 'UNFILLED_REMAINDER';
      this.#registry.closed(rec);
      if (this.#events.listening) {
        this.#events.push({
          type: 'OrderCanceled',
          ts: now,
          orderId: id,
          owner: rec.owner,
          reason: 'UNFILLED_REMAINDER',
          canceledSize: rec.remaining,
          sizeMatched: rec.sizeMatched,
        });
      }
    }
    return { status: submitStatus(d, rec.sizeMatched), errorMsg: '', orderId: id, makingAmount: matcher.making, takingAmount: matcher.taking, trades };
  }

  /** Puts the open rest of a new GTC/GTD order on the book and reserves what it needs. */
  #rest(rec: OrderRecord, now: number): void {
    const book = rec.book;
    if (rec.side === 'BUY') {
      const r = restingBuyReserve(rec.price, rec.remaining, book.fees.maker);
      rec.account.collateral -= r;
      rec.account.collateralReserved += r;
    } else {
      rec.holding.free -= rec.remaining;
      rec.holding.reserved += rec.remaining;
    }
    this.#events.touch(book, book.rest(rec));
    this.#registry.addLive(rec);
    if (rec.type === 'GTD') this.#expiry.push(rec);
    if (this.#events.listening) this.#events.push({ type: 'OrderAccepted', ts: now, order: rec.toState() });
  }

  #cancelResting(rec: OrderRecord, reason: CancelReason, now: number): void {
    const book = rec.book;
    this.#events.touch(book, book.remove(rec));
    if (rec.side === 'BUY') {
      const r = restingBuyReserve(rec.price, rec.remaining, book.fees.maker);
      rec.account.collateralReserved -= r;
      rec.account.collateral += r;
    } else {
      rec.holding.reserved -= rec.remaining;
      rec.holding.free += rec.remaining;
    }
    rec.status = 'CANCELED';
    rec.cancelReason = reason;
    this.#registry.dropLive(rec);
    if (this.#events.listening) {
      const base = { orderId: rec.id, owner: rec.owner, canceledSize: rec.remaining, sizeMatched: rec.sizeMatched };
      // An expiry is stamped with the expiration itself: later than the previous call's time, so
      // event times stay in order even when the expiry is noticed late.
      if (reason === 'EXPIRED') this.#events.push({ type: 'OrderExpired', ts: rec.expiration as number, ...base });
      else this.#events.push({ type: 'OrderCanceled', ts: now, reason: reason === 'USER' ? 'USER' : 'UNFILLED_REMAINDER', ...base });
    }
  }

  /** Starts a call: a new stamp, then every GTD order due at `now` expires. */
  #begin(now: number, expired?: string[]): void {
    this.#events.begin();
    for (;;) {
      const rec = this.#expiry.popDue(now);
      if (rec === undefined) break;
      if (rec.status !== 'LIVE') continue;
      this.#cancelResting(rec, 'EXPIRED', now);
      expired?.push(rec.id);
    }
    if (this.#delayed.size > 0) this.#releaseDelayed(now);
    const schedule = this.#settlement;
    if (schedule !== undefined && schedule.pending > 0) schedule.due(now, (trade, _id, status, atMs) => this.#settled(trade, status, atMs));
  }

  /** Answers a marketable order DELAYED and holds it until `dueMs` (delayed-orders.ts). */
  #hold(req: SimOrderRequest, tokenIndex: OutcomeIndex, conditionId: ConditionId, dueMs: number): SubmitResult {
    const state = heldOrderState(req, conditionId, tokenIndex, 'DELAYED');
    this.#delayed.hold(req, dueMs, Object.freeze(state));
    return { status: 'DELAYED', errorMsg: '', orderId: req.id, makingAmount: 0, takingAmount: 0, trades: NO_TRADES };
  }

  /** Held orders whose delay is over meet the book as it stands; one that cannot be placed is UNMATCHED. */
  #releaseDelayed(now: number): void {
    for (const req of this.#delayed.takeDue(now)) {
      const result = this.#submit(req, now, true);
      if (result.status === 'REJECTED') {
        const state = this.#delayedState(req);
        if (state !== undefined) this.#delayed.end(req, state, 'UNMATCHED');
      }
    }
  }

  #delayedState(req: SimOrderRequest): OrderState | undefined {
    const ref = this.#markets.token(req.tokenId);
    return ref === undefined ? undefined : heldOrderState(req, ref.book.conditionId, ref.index, 'UNMATCHED');
  }

  /** Follows a new trade's settlement when a party is not transient (the others' are CONFIRMED at once). */
  #follow(trade: Trade, now: number): void {
    const transient = this.#transient;
    let tracked = transient === undefined || !transient(trade.owner);
    for (let i = 0; !tracked && i < trade.makerOrders.length; i++) tracked = !transient!(trade.makerOrders[i]!.owner);
    if (!tracked) return;
    this.#settlement!.add(trade.id, now, trade);
  }

  /** A followed trade took a new settlement status; a FAILED one is undone on the ledger. */
  #settled(trade: Trade, status: TradeStatus, atMs: number): void {
    if (status === 'FAILED') reverseTrade(this.ledger, trade);
    if (this.#events.listening) this.#events.push({ type: 'TradeSettled', ts: atMs, trade, status });
  }
}

const NO_TRADES: readonly Trade[] = Object.freeze([]);

function rejected(orderId: string, errorMsg: string): SubmitResult {
  return { status: 'REJECTED', errorMsg, orderId, makingAmount: 0, takingAmount: 0, trades: NO_TRADES };
}

/** True when the levels crossing `limit` hold at least `size`. */
function canFill(side: BookSide<OrderRecord>, isBid: boolean, limit: Micros, size: Micros): boolean {
  const levels = side.levels;
  let available = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    const l = levels[i] as PriceLevel<OrderRecord>;
    if (isBid ? l.price > limit : l.price < limit) return false;
    available += l.total;
    if (available >= size) return true;
  }
  return false;
}

/** uuid-shaped and deterministic: 00000000-0000-4000-8000-<seq as 12 hex digits>. */
function defaultTradeId(seq: number): string {
  return '00000000-0000-4000-8000-' + seq.toString(16).padStart(12, '0');
}

function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
