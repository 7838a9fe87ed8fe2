import type { Micros } from '../core/fixed.ts';
import type { OrderSnapshot, OrderStatus } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';

/** Statuses in which an order may still trade. */
export const OPEN_STATUSES: ReadonlySet<OrderStatus> = new Set(['PENDING_SUBMIT', 'SUBMIT_UNKNOWN', 'LIVE', 'PARTIALLY_FILLED', 'CANCEL_PENDING']);

export interface OrderRecord {
  readonly request: OrderRequest;
  orderId: string | undefined;
  status: OrderStatus;
  filled: Micros;
  /** Set when a cancel was asked for before the venue acknowledged the order. */
  cancelWhenLive: boolean;
  /**
   * When the engine turn that made the order began (the market event its strategy answered), on
   * the engine's stopwatch (ms, monotonic); the start of its tick-to-trade. 0 when restored.
   */
  tickAt: number;
  /**
   * Shares the venue said matched when it answered the post (absent before the answer, or when it
   * did not say): a FAK/FOK order is done once its fills book this much.
   */
  matched?: Micros;
  /**
   * What the venue pushed of the order (the user channel) before the engine could act on it
   * (src/engine/venue-order-updates.ts), venue time ms: it placed the order while our post was
   * unanswered, or cancelled it (the engine's own reason for the cancel, when it has one, labels it).
   */
  venuePlacedAt?: number;
  venueCancelledAt?: number;
  readonly history: { status: OrderStatus; at: number; reason?: string }[];
}

/**
 * Every order of the run by client order id and by venue order id, with its state history.
 * The single source of truth for "what do we have out there"; snapshots handed to strategies
 * are frozen copies.
 */
/** Told of every change, in order (the persistence hook: a store writes them durably). */
export interface OrderTrackerListener {
  created(record: OrderRecord, at: number): void;
  changed(record: OrderRecord, at: number, reason?: string): void;
}

export class OrderTracker {
  readonly #byClientId = new Map<string, OrderRecord>();
  readonly #byOrderId = new Map<string, OrderRecord>();
  #listener: OrderTrackerListener | undefined;
  /** Told of every status change, after the listener (see `onStatus`). */
  readonly #statusWatchers: ((record: OrderRecord) => void)[] = [];
  /** Told of every change of a filled size (see `onFilled`). */
  readonly #fillWatchers: ((record: OrderRecord) => void)[] = [];
  /**
   * The records in an open status, in creation order, so `open()` does not walk the whole history
   * (a long backtest places hundreds of thousands of orders). Rebuilt from `#byClientId` when a
   * record got there another way than `add`.
   */
  #open = new Map<string, OrderRecord>();
  #indexed = 0;
  /** Records in the order they closed, for `forget`. */
  #closed: OrderRecord[] = [];
  #closedHead = 0;
  /** The newest order of each (strategy, ref), for `byRef`. */
  readonly #byRef = new Map<string, OrderRecord>();

  listen(listener: OrderTrackerListener | undefined): void {
    this.#listener = listener;
  }

  /** Calls `watcher` after each status change of an order (the quote holds wait on cancels' answers). */
  onStatus(watcher: (record: OrderRecord) => void): void {
    this.#statusWatchers.push(watcher);
  }

  /** Calls `watcher` after each change of an order's filled size (a fill booked on a closed order changes no status). */
  onFilled(watcher: (record: OrderRecord) => void): void {
    this.#fillWatchers.push(watcher);
  }

  /** Puts back an order from a previous life of the run (no listener call: it is stored already). */
  restore(request: OrderRequest, state: { orderId: string | undefined; status: OrderStatus; filled: Micros; at: number }): OrderRecord {
    const record: OrderRecord = {
      request,
      orderId: state.orderId,
      status: state.status,
      filled: state.filled,
      cancelWhenLive: false,
      tickAt: 0,
      history: [{ status: state.status, at: state.at, reason: 'restored' }],
    };
    this.#byClientId.set(request.clientOrderId, record);
    if (state.orderId) this.#byOrderId.set(state.orderId, record);
    if (request.ref !== undefined) this.#byRef.set(refKey(request.strategyId, request.ref), record);
    if (!OPEN_STATUSES.has(state.status)) this.#closed.push(record);
    this.#rebuild();
    return record;
  }

