import { catchError, of, type Observable } from 'rxjs';
import type { FillEvent, LifecycleEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderRequest } from '../core/intents.ts';
import type { TokenId } from '../core/types.ts';
import type { VenueFill } from '../execution/execution-client.ts';
import { OPEN_STATUSES, type OrderRecord } from '../execution/order-tracker.ts';
import type { Portfolio, TokenBookState } from '../portfolio/portfolio.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { TradeStatus } from '../venue/domain/statuses.ts';
import { withRefs, type EngineDesk } from './engine-desk.ts';
import { ENGINE_METRICS, LIQUIDITY_LABELS } from './engine-metrics.ts';

/**
 * Books our fills and follows them to the chain. Each venue trade is booked once (one first seen
 * FAILED never: it is only stored as void), on its order record, in the portfolio and in the
 * strategy ledger (for the strategy whose order it was), then stored, journalled and handed to the
 * strategy that owns the order, with the `ref` and `group` of the order's intent. A fill is provisional until its trade is CONFIRMED: each later
 * status (MINED, RETRYING, CONFIRMED, FAILED) is told to the strategy as a SettlementChanged
 * event, and a FAILED one is void: the portfolio's cash, fees and the token's position and PnL
 * are as if it never filled, and so are its strategy's in the ledger (the token is rebuilt from
 * the fills since its first provisional one), the store moves it to its void fills and the journal says so. The order keeps its filled
 * size (the venue matched it; the chain refused the trade).
 *
 * Provisional and confirmed inventory are kept apart (`confirmedSize`); risk reads the worse of
 * the two (`riskSize`). Fills of orders we do not track (not ours, or from before this run) are
 * left to reconciliation.
 */
export class FillBook {
  readonly #desk: EngineDesk;
  readonly #portfolio: Portfolio;
  readonly #ledger: StrategyLedger | undefined;
  readonly #tell: ((event: LifecycleEvent) => void) | undefined;
  /** Trades booked and their total size, by order id (dropped with the order, see closedOrderRetentionMs). */
  readonly #booked = new Map<string, OrderFills>();
  /** Booked trades not final yet (by `tradeId:orderId`), kept even when their order is forgotten. */
  readonly #unsettled = new Map<string, BookedTrade>();
  /** Per token, the fills since its oldest provisional one still open, and its position before them. */
  readonly #windows = new Map<TokenId, TokenWindow>();
  /** Signed size of provisional fills per token. */
  readonly #provisional = new Map<TokenId, Micros>();
  readonly #counts = { confirmed: 0, failed: 0 };

  /**
   * `tell` hears each SettlementChanged (the engine's `lifecycle`); without it the event is only
   * journalled. `ledger`, when given, books each fill for the strategy whose order it was.
   */
  /** Told of each change of the cash a fill makes once it is stored (at: when the venue counted it). */
  cashMoved: ((at: number, effect: Micros) => void) | undefined;

  constructor(desk: EngineDesk, portfolio: Portfolio, tell?: (event: LifecycleEvent) => void, ledger?: StrategyLedger) {
    this.#desk = desk;
    this.#portfolio = portfolio;
    this.#tell = tell;
    this.#ledger = ledger;
  }

