import { Observable, Subject, type Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import type { MarketEvent } from '../../core/events.ts';
import type { Micros } from '../../core/fixed.ts';
import type { OrderRequest } from '../../core/intents.ts';
import { FeeRate } from '../../core/money.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import type { CancelOutcome, ExecutionClient, PreparedOrder, SubmitResult, VenueFill, VenueOrderState } from '../../execution/execution-client.ts';
import { SIZE_LOT } from '../admission.ts';
import type { LatencyModel } from './latency-model.ts';
import type { QueueModel } from './queue-model.ts';
import type { RecordedBook } from './recorded-book.ts';
import { CANCEL_ALREADY_MATCHED, CANCEL_NOT_FOUND } from '../venue-messages.ts';
import { type SimToken, venueState } from './edge-order.ts';
import { EdgeVenue, type SimulatedExecutionStats } from './edge-venue.ts';
import { arrive } from './order-arrival.ts';
import { RestingFills } from './resting-fills.ts';
import { SettlementSchedule } from '../settlement-schedule.ts';
import { checkSettlementKnobs, INSTANT_SETTLEMENT, type SettlementKnobs } from '../settlement-model.ts';
import type { TradeStatus } from '../../venue/domain/statuses.ts';

export { CLOSED_ORDER_RETENTION_MS, type SimulatedExecutionStats } from './edge-venue.ts';
export type { SimToken } from './edge-order.ts';

/** The run mode an edge serves: it names itself after it in logs and summaries. */
export type SimulatedKind = 'paper' | 'backtest';

export interface SimulatedExecutionOptions {
  /** 'paper' (a live market, simulated fills) or 'backtest' (a recording). Default 'backtest'. */
  readonly kind?: SimulatedKind;
  readonly clock: Clock;
  readonly tokens: readonly SimToken[];
  readonly latency: LatencyModel;
  readonly queue: QueueModel;
  /** Starting collateral of our account. */
  readonly balance: Micros;
  /** Size granularity of orders and fills; default 0.01 share. */
  readonly sizeLot?: Micros;
  /** Called at the venue for every fill of ours (before its report travels back). */
  readonly onFill?: (fill: VenueFill) => void;
  /**
   * How our trades settle on chain (src/sim/settlement-model.ts, the sandbox's model): each fill
   * is reported MATCHED, then again at each new status; a FAILED one is undone on our account.
   * Default: CONFIRMED at once.
   */
  readonly settlement?: SettlementKnobs;
  /** Seed of the settlement draws. Default 1. */
  readonly settlementSeed?: number;
  /** Matching delay of every market, ms; default each token's own `takerDelayMs` (none when absent). */
  readonly matchingDelayMs?: number;
  /**
   * Whether a `feeRate` event changes the fees charged from then on (default true); false when the
   * run fixed its own rates (`backtest.feeSource: config`).
   */
  readonly followFeeRates?: boolean;
}

/** The settlement and delay options of the edge from the run config's `backtest` settings (paper uses them too). */
export function simulatedVenueSettings(config: {
  readonly settlement: SettlementKnobs & { readonly seed: number };
  readonly matchingDelayMs?: number | undefined;
  readonly feeSource?: 'market' | 'config';
}): Pick<SimulatedExecutionOptions, 'settlement' | 'settlementSeed' | 'matchingDelayMs' | 'followFeeRates'> {
  const { seed, ...knobs } = config.settlement;
  return { settlement: checkSettlementKnobs(knobs, 'backtest.settlement'), settlementSeed: seed, matchingDelayMs: config.matchingDelayMs, followFeeRates: config.feeSource !== 'config' };
}

/**
 * The paper and backtest execution edge: our orders against the RECORDED (or live-fed) books,
 * never against other simulated orders. Orders and cancels reach the venue after the latency
 * model's entry delay and are checked there with the venue's rules and error strings
 * (src/sim/admission.ts, shared with the matching engine). Marketable orders take the displayed
 * depth not already used by us (order-arrival.ts); resting orders wait in the queue model and
 * fill on trade prints past the queue ahead, or when the opposite side crosses their price
 * (resting-fills.ts). Every answer and fill reaches the engine after the response delay.
 * Deterministic on a simulated clock. The assumptions are in docs/fill-model.md.
 */
export class SimulatedExecutionClient implements ExecutionClient {
  readonly kind: SimulatedKind;
  readonly #latency: LatencyModel;
  readonly #clock: Clock;
  readonly #venue: EdgeVenue;
  readonly #resting: RestingFills;
  readonly #onFill: ((fill: VenueFill) => void) | undefined;
  readonly #fills = new Subject<VenueFill>();
  readonly fills$: Observable<VenueFill> = this.#fills.asObservable();
  readonly #pending = new Set<Subscription>();
  readonly #settlement: SettlementSchedule<VenueFill>;
  /** The wake-up of the next settlement step, and when it is due. */
  #settleTimer: { sub: Subscription; atMs: number } | undefined;
  readonly #matchingDelayMs: number | undefined;
  readonly #followFeeRates: boolean;
  /** Our orders held for a matching delay, with what they were sent as. */
  readonly #delayed = new Map<string, PreparedOrder>();
  #closed = false;

  constructor(options: SimulatedExecutionOptions) {
    this.kind = options.kind ?? 'backtest';
    this.#latency = options.latency;
    this.#clock = options.clock;
    this.#onFill = options.onFill;
    this.#venue = new EdgeVenue({
      tokens: options.tokens,
      balance: options.balance,
      lot: options.sizeLot ?? SIZE_LOT,
      now: () => this.#clock.now(),
      onFill: (fill) => this.#report(fill),
      tradePrefix: this.kind === 'paper' ? 'paper' : 'bt',
      accountName: this.kind,
    });
    this.#resting = new RestingFills(this.#venue, options.queue);
    this.#settlement = new SettlementSchedule<VenueFill>(options.settlement ?? INSTANT_SETTLEMENT, options.settlementSeed ?? 1, false);
    this.#matchingDelayMs = options.matchingDelayMs;
    this.#followFeeRates = options.followFeeRates ?? true;
  }

  /** Tokens of markets that joined the run while it goes on (paper: new markets at runtime). */
  addTokens(tokens: readonly SimToken[]): void {
    for (const token of tokens) this.#venue.addToken(token);
  }

  /** Orders, rejections by reason, fills and cancels so far. */
  get stats(): SimulatedExecutionStats {
    return this.#venue.stats;
  }

  // ---------------------------------------------------------------- market data

  /** The venue's view of the market moves: called for every replayed event before the engine sees it. */
  onMarketEvent(event: MarketEvent): void {
    this.#venue.forgetBefore(event.tsInit);
    switch (event.type) {
      case 'book': {
        const token = this.#venue.tokens.get(event.book.tokenId);
        if (!token) return;
        token.book.applySnapshot(event.book);
        if (token.bids.length > 0 || token.asks.length > 0) this.#resting.onSnapshot(token, event.tsInit);
        token.book.clearPrinted();
        return;
      }
      case 'trade': {
        const token = this.#venue.tokens.get(event.tokenId);
        if (!token) return;
        // the taker's side: a SELL hit the bids, a BUY lifted the asks
        const hitBids = event.side === 'SELL';
        const printed = token.book.printed(hitBids);
        printed.set(event.price, (printed.get(event.price) ?? 0) + event.size);
        if ((hitBids ? token.bids : token.asks).length > 0) this.#resting.onTrade(token, hitBids, event.price, event.size, event.tsInit);
        return;
      }
      case 'tickSize': {
        this.#venue.tokens.get(event.tokenId)?.book.setTickSize(event.tickSize);
        return;
      }
      case 'feeRate': {
        // fills from now on pay the new rates (what rests keeps its hold: the venue's is on its maker rate too)
        const token = this.#venue.tokens.get(event.tokenId);
        if (token && this.#followFeeRates) token.token = { ...token.token, fees: { maker: FeeRate.of(event.makerBps), taker: FeeRate.of(event.takerBps) } };
        return;
      }
      case 'marketCleared':
        // the venue cleared the book at the game start: our resting orders in it are gone (the
        // engine takes them as cancelled by the venue); one held for the matching delay meets the
        // book after it, as at the sandbox
        this.#clear(event.conditionId);
        return;
      case 'walletTrade':
        // a followed wallet's trade: its effect on the book comes with the book's own events
        return;
      case 'prices':
      case 'marketClosed':
      case 'marketResolved':
        // the engine cancels our resting orders in a closed market and risk denies new ones
        return;
      case 'marketAdded':
        // the backtest adds a market that joined (addTokens) with its fee settings
        return;
    }
  }

  /** Collateral not held by resting orders. */
  get collateral(): Micros {
    return this.#venue.account.collateral;
  }

  /**
   * Sets the account to a run's own: `cash` free collateral and each position's shares free to
   * sell (a paper run resumed from its store; nothing rests yet). Negative or zero sizes hold nothing.
   */
  restoreAccount(cash: Micros, positions: Iterable<readonly [TokenId, Micros]>): void {
    const account = this.#venue.account;
    account.collateral = cash;
    account.collateralReserved = 0;
    account.tokens.clear();
    for (const [tokenId, size] of positions) if (size > 0) account.holding(tokenId).free = size;
  }

  /** Tokens held (free and held by resting sells). */
  position(tokenId: TokenId): Micros {
    const h = this.#venue.account.tokens.get(tokenId);
    return h === undefined ? 0 : h.free + h.reserved;
  }

  /** The recorded book of a token as the venue holds it. */
  book(tokenId: TokenId): RecordedBook | undefined {
    return this.#venue.tokens.get(tokenId)?.book;
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
    return this.#roundTrip(() =>
      orders.map((o) => {
        const delayMs = this.#delayOf(o.request.tokenId);
        const result = arrive(this.#venue, o, this.#clock.now(), delayMs);
        if (result.ok && result.status === 'DELAYED') this.#hold(o, delayMs);
        return result;
      }),
    );
  }

  cancel(orderIds: readonly string[]): Observable<CancelOutcome> {
    return this.#roundTrip(() => {
      const canceled: string[] = [];
      const notCanceled: Record<string, string> = {};
      for (const id of orderIds) {
        const order = this.#venue.orders.get(id);
        if (!order || order.status === 'CANCELED' || order.status === 'UNMATCHED') notCanceled[id] = CANCEL_NOT_FOUND;
        else if (order.status === 'MATCHED') notCanceled[id] = CANCEL_ALREADY_MATCHED;
        else if (order.status === 'DELAYED') {
          this.#cancelHeld(order.id);
          canceled.push(id);
        } else {
          this.#venue.cancel(order);
          canceled.push(id);
        }
      }
      return { canceled, notCanceled };
    });
  }

  cancelAll(scope?: { conditionId?: ConditionId; tokenId?: TokenId }): Observable<CancelOutcome> {
    return this.#roundTrip(() => {
      const canceled: string[] = [];
      for (const prepared of [...this.#delayed.values()]) {
        const r = prepared.request;
        if (scope?.tokenId !== undefined && r.tokenId !== scope.tokenId) continue;
        if (scope?.conditionId !== undefined && r.conditionId !== scope.conditionId) continue;
        this.#cancelHeld(prepared.orderId);
        canceled.push(prepared.orderId);
      }
      for (const token of this.#venue.tokens.values()) {
        if (scope?.tokenId !== undefined && token.token.tokenId !== scope.tokenId) continue;
        if (scope?.conditionId !== undefined && token.token.conditionId !== scope.conditionId) continue;
        for (const order of [...token.bids, ...token.asks]) {
          this.#venue.cancel(order);
          canceled.push(order.id);
        }
      }
      return { canceled, notCanceled: {} };
    });
  }

  openOrders(): Observable<readonly VenueOrderState[]> {
    return this.#roundTrip(() => {
      const out: VenueOrderState[] = [];
      for (const token of this.#venue.tokens.values()) {
        this.#venue.expire(token, this.#clock.now());
        for (const order of token.bids) out.push(venueState(order));
        for (const order of token.asks) out.push(venueState(order));
      }
      for (const id of this.#delayed.keys()) {
        const order = this.#venue.orders.get(id);
        if (order) out.push(venueState(order));
      }
      return out;
    });
  }

  order(orderId: string): Observable<VenueOrderState | undefined> {
    return this.#roundTrip(() => {
      const order = this.#venue.orders.get(orderId);
      if (order) {
        const token = this.#venue.tokens.get(order.tokenId);
        if (token) this.#venue.expire(token, this.#clock.now());
      }
      return order ? venueState(order) : undefined;
    });
  }

  balance(): Observable<Micros> {
    return this.#roundTrip(() => this.#venue.account.collateral);
  }

  close(): void {
    this.#closed = true;
    this.#settleTimer?.sub.unsubscribe();
    this.#settleTimer = undefined;
    for (const s of this.#pending) s.unsubscribe();
    this.#pending.clear();
    this.#fills.complete();
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
        }, this.#latency.responseMs(this.#clock.now()));
      }, this.#latency.entryMs(this.#clock.now()));
      return () => {
        arrival.unsubscribe();
        answer?.unsubscribe();
      };
    });
  }

  /** Reports a fill to the engine after the response delay, and follows its settlement. */
  #report(matched: VenueFill): void {
    const schedule = this.#settlement;
    const status = schedule.instant ? 'CONFIRMED' : schedule.add(matched.tradeId, matched.tsEvent, matched);
    const fill = status === matched.status ? matched : { ...matched, status };
    this.#onFill?.(fill);
    this.#send(fill);
    if (status !== 'CONFIRMED') this.#wakeForSettlement();
  }

  #send(fill: VenueFill): void {
    if (this.#closed) return;
    const delay = this.#latency.responseMs(this.#clock.now());
    const sub = this.#clock.scheduler.schedule(() => {
      this.#pending.delete(sub);
      this.#fills.next({ ...fill, tsInit: this.#clock.now() });
    }, delay);
    this.#pending.add(sub);
  }

  // ---------------------------------------------------------------- settlement and delays

  /** Keeps one wake-up on the clock, at the next settlement step. */
  #wakeForSettlement(): void {
    const at = this.#settlement.nextAtMs;
    if (at === undefined || this.#closed) return;
    if (this.#settleTimer !== undefined && this.#settleTimer.atMs <= at) return;
    this.#settleTimer?.sub.unsubscribe();
    const sub = this.#clock.scheduler.schedule(() => {
      this.#settleTimer = undefined;
      this.#settlement.due(this.#clock.now(), (fill, _id, status, atMs) => this.#settled(fill, status, atMs));
      this.#wakeForSettlement();
    }, Math.max(0, at - this.#clock.now()));
    this.#settleTimer = { sub, atMs: at };
  }

  /** A fill's trade took a new status: reported like a fill (same trade id); a FAILED one is undone on our account. */
  #settled(fill: VenueFill, status: TradeStatus, atMs: number): void {
    if (status === 'FAILED') this.#venue.reverse(fill);
    const moved: VenueFill = { ...fill, status, tsEvent: atMs };
    this.#onFill?.(moved);
    this.#send(moved);
  }

  /** The matching delay of a token's market, ms. */
  #delayOf(tokenId: TokenId): number {
    return this.#matchingDelayMs ?? this.#venue.tokens.get(tokenId)?.token.takerDelayMs ?? 0;
  }

  /** A DELAYED order meets the book when its delay is over; one that cannot be placed then is UNMATCHED. */
  #hold(prepared: PreparedOrder, delayMs: number): void {
    const id = prepared.orderId;
    this.#delayed.set(id, prepared);
    const sub = this.#clock.scheduler.schedule(() => {
      this.#pending.delete(sub);
      if (this.#delayed.get(id) !== prepared) return; // cancelled while held
      this.#delayed.delete(id);
      const venue = this.#venue;
      const held = venue.orders.get(id);
      venue.orders.delete(id);
      venue.stats.orders--; // the same order, counted when it arrived
      const result = arrive(venue, prepared, this.#clock.now());
      if (!result.ok && held) {
        venue.orders.set(id, held);
        venue.close(held, 'UNMATCHED');
      }
    }, delayMs);
    this.#pending.add(sub);
  }

  /** Cancels an order held for its matching delay. */
  /** Every resting order of ours in a market cancelled by the venue itself (a game start's clear). */
  #clear(conditionId: ConditionId): void {
    for (const token of this.#venue.tokens.values()) {
      if (token.token.conditionId !== conditionId) continue;
      for (const order of [...token.bids, ...token.asks]) this.#venue.cancel(order);
    }
  }

  #cancelHeld(id: string): void {
    this.#delayed.delete(id);
    const order = this.#venue.orders.get(id);
    if (!order) return;
    this.#venue.close(order, 'CANCELED');
    this.#venue.stats.canceled++;
  }
}
