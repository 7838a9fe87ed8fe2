import type { Observable } from 'rxjs';
import type { Micros } from '../core/fixed.ts';
import type { ConditionId, Side, TokenId } from '../core/types.ts';
import type { OrderRequest } from '../core/intents.ts';
import type { TradeStatus, VenueOrderStatus } from '../venue/domain/statuses.ts';

/**
 * The execution edge. Live sends signed orders to the venue; paper and backtest hand them to the
 * simulated matching engine. The engine above it is the same code in every mode.
 *
 * Calls return cold Observables that emit once: a live client wraps its HTTP promise, a simulated
 * one answers on the run's clock (after its latency model), so a backtest stays deterministic.
 */
/**
 * What one poll read: every page of our trades in its window (`complete`), or not, and why. An
 * incomplete poll's fills are emitted (each is a fact) but its window is not advanced, so the
 * trades of the pages it missed are asked for again; it is never taken as the whole.
 */
export type FillsSnapshot =
  | {
      readonly complete: true;
      readonly at: number;
      /** When the read began (its first page was asked for): every fill matched before then is in it. Absent when not known. */
      readonly from?: number;
    }
  | {
      readonly complete: false;
      readonly at: number;
      readonly reason: string;
      /** A gap began (the user channel dropped): fills may be missing until the next complete read, so markets wait for it. */
      readonly gap?: true;
    };

export interface ExecutionClient {
  /** Short name for logs and summaries: 'live', 'paper', 'backtest'. */
  readonly kind: string;
  /**
   * Precomputes the venue order id (EIP-712 hash in live) for a request before it is sent, so an
   * outcome-unknown post can be reconciled by it.
   */
  prepare(requests: readonly OrderRequest[]): Observable<readonly PreparedOrder[]>;
  /**
   * Submits up to 15 prepared orders as one batch. Emits one result per order in request order.
   * Errors with OutcomeUnknownError (carrying the hashes) when the venue may or may not have them.
   */
  submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]>;
  /** Cancels orders by venue id. */
  cancel(orderIds: readonly string[]): Observable<CancelOutcome>;
  /** Cancels every open order of the account (or of one market). */
  cancelAll(scope?: { conditionId?: ConditionId; tokenId?: TokenId }): Observable<CancelOutcome>;
  /** Venue view of our open orders (reconciliation). */
  openOrders(): Observable<readonly VenueOrderState[]>;
  /** Venue view of one order by id (reconciliation of SUBMIT_UNKNOWN), undefined when unknown. */
  order(orderId: string): Observable<VenueOrderState | undefined>;
  /** Our fills as they happen (live: polled from the account's trades). */
  readonly fills$: Observable<VenueFill>;
  /** Sends a heartbeat; absent where the venue has none (simulation). */
  heartbeat?(previousId: string): Observable<string>;
  /** Collateral balance when the edge knows it. */
  balance?(): Observable<Micros>;
  /**
   * Asks the venue for our fills once more, now, and emits the new ones on `fills$` before it
   * completes. The engine calls it when it stops, after its cancel-all, so a fill in the last
   * moments is booked. Edges whose fills cannot lag (simulated ones) leave it out.
   */
  flushFills?(): Observable<unknown>;
  /**
   * Live: after each look at our trades, whether it read every page (see FillsSnapshot). The
   * engine trades no market until one complete look after the start (and after a heartbeat
   * recovered). Edges whose fills cannot be partial (simulated ones) leave it out.
   */
  readonly fillsSnapshot$?: Observable<FillsSnapshot>;
  /**
   * Live with the user channel: what the venue says of our orders as it happens: placed, matched,
   * cancelled (our own cancels too, and the venue's: its dead-man switch, a cleared market, a
   * resolution). Absent elsewhere.
   */
  readonly orderUpdates$?: Observable<VenueOrderUpdate>;
  /** Releases timers, sockets and pollers. */
  close(): void;
}

/**
 * One of our orders as the venue pushed it (the user channel's `order` messages): `placed` (the
 * venue took it: PLACEMENT), `matched` (in part or whole, `state.sizeMatched` so far: UPDATE),
 * `cancelled` (CANCELLATION). `at`: the venue's time of the change (ms) when it said, else when
 * the message was received; `tsInit`: when it was received, on the run's clock.
 */
export interface VenueOrderUpdate {
  readonly event: 'placed' | 'matched' | 'cancelled';
  readonly state: VenueOrderState;
  readonly at: number;
  readonly tsInit: number;
}

export interface PreparedOrder {
  readonly request: OrderRequest;
  /** The venue's order id, known before sending. */
  readonly orderId: string;
  /** Edge-specific payload (the signed order JSON in live). */
  readonly payload: unknown;
}

export type SubmitResult =
  | { readonly ok: true; readonly orderId: string; readonly status: VenueOrderStatus; readonly making: Micros; readonly taking: Micros }
  | { readonly ok: false; readonly orderId: string; readonly errorMsg: string };

export interface CancelOutcome {
  readonly canceled: readonly string[];
  readonly notCanceled: Readonly<Record<string, string>>;
}

export interface VenueOrderState {
  readonly orderId: string;
  readonly status: VenueOrderStatus;
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly side: Side;
  readonly price: Micros;
  readonly originalSize: Micros;
  readonly sizeMatched: Micros;
  /** Our client order id, decoded from the order's 32-byte metadata; undefined when not ours. */
  readonly clientOrderId: string | undefined;
}

export interface VenueFill {
  readonly tradeId: string;
  readonly orderId: string;
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  readonly fee: Micros;
  readonly liquidity: 'MAKER' | 'TAKER';
  /** Provisional until CONFIRMED; a FAILED trade is void. */
  readonly status: TradeStatus;
  readonly tsEvent: number;
  readonly tsInit: number;
}
