import type { ConditionId, TokenId } from '../../core/types.ts';
import type { OrderState, OutcomeIndex, SimOrderRequest } from '../types.ts';
import type { OrderQuery } from './order-registry.ts';

/** A marketable order held for its market's matching delay. */
interface Held {
  readonly request: SimOrderRequest;
  readonly dueMs: number;
  /** Its view while it waits (status DELAYED). */
  readonly state: OrderState;
}

/**
 * Marketable orders the venue holds for their market's matching delay (the venue's `DELAYED`,
 * markets' `seconds_delay` / `taker_order_delay_ms`) before they meet the book: answered
 * `delayed`, then matched as they stand when the delay is over, or `UNMATCHED` when they can no
 * longer be placed (a FOK that would not fill, a FAK with nothing to match, funds spent since).
 * A held order reserves nothing, is listed among its owner's open orders and can be cancelled.
 * What became of a held order that never reached the book (UNMATCHED, or cancelled while held)
 * stays queryable by id unless its owner is transient.
 */
export class DelayedOrders {
  readonly #held = new Map<string, Held>();
  /** Held ids by due time (stable for ties). */
  readonly #queue: Held[] = [];
  readonly #ended = new Map<string, OrderState>();
  readonly #transient: ((owner: string) => boolean) | undefined;

  constructor(transientOwner: ((owner: string) => boolean) | undefined) {
    this.#transient = transientOwner;
  }

  get size(): number {
    return this.#held.size;
  }

  /** True when the id is held or ended here (a duplicate). */
  known(id: string): boolean {
    return this.#held.has(id) || this.#ended.has(id);
  }

  /** The order's view: DELAYED while held, its end (UNMATCHED, CANCELED) after. */
  state(id: string): OrderState | undefined {
    return this.#held.get(id)?.state ?? this.#ended.get(id);
  }

  hold(request: SimOrderRequest, dueMs: number, state: OrderState): void {
    const held: Held = { request, dueMs, state };
    this.#held.set(request.id, held);
    const queue = this.#queue;
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.dueMs > dueMs) at--;
    queue.splice(at, 0, held);
  }

  /** Takes the orders whose delay is over at `now`, oldest due first. */
  takeDue(now: number): SimOrderRequest[] {
    const out: SimOrderRequest[] = [];
    const queue = this.#queue;
    while (queue.length > 0 && queue[0]!.dueMs <= now) {
      const held = queue.shift()!;
      if (this.#held.get(held.request.id) !== held) continue; // cancelled while held
      this.#held.delete(held.request.id);
      out.push(held.request);
    }
    return out;
  }

  /** Ends a held order that never reached the book; `status` UNMATCHED (refused at the end of its delay) or CANCELED. */
  end(request: SimOrderRequest, state: OrderState, status: 'UNMATCHED' | 'CANCELED'): void {
    this.#held.delete(request.id);
    if (this.#transient?.(request.owner) === true) return;
    this.#ended.set(request.id, Object.freeze({ ...state, status, cancelReason: status === 'CANCELED' ? 'USER' : undefined }));
  }

  /** Cancels a held order of `owner`; false when it is not held (or not the owner's). */
  cancel(id: string, owner: string): boolean {
    const held = this.#held.get(id);
    if (held === undefined || held.request.owner !== owner) return false;
    this.end(held.request, held.state, 'CANCELED');
    return true;
  }

  /** Held orders of `owner` in the scope, cancelled; returns their ids. */
  cancelScope(owner: string, scope: { conditionId?: ConditionId; tokenId?: TokenId }): string[] {
    const out: string[] = [];
    for (const held of [...this.#held.values()]) {
      if (held.request.owner !== owner) continue;
      if (scope.conditionId !== undefined && held.state.conditionId !== scope.conditionId) continue;
      if (scope.tokenId !== undefined && held.request.tokenId !== scope.tokenId) continue;
      this.end(held.request, held.state, 'CANCELED');
      out.push(held.request.id);
    }
    return out;
  }

  /** Held orders matching the query. */
  list(query: OrderQuery): OrderState[] {
    const out: OrderState[] = [];
    for (const held of this.#held.values()) {
      const s = held.state;
      if (query.owner !== undefined && s.owner !== query.owner) continue;
      if (query.conditionId !== undefined && s.conditionId !== query.conditionId) continue;
      if (query.tokenId !== undefined && s.tokenId !== query.tokenId) continue;
      out.push(s);
    }
    return out;
  }
}

/** The view of an order that never reached the book: held (DELAYED) or refused at the end of its delay (UNMATCHED). */
export function heldOrderState(req: SimOrderRequest, conditionId: ConditionId, outcomeIndex: OutcomeIndex, status: 'DELAYED' | 'UNMATCHED'): OrderState {
  return {
    id: req.id,
    status,
    conditionId,
    tokenId: req.tokenId,
    outcomeIndex,
    owner: req.owner,
    address: req.address,
    side: req.side,
    price: req.price,
    originalSize: req.size,
    sizeMatched: 0,
    openSize: status === 'DELAYED' ? req.size : 0,
    type: req.type,
    postOnly: req.postOnly === true,
    createdAt: req.createdAt,
    expiration: req.type === 'GTD' ? req.expiration : undefined,
    clientMetadata: req.clientMetadata,
    associateTrades: [],
    cancelReason: undefined,
  };
}
