import { ParameterError } from '../core/errors.ts';
import { isValidPrice, MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import type { ConditionId, OrderBook, OrderType, TokenId } from '../core/types.ts';
import { buyEntryRequirement, fee, notional, restingBuyReserve, SIZE_LOT } from './amounts.ts';
import type { BookSide, PriceLevel } from './book-side.ts';
import { ExpiryQueue } from './expiry-queue.ts';
import { Ledger } from './ledger.ts';
import { MarketBook } from './market-book.ts';
import { OrderRecord } from './order-record.ts';
import type {
  BookChanged,
  CancelReason,
  CancelResult,
  LevelChange,
  MakerFill,
  OrderState,
  OutcomeIndex,
  Settlement,
  SimEvent,
  SimEventListener,
  SimMarketConfig,
  SimOrderRequest,
  SubmitResult,
  SubmitStatus,
  TokenQuote,
  Trade,
} from './types.ts';
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

export interface MatchingEngineOptions {
  /** Collateral of an account opened on first use (micros). Default 10,000 units. */
  readonly startingCollateral?: Micros;
  /** Order sizes must be multiples of this (micros). Default 0.01 share; see amounts.ts. */
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
}

/** Filter of `openOrders` / `trades`; every given field must match. */
export interface OrderQuery {
  readonly owner?: string;
  readonly conditionId?: ConditionId;
  readonly tokenId?: TokenId;
}

interface TokenRef {
  readonly book: MarketBook;
  readonly index: OutcomeIndex;
}

/**
 * Price-time-priority matching engine of a binary prediction-market venue, with balances.
 *
 * Synchronous, no I/O, no clock: every call that can change state takes `now` (epoch ms), and
 * first expires GTD orders due at `now`. One book per market in YES terms (market-book.ts); the
 * fill price is the resting order's price; a taker walks levels best first and each level's FIFO.
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
  readonly #tradeIdOf: (seq: number) => string;
  readonly #keepClosed: boolean;
  readonly #transient: ((owner: string) => boolean) | undefined;
  readonly #tradeHistory: number;
  readonly #onListenerError: (error: unknown, event: SimEvent) => void;

  readonly #markets = new Map<ConditionId, MarketBook>();
  readonly #tokens = new Map<TokenId, TokenRef>();
  readonly #orders = new Map<string, OrderRecord>();
  readonly #closedIds: Set<string> | undefined;
  readonly #liveByOwner = new Map<string, Set<OrderRecord>>();
  readonly #expiry = new ExpiryQueue();
  readonly #trades: Trade[] = [];
  readonly #tradesByOwner = new Map<string, Trade[]>();
  #orderSeq = 0;
  #tradeSeq = 0;

  readonly #listeners: SimEventListener[] = [];
  #listening = false;
  #pending: SimEvent[] = [];
  /** Stamp of the current call; levels changed in it carry it (PriceLevel.touched). */
  #stamp = 0;
  #touchedLevels: PriceLevel[] = [];
  #touchedBooks: MarketBook[] = [];
  /** Scratch totals of the last #match. */
  #making = 0;
  #taking = 0;

  constructor(options: MatchingEngineOptions = {}) {
    this.ledger = new Ledger(options.startingCollateral);
    const lot = options.sizeLot ?? SIZE_LOT;
    if (!Number.isSafeInteger(lot) || lot <= 0) {
      throw new ParameterError('MatchingEngine', 'sizeLot', `must be a positive integer of micros, was ${lot}`);
    }
    this.sizeLot = lot;
    this.#tradeIdOf = options.tradeId ?? defaultTradeId;
    this.#keepClosed = options.keepClosedOrders ?? true;
    this.#closedIds = this.#keepClosed ? undefined : new Set<string>();
    this.#transient = options.transientOwner;
    const history = options.tradeHistory ?? Infinity;
    if (!(history === Infinity || (Number.isSafeInteger(history) && history > 0))) {
      throw new ParameterError('MatchingEngine', 'tradeHistory', `must be a positive integer, was ${history}`);
    }
    this.#tradeHistory = history;
    this.#onListenerError = options.onListenerError ?? rethrowLater;
  }

  // ---------------------------------------------------------------- markets

  addMarket(config: SimMarketConfig): void {
    const where = 'MatchingEngine.addMarket';
    if (this.#markets.has(config.conditionId)) throw new ParameterError(where, 'conditionId', `${config.conditionId} is already listed`);
    const [yes, no] = config.tokenIds;
    if (yes === no) throw new ParameterError(where, 'tokenIds', 'must be two distinct token ids');
    for (const t of config.tokenIds) {
      if (this.#tokens.has(t)) throw new ParameterError(where, 'tokenIds', `token ${t} already belongs to a market`);
    }
    this.#checkTick(where, config.tickSize);
    if (!Number.isSafeInteger(config.minOrderSize) || config.minOrderSize < 0) {
      throw new ParameterError(where, 'minOrderSize', `must be a non-negative integer of micros, was ${config.minOrderSize}`);
    }
    checkBps(where, 'makerBaseFeeBps', config.makerBaseFeeBps);
    checkBps(where, 'takerBaseFeeBps', config.takerBaseFeeBps);
    const book = new MarketBook(config);
    this.#markets.set(config.conditionId, book);
    this.#tokens.set(yes, { book, index: 0 });
    this.#tokens.set(no, { book, index: 1 });
  }

  market(conditionId: ConditionId): SimMarketConfig | undefined {
    const b = this.#markets.get(conditionId);
    if (b === undefined) return undefined;
    return Object.freeze({
      conditionId: b.conditionId,
      tokenIds: b.tokenIds,
      tickSize: b.tickSize,
      minOrderSize: b.minOrderSize,
      negRisk: b.negRisk,
      makerBaseFeeBps: b.makerFeeBps,
      takerBaseFeeBps: b.takerFeeBps,
      acceptingOrders: b.acceptingOrders,
    });
  }

  markets(): SimMarketConfig[] {
    return [...this.#markets.keys()].map((c) => this.market(c) as SimMarketConfig);
  }

  /** The market and outcome index of a token, or undefined. */
  tokenInfo(tokenId: TokenId): { conditionId: ConditionId; outcomeIndex: OutcomeIndex } | undefined {
    const ref = this.#tokens.get(tokenId);
    return ref === undefined ? undefined : { conditionId: ref.book.conditionId, outcomeIndex: ref.index };
  }

  /**
   * Changes a market's tick. Resting orders stay where they are (off the new grid if it is
   * coarser); new orders are checked against the new tick. The book hashes change.
   */
  setTickSize(conditionId: ConditionId, tickSize: Micros, now: number): void {
    const book = this.#book('MatchingEngine.setTickSize', conditionId);
    this.#checkTick('MatchingEngine.setTickSize', tickSize);
    const old = book.tickSize;
    if (old === tickSize) return;
    this.#begin(now);
    try {
      book.tickSize = tickSize;
      if (this.#listening) {
        this.#pending.push({
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
      this.#end(now);
    }
  }

  /** Closing a market to new orders keeps its resting orders (cancels still work). */
  setAcceptingOrders(conditionId: ConditionId, accepting: boolean): void {
    this.#book('MatchingEngine.setAcceptingOrders', conditionId).acceptingOrders = accepting;
  }

  /** Gives `address` `amount` of both tokens of a market for `amount` collateral. */
  split(address: string, conditionId: ConditionId, amount: Micros): void {
    this.ledger.split(address, conditionId, this.#book('MatchingEngine.split', conditionId).tokenIds, amount);
  }

  merge(address: string, conditionId: ConditionId, amount: Micros): void {
    this.ledger.merge(address, conditionId, this.#book('MatchingEngine.merge', conditionId).tokenIds, amount);
  }

  // ---------------------------------------------------------------- events

  /** Listens to every event; returns the unsubscribe function. Events arrive after each call's state change. */
  onEvent(listener: SimEventListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  // ---------------------------------------------------------------- orders

  submit(req: SimOrderRequest, now: number): SubmitResult {
    this.#begin(now);
    try {
      return this.#submit(req, now);
    } finally {
      this.#end(now);
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
        const rec = this.#orders.get(id);
        if (rec === undefined || rec.owner !== owner || rec.status === 'CANCELED') notCanceled[id] = CANCEL_NOT_FOUND;
        else if (rec.status === 'MATCHED') notCanceled[id] = CANCEL_ALREADY_MATCHED;
        else {
          this.#cancelResting(rec, 'USER', now);
          canceled.push(id);
        }
      }
      return { canceled, notCanceled };
    } finally {
      this.#end(now);
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
      const canceled: string[] = [];
      const live = this.#liveByOwner.get(owner);
      if (live !== undefined) {
        for (const rec of [...live]) {
          if (scope.conditionId !== undefined && rec.book.conditionId !== scope.conditionId) continue;
          if (scope.tokenId !== undefined && rec.tokenId !== scope.tokenId) continue;
          this.#cancelResting(rec, 'USER', now);
          canceled.push(rec.id);
        }
      }
      return { canceled, notCanceled: {} };
    } finally {
      this.#end(now);
    }
  }

  /** Removes every GTD order with expiration <= now; returns their ids. */
  expire(now: number): string[] {
    const out: string[] = [];
    try {
      this.#begin(now, out);
    } finally {
      this.#end(now);
    }
    return out;
  }

  // ---------------------------------------------------------------- queries

  order(orderId: string): OrderState | undefined {
    return this.#orders.get(orderId)?.toState();
  }

  /** Open (LIVE) orders matching the query, oldest first. */
  openOrders(query: OrderQuery = {}): OrderState[] {
    const found: OrderRecord[] = [];
    const { owner, conditionId, tokenId } = query;
    const keep = (r: OrderRecord): boolean =>
      (owner === undefined || r.owner === owner) &&
      (conditionId === undefined || r.book.conditionId === conditionId) &&
      (tokenId === undefined || r.tokenId === tokenId);
    if (owner !== undefined) {
      for (const r of this.#liveByOwner.get(owner) ?? []) if (keep(r)) found.push(r);
    } else if (tokenId !== undefined) {
      const ref = this.#tokens.get(tokenId);
      if (ref !== undefined) collect(ref.book, keep, found);
    } else if (conditionId !== undefined) {
      const book = this.#markets.get(conditionId);
      if (book !== undefined) collect(book, keep, found);
    } else {
      for (const book of this.#markets.values()) collect(book, keep, found);
    }
    found.sort((a, b) => a.seq - b.seq);
    return found.map((r) => r.toState());
  }

  /** Trades the query's owner took part in (as taker or maker), oldest first. */
  trades(query: OrderQuery = {}): Trade[] {
    const { owner, conditionId, tokenId } = query;
    const source = owner === undefined ? this.#trades : (this.#tradesByOwner.get(owner) ?? []);
    return source.filter(
      (t) =>
        (conditionId === undefined || t.conditionId === conditionId) &&
        (tokenId === undefined || t.tokenId === tokenId || t.makerOrders.some((m) => m.tokenId === tokenId)),
    );
  }

  /** One token's book (its own terms, mirrored for NO), after expiring orders due at `now`. */
  book(tokenId: TokenId, now: number): OrderBook {
    const ref = this.#ref('MatchingEngine.book', tokenId);
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
      this.#end(now);
    }
  }

  /** Best prices, last trade and hash of a token as they stand (no expiry pass). */
  quote(tokenId: TokenId): TokenQuote {
    const ref = this.#ref('MatchingEngine.quote', tokenId);
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

  #submit(req: SimOrderRequest, now: number): SubmitResult {
    const id = req.id;
    if (typeof id !== 'string' || id === '') return rejected('', ERR_INVALID_PAYLOAD);
    if (this.#orders.has(id) || this.#closedIds?.has(id) === true) return rejected(id, ERR_DUPLICATED);
    const ref = this.#tokens.get(req.tokenId);
    if (ref === undefined) return rejected(id, ERR_INVALID_PAYLOAD);
    const book = ref.book;
    if (!book.acceptingOrders) return rejected(id, ERR_MARKET_NOT_READY);

    const { side, type, price, size } = req;
    const postOnly = req.postOnly === true;
    if ((side !== 'BUY' && side !== 'SELL') || !isOrderType(type)) return rejected(id, ERR_INVALID_PAYLOAD);
    if (typeof req.owner !== 'string' || typeof req.address !== 'string') return rejected(id, ERR_INVALID_PAYLOAD);
    if (postOnly && (type === 'FOK' || type === 'FAK')) return rejected(id, ERR_INVALID_PAYLOAD);
    let expiration: number | undefined;
    if (type === 'GTD') {
      expiration = req.expiration;
      if (typeof expiration !== 'number' || !Number.isFinite(expiration) || expiration <= now) return rejected(id, ERR_INVALID_PAYLOAD);
    }
    if (!Number.isSafeInteger(price) || !isValidPrice(price, book.tickSize)) return rejected(id, ERR_PRICE_TICK);
    if (!Number.isSafeInteger(size)) return rejected(id, ERR_INVALID_PAYLOAD);
    if (size <= 0 || size < book.minOrderSize) return rejected(id, ERR_SIZE_MINIMUM);
    if (size % this.sizeLot !== 0) return rejected(id, ERR_INVALID_PAYLOAD);

    const account = this.ledger.account(req.address);
    const isBuy = side === 'BUY';
    if (isBuy) {
      const rate =
        type === 'FOK' || type === 'FAK' ? book.takerFeeBps : postOnly ? book.makerFeeBps : Math.max(book.takerFeeBps, book.makerFeeBps);
      if (account.collateral < buyEntryRequirement(price, size, rate)) return rejected(id, ERR_BALANCE);
    } else if ((account.tokens.get(req.tokenId)?.free ?? 0) < size) {
      return rejected(id, ERR_BALANCE);
    }

    const tokenIndex = ref.index;
    const isBid = (tokenIndex === 0) === isBuy;
    const yesPrice = tokenIndex === 0 ? price : MICROS_PER_UNIT - price;
    const opposite = isBid ? book.asks : book.bids;
    const best = opposite.best();
    const crosses = best !== undefined && (isBid ? best.price <= yesPrice : best.price >= yesPrice);
    if (postOnly && crosses) return rejected(id, ERR_POST_ONLY_CROSSES);
    if (type === 'FOK' && (!crosses || !canFill(opposite, isBid, yesPrice, size))) return rejected(id, ERR_FOK_UNFILLED);
    if (type === 'FAK' && !crosses) return rejected(id, ERR_FAK_NO_MATCH);
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
    this.#orders.set(id, rec);

    let trades: readonly Trade[] = NO_TRADES;
    this.#making = 0;
    this.#taking = 0;
    if (crosses) {
      const filled: Trade[] = [];
      this.#match(rec, book, opposite, now, filled);
      trades = filled;
    }

    let status: SubmitStatus;
    if (rec.remaining === 0) {
      rec.status = 'MATCHED';
      this.#closed(rec);
      status = 'MATCHED';
    } else if (type === 'GTC' || type === 'GTD') {
      this.#rest(rec, now);
      status = rec.sizeMatched > 0 ? 'MATCHED' : 'LIVE';
    } else {
      // FAK: the unfilled rest is killed (a FOK never gets here: it was checked to fill).
      rec.status = 'CANCELED';
      rec.cancelReason = 'UNFILLED_REMAINDER';
      this.#closed(rec);
      if (this.#listening) {
        this.#pending.push({
          type: 'OrderCanceled',
          ts: now,
          orderId: id,
          owner: rec.owner,
          reason: 'UNFILLED_REMAINDER',
          canceledSize: rec.remaining,
          sizeMatched: rec.sizeMatched,
        });
      }
      status = 'MATCHED';
    }
    return { status, errorMsg: '', orderId: id, makingAmount: this.#making, takingAmount: this.#taking, trades };
  }

  /** Fills `taker` against the opposite side, level by level, FIFO within a level. */
  #match(taker: OrderRecord, book: MarketBook, opposite: BookSide, now: number, trades: Trade[]): void {
    const isBid = taker.isBid;
    const limit = taker.yesPrice;
    const takerBuy = taker.side === 'BUY';
    const takerYes = taker.tokenIndex === 0;
    const tAccount = taker.account;
    const tHolding = taker.holding;
    const makerBps = book.makerFeeBps;
    const takerBps = book.takerFeeBps;
    const listening = this.#listening;
    let making = 0;
    let taking = 0;
    let fees = 0;
    let setsDelta = 0;

    while (taker.remaining > 0) {
      const level = opposite.best();
      if (level === undefined) break;
      const x = level.price;
      if (isBid ? x > limit : x < limit) break;
      const takerPrice = takerYes ? x : MICROS_PER_UNIT - x;
      const tradeId = this.#tradeIdOf(++this.#tradeSeq);
      const fills: MakerFill[] = [];
      const makers: OrderRecord[] | undefined = listening ? [] : undefined;
      let levelFilled = 0;
      let takerFee = 0;

      let m = level.head;
      while (m !== null && taker.remaining > 0) {
        const next = m.next;
        const q = taker.remaining < m.remaining ? taker.remaining : m.remaining;

        // Maker side, at its own price.
        const mNotional = notional(m.price, q);
        const mFee = fee(makerBps, m.price, q);
        const mAccount = m.account;
        let settlement: Settlement;
        if (m.side === 'BUY') {
          const release = restingBuyReserve(m.price, m.remaining, makerBps) - restingBuyReserve(m.price, m.remaining - q, makerBps);
          mAccount.collateralReserved -= release;
          mAccount.collateral += release - mNotional - mFee;
          m.holding.free += q;
          settlement = takerBuy ? 'MINT' : 'TRANSFER';
        } else {
          m.holding.reserved -= q;
          mAccount.collateral += mNotional - mFee;
          settlement = takerBuy ? 'TRANSFER' : 'MERGE';
        }

        // Taker side, at the same price in its own token's terms.
        const tNotional = notional(takerPrice, q);
        const tFee = fee(takerBps, takerPrice, q);
        if (takerBuy) {
          tAccount.collateral -= tNotional + tFee;
          tHolding.free += q;
          making += tNotional;
          taking += q;
        } else {
          tHolding.free -= q;
          tAccount.collateral += tNotional - tFee;
          making += q;
          taking += tNotional;
        }
        if (settlement === 'MINT') setsDelta += q;
        else if (settlement === 'MERGE') setsDelta -= q;
        fees += mFee + tFee;
        takerFee += tFee;

        m.remaining -= q;
        m.sizeMatched += q;
        taker.remaining -= q;
        taker.sizeMatched += q;
        levelFilled += q;
        m.addTrade(tradeId);
        fills.push(
          Object.freeze({
            orderId: m.id,
            owner: m.owner,
            address: m.address,
            tokenId: m.tokenId,
            outcomeIndex: m.tokenIndex,
            side: m.side,
            price: m.price,
            matchedAmount: q,
            feeRateBps: makerBps,
            fee: mFee,
            settlement,
          }),
        );
        if (makers !== undefined) makers.push(m);
        if (m.remaining === 0) {
          level.unlink(m);
          m.status = 'MATCHED';
          this.#dropLive(m);
        }
        m = next;
      }

      book.changeTotal(level, -levelFilled);
      this.#touch(book, level);
      if (level.count === 0) opposite.drop(level);
      book.lastTradeYesPrice = x;
      taker.addTrade(tradeId);
      const trade: Trade = Object.freeze({
        id: tradeId,
        conditionId: book.conditionId,
        tokenId: taker.tokenId,
        outcomeIndex: taker.tokenIndex,
        side: taker.side,
        price: takerPrice,
        size: levelFilled,
        takerOrderId: taker.id,
        owner: taker.owner,
        address: taker.address,
        feeRateBps: takerBps,
        fee: takerFee,
        makerOrders: Object.freeze(fills),
        matchTime: now,
        status: 'MATCHED',
      });
      trades.push(trade);
      this.#recordTrade(trade);

      if (makers !== undefined) {
        const pending = this.#pending;
        pending.push({ type: 'TradeExecuted', ts: now, trade });
        for (let i = 0; i < makers.length; i++) {
          const mk = makers[i] as OrderRecord;
          const f = fills[i] as MakerFill;
          pending.push({
            type: 'OrderFilled',
            ts: now,
            orderId: mk.id,
            owner: mk.owner,
            role: 'MAKER',
            tradeId,
            tokenId: mk.tokenId,
            side: mk.side,
            price: mk.price,
            size: f.matchedAmount,
            fee: f.fee,
            sizeMatched: mk.sizeMatched,
            originalSize: mk.originalSize,
            status: mk.status,
          });
        }
        pending.push({
          type: 'OrderFilled',
          ts: now,
          orderId: taker.id,
          owner: taker.owner,
          role: 'TAKER',
          tradeId,
          tokenId: taker.tokenId,
          side: taker.side,
          price: takerPrice,
          size: levelFilled,
          fee: takerFee,
          sizeMatched: taker.sizeMatched,
          originalSize: taker.originalSize,
          status: taker.remaining === 0 ? 'MATCHED' : 'LIVE',
        });
      }
    }

    this.ledger.feesCollected += fees;
    if (setsDelta !== 0) this.ledger.adjustCompleteSets(book.conditionId, setsDelta);
    this.#making = making;
    this.#taking = taking;
  }

  /** Puts the open rest of a new GTC/GTD order on the book and reserves what it needs. */
  #rest(rec: OrderRecord, now: number): void {
    const book = rec.book;
    if (rec.side === 'BUY') {
      const r = restingBuyReserve(rec.price, rec.remaining, book.makerFeeBps);
      rec.account.collateral -= r;
      rec.account.collateralReserved += r;
    } else {
      rec.holding.free -= rec.remaining;
      rec.holding.reserved += rec.remaining;
    }
    this.#touch(book, book.rest(rec));
    let live = this.#liveByOwner.get(rec.owner);
    if (live === undefined) {
      live = new Set();
      this.#liveByOwner.set(rec.owner, live);
    }
    live.add(rec);
    if (rec.type === 'GTD') this.#expiry.push(rec);
    if (this.#listening) this.#pending.push({ type: 'OrderAccepted', ts: now, order: rec.toState() });
  }

  #cancelResting(rec: OrderRecord, reason: CancelReason, now: number): void {
    const book = rec.book;
    this.#touch(book, book.remove(rec));
    if (rec.side === 'BUY') {
      const r = restingBuyReserve(rec.price, rec.remaining, book.makerFeeBps);
      rec.account.collateralReserved -= r;
      rec.account.collateral += r;
    } else {
      rec.holding.reserved -= rec.remaining;
      rec.holding.free += rec.remaining;
    }
    rec.status = 'CANCELED';
    rec.cancelReason = reason;
    this.#dropLive(rec);
    if (this.#listening) {
      const base = { orderId: rec.id, owner: rec.owner, canceledSize: rec.remaining, sizeMatched: rec.sizeMatched };
      // An expiry is stamped with the expiration itself: later than the previous call's time, so
      // event times stay in order even when the expiry is noticed late.
      if (reason === 'EXPIRED') this.#pending.push({ type: 'OrderExpired', ts: rec.expiration as number, ...base });
      else this.#pending.push({ type: 'OrderCanceled', ts: now, reason: reason === 'USER' ? 'USER' : 'UNFILLED_REMAINDER', ...base });
    }
  }

  #expireDue(now: number, out?: string[]): void {
    for (;;) {
      const rec = this.#expiry.popDue(now);
      if (rec === undefined) return;
      if (rec.status !== 'LIVE') continue;
      this.#cancelResting(rec, 'EXPIRED', now);
      out?.push(rec.id);
    }
  }

  /** A resting order left the book (filled, canceled, expired). */
  #dropLive(rec: OrderRecord): void {
    const live = this.#liveByOwner.get(rec.owner);
    if (live !== undefined) {
      live.delete(rec);
      if (live.size === 0) this.#liveByOwner.delete(rec.owner);
    }
    this.#closed(rec);
  }

  #closed(rec: OrderRecord): void {
    if (this.#transient?.(rec.owner) === true) {
      this.#orders.delete(rec.id);
      return;
    }
    if (this.#closedIds !== undefined) {
      this.#orders.delete(rec.id);
      this.#closedIds.add(rec.id);
    }
  }

  #recordTrade(trade: Trade): void {
    this.#trades.push(trade);
    if (this.#trades.length >= 2 * this.#tradeHistory) this.#trades.splice(0, this.#trades.length - this.#tradeHistory);
    this.#addOwnerTrade(trade.owner, trade);
    for (const m of trade.makerOrders) this.#addOwnerTrade(m.owner, trade);
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

  #touch(book: MarketBook, level: PriceLevel): void {
    if (!this.#listening || level.touched === this.#stamp) return;
    level.touched = this.#stamp;
    this.#touchedLevels.push(level);
    this.#touchedBooks.push(book);
  }

  /** Starts a call: a new stamp, then every GTD order due at `now` expires. */
  #begin(now: number, expired?: string[]): void {
    this.#stamp++;
    this.#listening = this.#listeners.length > 0;
    this.#expireDue(now, expired);
  }

  /** Ends a call: one BookChanged per market whose levels changed, then dispatch. */
  #end(now: number): void {
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

  #checkTick(where: string, tick: Micros): void {
    if (!Number.isSafeInteger(tick) || tick <= 0 || tick > MICROS_PER_UNIT / 2 || (tick * this.sizeLot) % MICROS_PER_UNIT !== 0) {
      throw new ParameterError(where, 'tickSize', `must be a positive integer of micros up to 0.5 with tick × sizeLot a whole number of micros, was ${tick}`);
    }
  }

  #book(where: string, conditionId: ConditionId): MarketBook {
    const b = this.#markets.get(conditionId);
    if (b === undefined) throw new ParameterError(where, 'conditionId', `${conditionId} is not a listed market`);
    return b;
  }

  #ref(where: string, tokenId: TokenId): TokenRef {
    const r = this.#tokens.get(tokenId);
    if (r === undefined) throw new ParameterError(where, 'tokenId', `${tokenId} is not a listed token`);
    return r;
  }
}

