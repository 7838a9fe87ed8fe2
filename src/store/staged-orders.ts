import type Database from 'better-sqlite3';
import type { OrderStatus } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';
import { storeFailure } from './store-file.ts';
import { checkOrderSave, type OrderSave } from './order-writes.ts';

/** One staged order as `order_batches` holds it (the layout the view staged_orders reads). */
type Packed = [clientOrderId: string, orderId: string | null, status: OrderStatus, filled: number, at: number, updatedAt: number, reason: string | null, request: OrderRequest];

/**
 * The orders of a batch staged before their post (schema version 3, see schema.ts): ONE row of
 * `order_batches` holding them all as JSON, instead of a row per order in the orders b-tree
 * (WITHOUT ROWID, whose interior pages copy whole rows) plus a history row each. That append and
 * its commit are what stands between a strategy's orders and their post. `fold()` later reads the
 * staged rows back and saves them with the orders' upsert (order-writes.ts), so the rows once
 * folded are those `saveOrders` would have written: the same request text (JSON.stringify of a
 * parsed JSON.stringify is the same text), the same history rows (the trigger).
 *
 * Only new orders are staged: when a client order id is stored already (or staged by this store
 * and not folded yet, or twice in the batch), `stage` returns false and the caller saves the
 * batch as an upsert at once, whose refusal of another request under a stored id then happens
 * before the post, as it always did.
 */
export class StagedOrders {
  readonly #file: string;
  readonly #db: Database.Database;
  readonly #insert: Database.Statement;
  readonly #read: Database.Statement;
  readonly #clear: Database.Statement;
  /** `SELECT EXISTS` over `order_rows` for n client order ids, prepared on first use per n. */
  readonly #stored = new Map<number, Database.Statement>();
  /**
   * Ids staged by this store since the last fold of its own (committed) transaction. One left
   * here by a rollback only sends a later save of that id down the upsert path: never wrong.
   */
  readonly #staged = new Set<string>();
  /** Batches may wait in `order_batches` (set on staging and after a rollback: a fold is idempotent). */
  #pending = true;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    this.#db = db;
    this.#insert = db.prepare('INSERT INTO order_batches (orders) VALUES (?)');
    this.#read = db.prepare('SELECT orders FROM order_batches ORDER BY seq').pluck();
    this.#clear = db.prepare('DELETE FROM order_batches');
  }

  /** True when batches may be waiting to be folded. */
  get pending(): boolean {
    return this.#pending;
  }

  /** A write that staged or folded was rolled back: batches may be waiting again. */
  rolledBack(): void {
    this.#pending = true;
  }

  /**
   * Stages new orders as one row (in the caller's transaction). Returns false, writing nothing,
   * when one of them is not new (the caller upserts them instead).
   */
  stage(rows: readonly OrderSave[]): boolean {
    const file = this.#file;
    const staged = this.#staged;
    const ids = new Array<string>(rows.length);
    const seen = new Set<string>();
    const packed = new Array<Packed>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const { order, at, reason, updatedAt } = rows[i]!;
      checkOrderSave(file, order);
      const r = order.request;
      const id = r.clientOrderId;
      if (staged.has(id) || seen.has(id)) return false;
      seen.add(id);
      ids[i] = id;
      packed[i] = [id, order.orderId ?? null, order.status, order.filled, at, updatedAt ?? at, reason ?? null, r];
    }
    try {
      if (this.#storedOf(ids.length).get(ids) === 1) return false;
      this.#insert.run(JSON.stringify(packed));
    } catch (err) {
      throw storeFailure(file, `saveOrders ${ids[0] ?? ''} (staged, ${rows.length} orders)`, err);
    }
    for (const id of ids) staged.add(id);
    this.#pending = true;
    return true;
  }

  /**
   * Reads every staged order back and hands them to `save` (the orders' upsert), then empties
   * `order_batches`, in the caller's transaction. `outermost`: that transaction is the fold's own,
   * so once it commits no id of this store is staged any more.
   */
  fold(save: (rows: readonly OrderSave[]) => void, outermost: boolean): void {
    if (!this.#pending) return;
    let rows: OrderSave[];
    try {
      rows = (this.#read.all() as string[]).flatMap((text) => (JSON.parse(text) as Packed[]).map(saveOf));
    } catch (err) {
      throw storeFailure(this.#file, 'fold staged orders', err, 'CORRUPT');
    }
    if (rows.length > 0) save(rows);
    try {
      this.#clear.run();
    } catch (err) {
      throw storeFailure(this.#file, 'fold staged orders', err);
    }
    this.#pending = false;
    if (outermost) this.#staged.clear();
  }

  #storedOf(n: number): Database.Statement {
    let statement = this.#stored.get(n);
    if (statement === undefined) {
      statement = this.#db.prepare(`SELECT EXISTS (SELECT 1 FROM order_rows WHERE client_order_id IN (${new Array<string>(n).fill('?').join(', ')}))`).pluck();
      this.#stored.set(n, statement);
    }
    return statement;
  }
}

function saveOf([clientOrderId, orderId, status, filled, at, updatedAt, reason, request]: Packed): OrderSave {
  if (request.clientOrderId !== clientOrderId) throw new Error(`staged order ${clientOrderId} holds the request of ${request.clientOrderId}`);
  return { order: { request, status, orderId: orderId ?? undefined, filled }, at, updatedAt, reason: reason ?? undefined };
}
