import type { Micros } from '../core/fixed.ts';
import type { OrderSnapshot, OrderStatus } from '../strategy/api.ts';
import type { OrderRequest } from '../strategy/intents.ts';

/** Statuses in which an order may still trade. */
export const OPEN_STATUSES: ReadonlySet<OrderStatus> = new Set(['PENDING_SUBMIT', 'SUBMIT_UNKNOWN', 'LIVE', 'PARTIALLY_FILLED', 'CANCEL_PENDING']);

export interface OrderRecord {
  readonly request: OrderRequest;
  orderId: string | undefined;
  status: OrderStatus;
  filled: Micros;
  /** Set when a cancel was asked for before the venue acknowledged the order. */
  cancelWhenLive: boolean;
  readonly history: { status: OrderStatus; at: number; reason?: string }[];
}

/**
 * Every order of the run by client order id and by venue order id, with its state history.
 * The single source of truth for "what do we have out there"; snapshots handed to strategies
 * are frozen copies.
 */
export class OrderTracker {
  readonly #byClientId = new Map<string, OrderRecord>();
  readonly #byOrderId = new Map<string, OrderRecord>();

  add(request: OrderRequest, at: number): OrderRecord {
    if (this.#byClientId.has(request.clientOrderId)) throw new Error(`duplicate client order id ${request.clientOrderId}`);
    const record: OrderRecord = {
      request,
      orderId: undefined,
      status: 'PENDING_SUBMIT',
      filled: 0,
      cancelWhenLive: false,
      history: [{ status: 'PENDING_SUBMIT', at }],
    };
    this.#byClientId.set(request.clientOrderId, record);
    return record;
  }

  setOrderId(record: OrderRecord, orderId: string): void {
    record.orderId = orderId;
    this.#byOrderId.set(orderId, record);
  }

  transition(record: OrderRecord, status: OrderStatus, at: number, reason?: string): boolean {
    if (record.status === status) return false;
    record.status = status;
    record.history.push(reason === undefined ? { status, at } : { status, at, reason });
    return true;
  }

  byClientId(id: string): OrderRecord | undefined {
    return this.#byClientId.get(id);
  }

  byOrderId(id: string): OrderRecord | undefined {
    return this.#byOrderId.get(id);
  }

  all(): IterableIterator<OrderRecord> {
    return this.#byClientId.values();
  }

  /** Orders that may still trade, optionally of one strategy and/or token. */
  open(filter: { strategyId?: string; tokenId?: string; conditionId?: string } = {}): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const record of this.#byClientId.values()) {
      if (!OPEN_STATUSES.has(record.status)) continue;
      const r = record.request;
      if (filter.strategyId !== undefined && r.strategyId !== filter.strategyId) continue;
      if (filter.tokenId !== undefined && r.tokenId !== filter.tokenId) continue;
      if (filter.conditionId !== undefined && r.conditionId !== filter.conditionId) continue;
      out.push(record);
    }
    return out;
  }

  remaining(record: OrderRecord): Micros {
    return Math.max(0, record.request.size - record.filled);
  }

  snapshot(record: OrderRecord): OrderSnapshot {
    const r = record.request;
    return Object.freeze({
      clientOrderId: r.clientOrderId,
      orderId: record.orderId,
      strategyId: r.strategyId,
      tokenId: r.tokenId,
      conditionId: r.conditionId,
      side: r.side,
      price: r.price,
      size: r.size,
      filled: record.filled,
      status: record.status,
      orderType: r.orderType ?? 'GTC',
      postOnly: r.postOnly ?? false,
      tag: r.tag,
      createdAt: r.createdAt,
    });
  }
}
