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
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  /** The multi-row INSERT of n rows (2..MAX_ROWS_PER_INSERT), prepared on first use. */
  readonly #inserts = new Map<number, Database.Statement>();
  readonly #update: Database.Statement;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    this.#db = db;
    this.#insert = db.prepare(insertSql(1));
    this.#update = db.prepare(
      `UPDATE order_rows SET
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
    this.saveMany([{ order, at, reason, updatedAt }]);
  }

  /**
   * Upserts orders with one statement per MAX_ROWS_PER_INSERT (the orders of one batch in one
   * INSERT: far cheaper than a statement each). Same rows, history and refusals as `save` one by
   * one; on a refusal (a stored client order id with another request) nothing after the chunk
   * that held it is written, and the caller's transaction rolls back the rest.
   */
  saveMany(rows: readonly OrderSave[]): void {
    const file = this.#file;
    for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
      const n = Math.min(MAX_ROWS_PER_INSERT, rows.length - start);
      const args = new Array<unknown>(n * COLUMNS);
      let k = 0;
      for (let i = start; i < start + n; i++) {
        const { order, at, reason, updatedAt } = rows[i]!;
        const r = order.request;
        checkOrderSave(file, order);
        args[k++] = r.clientOrderId;
        args[k++] = r.strategyId;
        args[k++] = order.orderId ?? null;
        args[k++] = r.tokenId;
        args[k++] = r.conditionId;
        args[k++] = r.side;
        args[k++] = r.price;
        args[k++] = r.size;
        args[k++] = r.orderType ?? 'GTC';
        args[k++] = r.postOnly ? 1 : 0;
        args[k++] = order.status;
        args[k++] = reason ?? null;
        args[k++] = order.filled;
        args[k++] = JSON.stringify(r);
        args[k++] = at;
        args[k++] = updatedAt ?? at;
      }
      let changes: number;
      try {
        changes = this.#insertOf(n).run(args).changes;
      } catch (err) {
        throw storeFailure(file, `saveOrder ${rows[start]!.order.request.clientOrderId}${n > 1 ? ` (and ${n - 1} more)` : ''}`, err);
      }
      // an upsert whose WHERE refused its row changes nothing for it (trigger rows do not count)
      if (changes !== n) throw this.#refused(rows.slice(start, start + n));
    }
  }

  #insertOf(n: number): Database.Statement {
    if (n === 1) return this.#insert;
    let statement = this.#inserts.get(n);
    if (statement === undefined) {
      statement = this.#db.prepare(insertSql(n));
      this.#inserts.set(n, statement);
    }
    return statement;
  }

  /** The refusal of a chunk that changed fewer rows than it held: names the first order refused. */
  #refused(rows: readonly OrderSave[]): StoreError {
    const file = this.#file;
    const select = this.#db.prepare('SELECT request FROM order_rows WHERE client_order_id = ?').pluck();
    const refused = rows.find((row) => select.get(row.order.request.clientOrderId) !== JSON.stringify(row.order.request)) ?? rows[0]!;
    return new StoreError(`${file}: client order id ${refused.order.request.clientOrderId} is already stored with a different request`, 'INVALID', file);
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

/** One order to save: its state, created at `at`, last changed at `updatedAt` (default `at`). */
export interface OrderSave {
  readonly order: OrderStateInput;
  readonly at: number;
  readonly reason?: string;
  readonly updatedAt?: number;
}

/** Refuses an order whose amounts are not whole Micros (a store holds integers only). */
export function checkOrderSave(file: string, order: OrderStateInput): void {
  checkMicros(file, 'price', order.request.price);
  checkMicros(file, 'size', order.request.size);
  checkMicros(file, 'filled', order.filled);
}

/** Rows per multi-row INSERT (16 parameters each, far under SQLite's limit). */
const MAX_ROWS_PER_INSERT = 32;
const COLUMNS = 16;

/** The upsert of `n` orders: a stored client order id takes the change only with the same request. */
function insertSql(n: number): string {
  const row = `(${new Array<string>(COLUMNS).fill('?').join(', ')})`;
  return `INSERT INTO order_rows (client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
                           status, status_reason, filled, request, created_at, updated_at)
       VALUES ${new Array<string>(n).fill(row).join(', ')}
       ON CONFLICT (client_order_id) DO UPDATE SET
         order_id = coalesce(excluded.order_id, order_rows.order_id),
         status_reason = CASE WHEN order_rows.status = excluded.status AND excluded.status_reason IS NULL THEN order_rows.status_reason ELSE excluded.status_reason END,
         status = excluded.status,
         filled = excluded.filled,
         updated_at = excluded.updated_at
       WHERE order_rows.request = excluded.request`;
}
