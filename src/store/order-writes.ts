import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import { checkMicros, storeFailure } from './store-file.ts';
import type { OrderStateInput, OrderUpdate } from './store-types.ts';

/**
 * The store's order writes, each statement prepared once. The request of an order is immutable:
 * saving another request under a stored client order id is refused (an id reused would be a bug
 * that could double an order).
 */
export class OrderWrites {
  readonly #file: string;
  readonly #insert: Database.Statement;
  readonly #update: Database.Statement;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    this.#insert = db.prepare(
      `INSERT INTO orders (client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
                           status, status_reason, filled, request, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (client_order_id) DO UPDATE SET
         order_id = coalesce(excluded.order_id, orders.order_id),
         status_reason = CASE WHEN orders.status = excluded.status AND excluded.status_reason IS NULL THEN orders.status_reason ELSE excluded.status_reason END,
         status = excluded.status,
         filled = excluded.filled,
         updated_at = excluded.updated_at
       WHERE orders.request = excluded.request`,
    );
    this.#update = db.prepare(
      `UPDATE orders SET
         status_reason = CASE WHEN status = ? AND ? IS NULL THEN status_reason ELSE ? END,
         status = ?,
         order_id = coalesce(?, order_id),
         filled = coalesce(?, filled),
         updated_at = ?
       WHERE client_order_id = ?`,
    );
  }

  /** Upserts an order (see RunStore.saveOrder); created at `at`, last changed at `updatedAt`. */
  save(order: OrderStateInput, at: number, reason?: string, updatedAt: number = at): void {
    const file = this.#file;
    const r = order.request;
    checkMicros(file, 'price', r.price);
    checkMicros(file, 'size', r.size);
    checkMicros(file, 'filled', order.filled);
    let changes: number;
    try {
      changes = this.#insert.run(
        r.clientOrderId,
        r.strategyId,
        order.orderId ?? null,
        r.tokenId,
        r.conditionId,
        r.side,
        r.price,
        r.size,
        r.orderType ?? 'GTC',
        r.postOnly ? 1 : 0,
        order.status,
        reason ?? null,
        order.filled,
        JSON.stringify(r),
        at,
        updatedAt,
      ).changes;
    } catch (err) {
      throw storeFailure(file, `saveOrder ${r.clientOrderId}`, err);
    }
    if (changes === 0) {
      throw new StoreError(`${file}: client order id ${r.clientOrderId} is already stored with a different request`, 'INVALID', file);
    }
  }

  /** Applies a status change (see RunStore.updateOrder). */
  update(clientOrderId: string, update: OrderUpdate): void {
    const file = this.#file;
    if (update.filled !== undefined) checkMicros(file, 'filled', update.filled);
    let changes: number;
    try {
      const reason = update.reason ?? null;
      changes = this.#update.run(update.status, reason, reason, update.status, update.orderId ?? null, update.filled ?? null, update.at, clientOrderId).changes;
    } catch (err) {
      throw storeFailure(file, `updateOrder ${clientOrderId}`, err);
    }
    if (changes === 0) throw new StoreError(`${file}: updateOrder: no stored order ${clientOrderId}`, 'INVALID', file);
  }
}