  add(request: OrderRequest, at: number): OrderRecord {
    if (this.#byClientId.has(request.clientOrderId)) throw new Error(`duplicate client order id ${request.clientOrderId}`);
    const record: OrderRecord = {
      request,
      orderId: undefined,
      status: 'PENDING_SUBMIT',
      filled: 0,
      cancelWhenLive: false,
      tickAt: 0,
      history: [{ status: 'PENDING_SUBMIT', at }],
    };
    this.#index();
    this.#byClientId.set(request.clientOrderId, record);
    if (request.ref !== undefined) this.#byRef.set(refKey(request.strategyId, request.ref), record);
    this.#open.set(request.clientOrderId, record);
    this.#indexed++;
    this.#listener?.created(record, at);
    return record;
  }

  setOrderId(record: OrderRecord, orderId: string, at: number): void {
    record.orderId = orderId;
    this.#byOrderId.set(orderId, record);
    this.#listener?.changed(record, at);
  }

  /** Records a fill amount change (the status may stay). */
  setFilled(record: OrderRecord, filled: Micros, at: number): void {
    record.filled = filled;
    this.#listener?.changed(record, at);
    for (const watcher of this.#fillWatchers) watcher(record);
  }

  transition(record: OrderRecord, status: OrderStatus, at: number, reason?: string): boolean {
    if (record.status === status) return false;
    record.status = status;
    this.#index();
    if (!OPEN_STATUSES.has(status)) {
      if (this.#open.delete(record.request.clientOrderId)) this.#closed.push(record);
    } else if (!this.#open.has(record.request.clientOrderId)) this.#rebuild(); // open again (rare): back in creation order
    record.history.push(reason === undefined ? { status, at } : { status, at, reason });
    this.#listener?.changed(record, at, reason);
    for (const watcher of this.#statusWatchers) watcher(record);
    return true;
  }

  /**
   * Drops orders that closed before `before` (epoch ms) from the lookups, so a long run does not
   * keep every order it ever placed; returns them. Open orders are never dropped, nor an order
   * that changed after `before`. (The store keeps everything; this is memory only.)
   */
  forget(before: number): OrderRecord[] {
    const out: OrderRecord[] = [];
    const queue = this.#closed;
    let head = this.#closedHead;
    while (head < queue.length) {
      const record = queue[head]!;
      const last = record.history[record.history.length - 1]!.at;
      if (last >= before && !OPEN_STATUSES.has(record.status)) break;
      head++;
      // reopened since (it will be queued again when it closes), or changed since: not now
      if (OPEN_STATUSES.has(record.status) || last >= before) continue;
      const id = record.request.clientOrderId;
      if (this.#byClientId.get(id) !== record) continue;
      this.#byClientId.delete(id);
      if (record.orderId !== undefined && this.#byOrderId.get(record.orderId) === record) this.#byOrderId.delete(record.orderId);
      const ref = record.request.ref;
      if (ref !== undefined) {
        const key = refKey(record.request.strategyId, ref);
        if (this.#byRef.get(key) === record) this.#byRef.delete(key);
      }
      this.#indexed--;
      out.push(record);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    this.#closedHead = head;
    return out;
  }

  byClientId(id: string): OrderRecord | undefined {
    return this.#byClientId.get(id);
  }

  byOrderId(id: string): OrderRecord | undefined {
    return this.#byOrderId.get(id);
  }

  /**
   * A strategy's order by its intent's `ref` or by its client order id (the ref first): the
   * newest order with that ref when several share it (a quote's orders do). Orders forgotten
   * (closed past the retention) are not found.
   */
  byRef(strategyId: string, refOrClientOrderId: string): OrderRecord | undefined {
    const byRef = this.#byRef.get(refKey(strategyId, refOrClientOrderId));
    if (byRef !== undefined) return byRef;
    const record = this.#byClientId.get(refOrClientOrderId);
    return record !== undefined && record.request.strategyId === strategyId ? record : undefined;
  }

  all(): IterableIterator<OrderRecord> {
    return this.#byClientId.values();
  }

  /** Orders that may still trade, optionally of one strategy and/or token. */
  open(filter: { strategyId?: string; tokenId?: string; conditionId?: string } = {}): OrderRecord[] {
    this.#index();
    const out: OrderRecord[] = [];
    for (const record of this.#open.values()) {
      if (!OPEN_STATUSES.has(record.status)) continue;
      const r = record.request;
      if (filter.strategyId !== undefined && r.strategyId !== filter.strategyId) continue;
      if (filter.tokenId !== undefined && r.tokenId !== filter.tokenId) continue;
      if (filter.conditionId !== undefined && r.conditionId !== filter.conditionId) continue;
      out.push(record);
    }
    return out;
  }

  #index(): void {
    if (this.#indexed !== this.#byClientId.size) this.#rebuild();
  }

  #rebuild(): void {
    const open = new Map<string, OrderRecord>();
    for (const [id, record] of this.#byClientId) if (OPEN_STATUSES.has(record.status)) open.set(id, record);
    this.#open = open;
    this.#indexed = this.#byClientId.size;
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
      ref: r.ref,
      group: r.group,
      createdAt: r.createdAt,
    });
  }
}

/** The key of a (strategy, ref) pair (a strategy id holds no NUL). */
function refKey(strategyId: string, ref: string): string {
  return `${strategyId}\u0000${ref}`;
}
