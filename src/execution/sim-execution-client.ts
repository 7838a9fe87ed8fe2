import { Observable, Subject, timer, map, type Observable as Obs } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { Micros } from '../core/fixed.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { MatchingEngine } from '../sim/matching-engine.ts';
import type { OrderState, SimEvent } from '../sim/types.ts';
import type { OrderRequest } from '../core/intents.ts';
import type { CancelOutcome, ExecutionClient, PreparedOrder, SubmitResult, VenueFill, VenueOrderState } from './execution-client.ts';

export interface SimExecutionOptions {
  readonly clock: Clock;
  readonly engine: MatchingEngine;
  /** Our account in the matching engine: owner (API-key-like id) and wallet address. */
  readonly owner: string;
  readonly address: string;
  /** One-way delay of an order or cancel reaching the simulated venue, ms on the clock. */
  readonly latencyMs?: number;
  readonly kind?: string;
}

/**
 * The simulated execution edge (paper and backtest): orders go to the matching engine of
 * `src/sim/` after a latency on the run's clock; fills come from its events. No signing, no
 * network, deterministic under a simulated clock.
 */
export class SimExecutionClient implements ExecutionClient {
  readonly kind: string;
  readonly #opts: SimExecutionOptions;
  readonly #fills = new Subject<VenueFill>();
  readonly fills$: Obs<VenueFill> = this.#fills.asObservable();
  readonly #unsubscribe: () => void;

  constructor(options: SimExecutionOptions) {
    this.#opts = options;
    this.kind = options.kind ?? 'sim';
    this.#unsubscribe = options.engine.onEvent((event: SimEvent) => {
      if (event.type !== 'OrderFilled' || event.owner !== options.owner) return;
      this.#fills.next({
        tradeId: event.tradeId,
        orderId: event.orderId,
        tokenId: event.tokenId,
        side: event.side,
        price: event.price,
        size: event.size,
        fee: event.fee,
        liquidity: event.role,
        status: 'CONFIRMED',
        tsEvent: event.ts,
        tsInit: options.clock.now(),
      });
    });
  }

  #later<T>(fn: () => T): Observable<T> {
    return timer(this.#opts.latencyMs ?? 0, this.#opts.clock.scheduler).pipe(map(() => fn()));
  }

  prepare(requests: readonly OrderRequest[]): Observable<readonly PreparedOrder[]> {
    return new Observable((subscriber) => {
      subscriber.next(requests.map((request) => ({ request, orderId: `sim-${request.clientOrderId}`, payload: undefined })));
      subscriber.complete();
    });
  }

  submit(orders: readonly PreparedOrder[]): Observable<readonly SubmitResult[]> {
    return this.#later(() =>
      orders.map((order): SubmitResult => {
        const r = order.request;
        const now = this.#opts.clock.now();
        const result = this.#opts.engine.submit(
          {
            id: order.orderId,
            owner: this.#opts.owner,
            address: this.#opts.address,
            tokenId: r.tokenId,
            side: r.side,
            price: r.price,
            size: r.size,
            type: r.orderType ?? 'GTC',
            postOnly: r.postOnly,
            expiration: r.expiresAt,
            createdAt: now,
            clientMetadata: r.clientOrderId,
          },
          now,
        );
        if (result.status === 'REJECTED') return { ok: false, orderId: order.orderId, errorMsg: result.errorMsg };
        return { ok: true, orderId: result.orderId, status: result.status, making: result.makingAmount, taking: result.takingAmount };
      }),
    );
  }

  cancel(orderIds: readonly string[]): Observable<CancelOutcome> {
    return this.#later(() => {
      const out = this.#opts.engine.cancelOrders(orderIds, this.#opts.owner, this.#opts.clock.now());
      return { canceled: out.canceled, notCanceled: out.notCanceled };
    });
  }

  cancelAll(scope?: { conditionId?: ConditionId; tokenId?: TokenId }): Observable<CancelOutcome> {
    return this.#later(() => {
      const now = this.#opts.clock.now();
      const out = scope ? this.#opts.engine.cancelMarket(this.#opts.owner, scope, now) : this.#opts.engine.cancelAll(this.#opts.owner, now);
      return { canceled: out.canceled, notCanceled: out.notCanceled };
    });
  }

  openOrders(): Observable<readonly VenueOrderState[]> {
    return this.#later(() => this.#opts.engine.openOrders({ owner: this.#opts.owner }).map(toVenueState));
  }

  order(orderId: string): Observable<VenueOrderState | undefined> {
    return this.#later(() => {
      const state = this.#opts.engine.order(orderId);
      return state && state.owner === this.#opts.owner ? toVenueState(state) : undefined;
    });
  }

  balance(): Observable<Micros> {
    return this.#later(() => this.#opts.engine.ledger.balance(this.#opts.address).collateral);
  }

  close(): void {
    this.#unsubscribe();
    this.#fills.complete();
  }
}

function toVenueState(state: OrderState): VenueOrderState {
  return {
    orderId: state.id,
    status: state.status,
    tokenId: state.tokenId,
    conditionId: state.conditionId,
    side: state.side,
    price: state.price,
    originalSize: state.originalSize,
    sizeMatched: state.sizeMatched,
    clientOrderId: state.clientMetadata,
  };
}