const ORDER_TYPES: ReadonlySet<string> = new Set<OrderType>(['GTC', 'GTD', 'FOK', 'FAK']);

function isOrderType(t: unknown): t is OrderType {
  return typeof t === 'string' && ORDER_TYPES.has(t);
}

const NO_TRADES: readonly Trade[] = Object.freeze([]);

function rejected(orderId: string, errorMsg: string): SubmitResult {
  return { status: 'REJECTED', errorMsg, orderId, makingAmount: 0, takingAmount: 0, trades: NO_TRADES };
}

/** True when the levels crossing `limit` hold at least `size`. */
function canFill(side: BookSide, isBid: boolean, limit: Micros, size: Micros): boolean {
  const levels = side.levels;
  let available = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    const l = levels[i] as PriceLevel;
    if (isBid ? l.price > limit : l.price < limit) return false;
    available += l.total;
    if (available >= size) return true;
  }
  return false;
}

function collect(book: MarketBook, keep: (r: OrderRecord) => boolean, out: OrderRecord[]): void {
  for (const side of [book.bids, book.asks]) {
    for (const level of side.levels) {
      for (let o = level.head; o !== null; o = o.next) if (keep(o)) out.push(o);
    }
  }
}

function bookChanges(levels: PriceLevel[], books: MarketBook[], stamp: number, now: number): BookChanged[] {
  const distinct: MarketBook[] = [];
  for (const b of books) if (!distinct.includes(b)) distinct.push(b);
  const out: BookChanged[] = [];
  for (const book of distinct) {
    const [yes, no] = book.tokenIds;
    const changes: LevelChange[] = [];
    for (let i = 0; i < levels.length; i++) {
      if (books[i] !== book) continue;
      const level = levels[i] as PriceLevel;
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

function checkBps(where: string, name: string, bps: number): void {
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > 10_000) {
    throw new ParameterError(where, name, `must be an integer from 0 to 10000, was ${bps}`);
  }
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
