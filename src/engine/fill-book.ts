import { catchError, of, type Observable } from 'rxjs';
import type { FillEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { VenueFill } from '../execution/execution-client.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { EngineDesk } from './engine-desk.ts';

/**
 * Books our fills: each venue trade once (a later CONFIRMED of a trade already booked only marks
 * it confirmed, a FAILED one is never booked), on its order record and in the portfolio, then
 * stores it, journals it and hands it to the strategy that owns the order. Fills of orders we do
 * not track (not ours, or from before this run) are left to reconciliation.
 */
export class FillBook {
  readonly #desk: EngineDesk;
  readonly #portfolio: Portfolio;
  /** Trades booked and their total size, by order id (dropped with the order, see closedOrderRetentionMs). */
  readonly #booked = new Map<string, OrderFills>();

  constructor(desk: EngineDesk, portfolio: Portfolio) {
    this.#desk = desk;
    this.#portfolio = portfolio;
  }

  /** Puts back the fills of a previous life of the run (booked, so never booked twice). */
  restore(fills: readonly FillEvent[]): void {
    for (const fill of fills) {
      const booked = this.#bookedOf(fill.orderId);
      booked.trades.set(fill.tradeId, { confirmed: fill.confirmed });
      booked.size += fill.size;
      this.#portfolio.applyFill(fill);
    }
  }

  /** Forgets the trades booked on an order the engine no longer keeps. */
  forget(orderId: string): void {
    this.#booked.delete(orderId);
  }

  /** Books one fill from the edge (call inside the tick's transaction). */
  onVenueFill(fill: VenueFill): void {
    const desk = this.#desk;
    const { tracker } = desk;
    const record = tracker.byOrderId(fill.orderId);
    if (!record) return; // not ours (or from before this run: reconciliation adopts it)
    const booked = this.#bookedOf(fill.orderId);
    const seen = booked.trades.get(fill.tradeId);
    const confirmed = fill.status === 'CONFIRMED';
    if (seen) {
      if (confirmed && !seen.confirmed) seen.confirmed = true;
      return;
    }
    if (fill.status === 'FAILED') return;
    booked.trades.set(fill.tradeId, { confirmed });
    booked.size += fill.size;
    const now = desk.clock.now();
    // the filled size may already count this fill: a restart's reconciliation takes the venue's
    // matched size before the fills behind it are polled, so it is never below what is booked
    tracker.setFilled(record, Math.min(record.request.size, Math.max(record.filled, booked.size)), now);
    desk.counters.fills++;
    this.#portfolio.applyFill({ tokenId: fill.tokenId, side: fill.side, price: fill.price, size: fill.size, fee: fill.fee });
    if (record.filled >= record.request.size) tracker.transition(record, 'FILLED', now);
    else if (record.status === 'LIVE' || record.status === 'PENDING_SUBMIT') tracker.transition(record, 'PARTIALLY_FILLED', now);
    const event: FillEvent = Object.freeze({
      type: 'OrderFilled',
      clientOrderId: record.request.clientOrderId,
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
    });
    desk.persistence?.fill(event);
    desk.fill(record.request.strategyId, event);
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

  #bookedOf(orderId: string): OrderFills {
    let booked = this.#booked.get(orderId);
    if (booked === undefined) {
      booked = { trades: new Map(), size: 0 };
      this.#booked.set(orderId, booked);
    }
    return booked;
  }
}

/** The trades booked on one order, and their total size. */
interface OrderFills {
  readonly trades: Map<string, { confirmed: boolean }>;
  size: Micros;
}