  /** Fills booked this life by settlement: CONFIRMED, still provisional, FAILED (void). */
  get settlement(): { readonly confirmed: number; readonly provisional: number; readonly failed: number } {
    const { confirmed, failed } = this.#counts;
    return { confirmed, provisional: this.#unsettled.size, failed };
  }

  /** Shares of a token held by CONFIRMED fills only. */
  confirmedSize(tokenId: TokenId): Micros {
    return (this.#portfolio.size(tokenId) ?? 0) - (this.#provisional.get(tokenId) ?? 0);
  }

  /** The position risk checks see: the provisional one (every fill) or the confirmed one, whichever is larger in size. */
  riskSize(tokenId: TokenId): Micros | undefined {
    const all = this.#portfolio.size(tokenId);
    if (all === undefined) return undefined;
    const confirmed = all - (this.#provisional.get(tokenId) ?? 0);
    return Math.abs(confirmed) > Math.abs(all) ? confirmed : all;
  }

  /**
   * Shares per token our BUY orders may hold at the venue beyond the fills booked on them, by
   * order id: what is left of an open BUY (it may have matched, its fill still on its way), and
   * what a closed one matched beyond its booked fills. A position the venue lists within this is
   * ours, however late its fills arrive (the account sync's `outside`).
   */
  unbookedBuys(): Map<TokenId, Micros> {
    const out = new Map<TokenId, Micros>();
    for (const record of this.#desk.tracker.all()) {
      const request = record.request;
      if (request.side !== 'BUY') continue;
      const booked = record.orderId === undefined ? 0 : (this.#booked.get(record.orderId)?.size ?? 0);
      const may = OPEN_STATUSES.has(record.status) ? request.size - booked : record.filled - booked;
      if (may > 0) out.set(request.tokenId, (out.get(request.tokenId) ?? 0) + may);
    }
    return out;
  }

  /**
   * Puts back the fills of a previous life of the run (booked, so never booked twice), each for
   * the strategy of its order (restore the orders first). One stored unconfirmed is provisional
   * again: its trade's next status (polled again) confirms or voids it.
   */
  restore(fills: readonly FillEvent[]): void {
    const tracker = this.#desk.tracker;
    for (const fill of fills) {
      const booked = this.#bookedOf(fill.orderId);
      if (booked.trades.has(fill.tradeId)) continue;
      booked.size += fill.size;
      const strategyId = tracker.byClientId(fill.clientOrderId)?.request.strategyId;
      booked.trades.set(fill.tradeId, this.#apply(fill, fill.confirmed ? 'CONFIRMED' : 'MATCHED', strategyId));
    }
  }

  /** Shares booked on an order by its fills so far (a fill first seen FAILED counts: the venue gave the shares back). */
  bookedSize(orderId: string): Micros {
    const booked = this.#booked.get(orderId);
    return booked === undefined ? 0 : booked.size + booked.failedFirst;
  }

  /** Forgets the trades booked on an order the engine no longer keeps (those still settling stay followed). */
  forget(orderId: string): void {
    this.#booked.delete(orderId);
  }

  /** Books one fill from the edge, or moves a booked one to its new status (call inside the tick's transaction). */
  onVenueFill(fill: VenueFill): void {
    const settling = this.#unsettled.get(`${fill.tradeId}:${fill.orderId}`);
    if (settling !== undefined) {
      if (fill.status !== settling.status) this.#move(settling, fill.status, fill.tsInit);
      return;
    }
    const desk = this.#desk;
    const { tracker } = desk;
    const record = tracker.byOrderId(fill.orderId);
    if (!record) return; // not ours (or from before this run: reconciliation adopts it)
    const booked = this.#bookedOf(fill.orderId);
    if (booked.trades.has(fill.tradeId)) return; // booked and final already
    if (fill.status === 'FAILED') {
      // failed before we booked it (a restart learned of it late): never booked, kept as void
      const voided = this.#event(record.request, fill, false);
      booked.trades.set(fill.tradeId, { fill: voided, status: 'FAILED', strategyId: record.request.strategyId, voided: true });
      booked.failedFirst += fill.size;
      this.#counts.failed++;
      desk.persistence?.voidFill?.(voided, desk.clock.now());
      return;
    }
    const confirmed = fill.status === 'CONFIRMED';
    booked.size += fill.size;
    const now = desk.clock.now();
    if (record.status === 'SUBMIT_UNKNOWN') this.#foundByFill(record, now);
    // the filled size may already count this fill: a restart's reconciliation takes the venue's
    // matched size before the fills behind it are polled, so it is never below what is booked
    tracker.setFilled(record, Math.min(record.request.size, Math.max(record.filled, booked.size)), now);
    desk.metrics.inc(ENGINE_METRICS.fills, LIQUIDITY_LABELS[fill.liquidity]);
    if (record.filled >= record.request.size) tracker.transition(record, 'FILLED', now);
    else if (record.status === 'LIVE' || record.status === 'PENDING_SUBMIT') tracker.transition(record, 'PARTIALLY_FILLED', now);
    const event = this.#event(record.request, fill, confirmed);
    const cashBefore = this.#portfolio.balance();
    booked.trades.set(fill.tradeId, this.#apply(event, fill.status, record.request.strategyId));
    if (confirmed) this.#counts.confirmed++;
    desk.persistence?.fill(event);
    // after the store has the fill: a cash anchor the account sync writes then comes after it
    this.cashMoved?.(fill.tsEvent, this.#portfolio.balance() - cashBefore);
    desk.fill(record.request.strategyId, event);
  }

  /**
   * A fill of an order whose post had no answer proves the venue took it: it is accepted (counted
   * as reconciliation would count it when found) and LIVE before the fill is booked, so the
   * strategy hears OrderAccepted before OrderFilled and the reconciliation that follows finds it
   * settled instead of counting it again.
   */
  #foundByFill(record: OrderRecord, now: number): void {
    const desk = this.#desk;
    desk.metrics.inc(ENGINE_METRICS.accepted);
    desk.metrics.inc(ENGINE_METRICS.reconciledFound);
    desk.tracker.transition(record, 'LIVE', now, 'found by a fill');
    desk.orderEvent(record.request.strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: record.orderId!, tsInit: now });
  }

  /** Asks the edge for our fills once more (on stop); emits once done, never errors. */
  flush$(): Observable<unknown> {
    const { execution, log } = this.#desk;
    if (!execution.flushFills) return of(undefined);
    return execution.flushFills().pipe(
      catchError((err: unknown) => {
        log.warn('last fills poll on stop failed', { err: String(err) });
        return of(undefined);
      }),
    );
  }

  #event(request: OrderRequest, fill: VenueFill, confirmed: boolean): FillEvent {
    const event: FillEvent = {
      type: 'OrderFilled',
      clientOrderId: request.clientOrderId,
      orderId: fill.orderId,
      tradeId: fill.tradeId,
      tokenId: fill.tokenId,
      side: fill.side,
      price: fill.price,
      size: fill.size,
      fee: fill.fee,
      liquidity: fill.liquidity,
      confirmed,
      tsEvent: fill.tsEvent,
      tsInit: fill.tsInit,
    };
    return Object.freeze(withRefs(event, request));
  }

  /** Applies a fill to the portfolio and, while it is provisional, follows it (returns what is booked). */
  #apply(fill: FillEvent, status: TradeStatus, strategyId: string | undefined): BookedTrade {
    const trade: BookedTrade = { fill, status, strategyId };
    const tokenId = fill.tokenId;
    let window = this.#windows.get(tokenId);
    const final = status === 'CONFIRMED';
    if (window === undefined && !final) {
      window = { base: this.#portfolio.tokenState(tokenId), bases: new Map(), fills: [], unsettled: 0 };
      this.#windows.set(tokenId, window);
    }
    const ledger = this.#ledger;
    if (ledger !== undefined && strategyId !== undefined) {
      // the strategy's position before its first fill in the window, to rebuild it from on a void
      if (window !== undefined && !window.bases.has(strategyId)) window.bases.set(strategyId, ledger.tokenState(strategyId, tokenId));
      ledger.applyFill(strategyId, fill);
    }
    this.#portfolio.applyFill(fill);
    if (window !== undefined) window.fills.push(trade);
    if (!final) {
      window!.unsettled++;
      this.#provisional.set(tokenId, (this.#provisional.get(tokenId) ?? 0) + signed(fill));
      this.#unsettled.set(`${fill.tradeId}:${fill.orderId}`, trade);
    }
    return trade;
  }

  /** A provisional fill's trade took a new status: told to its strategy; CONFIRMED is final, FAILED voids it. */
  #move(trade: BookedTrade, status: TradeStatus, at: number): void {
    const desk = this.#desk;
    const fill = trade.fill;
    trade.status = status;
    if (status === 'CONFIRMED' || status === 'FAILED') {
      this.#unsettled.delete(`${fill.tradeId}:${fill.orderId}`);
      this.#provisional.set(fill.tokenId, (this.#provisional.get(fill.tokenId) ?? 0) - signed(fill));
      const window = this.#windows.get(fill.tokenId)!;
      if (status === 'FAILED') this.#void(trade, window, at);
      else {
        this.#counts.confirmed++;
        desk.persistence?.fill({ ...fill, confirmed: true });
      }
      if (--window.unsettled === 0) this.#windows.delete(fill.tokenId);
    }
    const event: LifecycleEvent = Object.freeze({
      type: 'SettlementChanged',
      clientOrderId: fill.clientOrderId,
      tradeId: fill.tradeId,
      tokenId: fill.tokenId,
      status,
      tsInit: at,
    });
    if (this.#tell) this.#tell(event);
    else desk.emit({ type: 'lifecycle', event });
  }

  /** Takes a FAILED fill back: portfolio (the token rebuilt without it), store, log. */
  #void(trade: BookedTrade, window: TokenWindow, at: number): void {
    const desk = this.#desk;
    const fill = trade.fill;
    trade.voided = true;
    this.#counts.failed++;
    const cashBefore = this.#portfolio.balance();
    this.#portfolio.voidFill(fill, window.base, window.fills.filter((t) => t.voided !== true).map((t) => t.fill));
    const cashBack = this.#portfolio.balance() - cashBefore;
    const owner = trade.strategyId;
    const base = owner === undefined ? undefined : window.bases.get(owner);
    if (owner !== undefined && base !== undefined) {
      const kept = window.fills.filter((t) => t.voided !== true && t.strategyId === owner).map((t) => t.fill);
      this.#ledger?.voidFill(owner, fill, base, kept);
    }
    desk.persistence?.voidFill?.(fill, at);
    // the venue gave the cash back when the trade failed, some time before we learned it
    this.cashMoved?.(at, cashBack);
    desk.log.warn('a fill failed on chain and is void', { tradeId: fill.tradeId, orderId: fill.orderId, tokenId: fill.tokenId, side: fill.side, size: fill.size, price: fill.price });
  }

  #bookedOf(orderId: string): OrderFills {
    let booked = this.#booked.get(orderId);
    if (booked === undefined) {
      booked = { trades: new Map(), size: 0, failedFirst: 0 };
      this.#booked.set(orderId, booked);
    }
    return booked;
  }
}

function signed(fill: FillEvent): Micros {
  return fill.side === 'BUY' ? fill.size : -fill.size;
}

/** One booked trade of ours and where it is on its way to the chain. */
interface BookedTrade {
  readonly fill: FillEvent;
  status: TradeStatus;
  /** Owner of the order (undefined for a restored fill whose order is not known). */
  readonly strategyId: string | undefined;
  voided?: boolean;
}

/** The trades booked on one order, and their total size. */
interface OrderFills {
  readonly trades: Map<string, BookedTrade>;
  size: Micros;
  /** Size of its trades first seen FAILED (never booked: the venue matched them, then gave them back). */
  failedFirst: Micros;
}

/** A token's fills since its oldest provisional one not final yet, and its position before them. */
interface TokenWindow {
  readonly base: TokenBookState;
  /** Each strategy's position in the token before its first fill in the window (the ledger's). */
  readonly bases: Map<string, TokenBookState>;
  readonly fills: BookedTrade[];
  /** Provisional fills in it. */
  unsettled: number;
}
