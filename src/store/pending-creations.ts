import type { OrderStatus } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import type { OrderSave } from './order-writes.ts';
import type { RunStore } from './run-store.ts';

/** An order created inside the open transaction, not yet written: its row as it stands now. */
interface Held {
  readonly record: OrderRecord;
  readonly createdAt: number;
  readonly status: OrderStatus;
  orderId: string | undefined;
  filled: Micros;
  updatedAt: number;
}

/**
 * Orders created inside a transaction, written when its outermost level ends (before the commit),
 * so a change that leaves the status alone (the hash set before the post) lands in the INSERT
 * instead of an UPDATE after it. Nothing reads the orders inside the engine's transaction, and
 * nothing is visible before the commit, so the committed rows and their history are those of an
 * INSERT followed by the UPDATEs, except that the first history row carries the time of the last
 * merged change (the same tick). A change of status or one with a reason writes the order first,
 * then updates it as before. A nested level that throws forgets what it held or merged (its
 * savepoint rolled back the same writes).
 */
export class PendingCreations {
  readonly #store: Pick<RunStore, 'saveOrder' | 'stageOrders'>;
  readonly #held = new Map<OrderRecord, Held>();
  /** Undo steps of the merges and holds of the open levels, newest last. */
  readonly #undo: (() => void)[] = [];
  #depth = 0;

  constructor(store: Pick<RunStore, 'saveOrder' | 'stageOrders'>) {
    this.#store = store;
  }

  /** Runs one level of the transaction (`fn` is already inside the store's transaction). */
  within<T>(fn: () => T): T {
    const mark = this.#undo.length;
    this.#depth++;
    let ok = false;
    try {
      const result = fn();
      if (this.#depth === 1) this.#flush();
      ok = true;
      return result;
    } finally {
      this.#depth--;
      if (!ok) {
        // the store rolls back this level: so are its holds and merges
        while (this.#undo.length > mark) this.#undo.pop()!();
      }
      if (this.#depth === 0) {
        this.#held.clear();
        this.#undo.length = 0;
      }
    }
  }

  /** Holds a new order until the transaction ends; false outside a transaction (write it now). */
  hold(record: OrderRecord, at: number): boolean {
    if (this.#depth === 0) return false;
    this.#held.set(record, { record, createdAt: at, status: record.status, orderId: record.orderId, filled: record.filled, updatedAt: at });
    this.#undo.push(() => this.#held.delete(record));
    return true;
  }

  /**
   * Takes a change of a held order into its row when it leaves the status and reason alone (true);
   * else writes the held order now, so the caller's UPDATE finds it (false).
   */
  merge(record: OrderRecord, at: number, reason: string | undefined): boolean {
    const held = this.#held.get(record);
    if (held === undefined) return false;
    if (record.status === held.status && reason === undefined) {
      const { orderId, filled, updatedAt } = held;
      this.#undo.push(() => {
        held.orderId = orderId;
        held.filled = filled;
        held.updatedAt = updatedAt;
      });
      // an UPDATE keeps the stored order id when given none (coalesce)
      if (record.orderId !== undefined) held.orderId = record.orderId;
      held.filled = record.filled;
      held.updatedAt = at;
      return true;
    }
    this.#write(held);
    return false;
  }

  /** Writes every order still held, staged as one row (the orders of a tick's batches, before their post). */
  #flush(): void {
    const held = [...this.#held.values()];
    if (held.length === 0) return;
    for (const h of held) this.#forget(h);
    this.#store.stageOrders(held.map(saveOf));
  }

  #write(held: Held): void {
    this.#forget(held);
    const save = saveOf(held);
    this.#store.saveOrder(save.order, save.at, undefined, save.updatedAt);
  }

  /** No longer held (a level that throws puts it back). */
  #forget(held: Held): void {
    this.#held.delete(held.record);
    this.#undo.push(() => this.#held.set(held.record, held));
  }
}

/** The row of a held order as it stands. */
function saveOf(held: Held): OrderSave {
  const { record } = held;
  return { order: { request: record.request, status: held.status, orderId: held.orderId, filled: held.filled }, at: held.createdAt, updatedAt: held.updatedAt };
}
