import type Database from 'better-sqlite3';
import type { OrderStatus } from '../core/events.ts';
import type { OrderRequest } from '../core/intents.ts';
import { storeFailure } from './store-file.ts';
import { checkOrderSave, type OrderSave } from './order-writes.ts';

/**
 * One staged order as `order_batches` holds it (the layout the view staged_orders reads): its
 * request with the token id and condition id as indexes into the batch's strings.
 */
type Packed = [orderId: string | null, status: OrderStatus, filled: number, at: number, updatedAt: number, reason: string | null, request: PackedRequest];
type PackedRequest = Omit<OrderRequest, 'tokenId' | 'conditionId'> & { tokenId: number; conditionId: number };
/** A batch: the strings its requests share, its orders. */
type PackedBatch = [strings: string[], orders: Packed[]];

/**
 * The orders of a batch staged before their post (schema version 3, see schema.ts): ONE row of
 * `order_batches` holding them all as JSON, instead of a row per order in the orders b-tree
 * (WITHOUT ROWID, whose interior pages copy whole rows) plus a history row each. That append and
 * its commit are what stands between a strategy's orders and their post. `fold()` later reads the
 * staged rows back and saves them with the orders' upsert (order-writes.ts), so the rows once
 * folded are those `saveOrders` would have written: the same request text (JSON.stringify of a
 * parsed JSON.stringify is the same text), the same history rows (the trigger).
 *
 * Only orders whose client order id is new to the store are staged; for any other batch `stage`
 * returns false and the caller saves it as an upsert at once, whose refusal of another request
 * under a stored id then happens before the post, as it always did. New is told without a read
 * (a lookup in the orders b-tree cost more than the whole staging): an id of this run
 * (`<runId>` + fixed-width hex, as the engine makes them from the store's reserved blocks) greater
 * than every id of this run written so far cannot be stored. The greatest is read once at open
 * and raised by every order write; a rollback leaves it high, which only sends a batch down the
 * upsert path.
 */
export class StagedOrders {
  readonly #file: string;
  readonly #insert: Database.Statement;
  readonly #read: Database.Statement;
  readonly #clear: Database.Statement;
  readonly #greatestOf: Database.Statement;
  /** The client order id prefix of this run. */
  readonly #prefix: string;
  /** The greatest client order id of this run stored or staged ('' for none). */
  #greatest: string;
  /** Batches may wait in `order_batches` (set on staging and after a rollback: a fold is idempotent). */
  #pending = true;

  constructor(db: Database.Database, file: string, runId: string) {
    this.#file = file;
    this.#prefix = runId;
    this.#insert = db.prepare('INSERT INTO order_batches (orders) VALUES (?)');
    this.#read = db.prepare('SELECT orders FROM order_batches ORDER BY seq').pluck();
    this.#clear = db.prepare('DELETE FROM order_batches');
    this.#greatest = '';
    this.#greatestOf = db
      .prepare('SELECT client_order_id FROM order_rows WHERE client_order_id >= @prefix AND substr(client_order_id, 1, length(@prefix)) = @prefix ORDER BY client_order_id DESC LIMIT 1')
      .pluck();
  }

  /** Reads the greatest client order id of this run in `order_rows` (at open, after the leftovers are folded). */
  readGreatest(): void {
    const id = this.#greatestOf.get({ prefix: this.#prefix }) as string | undefined;
    if (id !== undefined && id > this.#greatest) this.#greatest = id;
  }

  /** Orders written (upserted) in the orders table: their ids are no longer new. */
  written(rows: readonly OrderSave[]): void {
    for (const { order } of rows) this.#note(order.request.clientOrderId);
  }

  #note(id: string): void {
    if (id > this.#greatest && id.startsWith(this.#prefix)) this.#greatest = id;
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
    const prefix = this.#prefix;
    const packed = new Array<Packed>(rows.length);
    const strings: string[] = [];
    // each id of this run and greater than the one before it (so distinct, and none stored)
    let last = this.#greatest;
    for (let i = 0; i < rows.length; i++) {
      const { order, at, reason, updatedAt } = rows[i]!;
      checkOrderSave(file, order);
      const r = order.request;
      const id = r.clientOrderId;
      if (!(id > last && id.startsWith(prefix) && HEX.test(id))) return false;
      last = id;
      // a copy with the two ids swapped for indexes, in place (the keys keep their order)
      const request: PackedRequest = { ...r, tokenId: indexOf(strings, r.tokenId), conditionId: indexOf(strings, r.conditionId) };
      packed[i] = [order.orderId ?? null, order.status, order.filled, at, updatedAt ?? at, reason ?? null, request];
    }
    try {
      this.#insert.run(JSON.stringify([strings, packed] satisfies PackedBatch));
    } catch (err) {
      throw storeFailure(file, `saveOrders ${rows[0]?.order.request.clientOrderId ?? ''} (staged, ${rows.length} orders)`, err);
    }
    this.#greatest = last;
    this.#pending = true;
    return true;
  }

  /**
   * Reads every staged order back and hands them to `save` (the orders' upsert), then empties
   * `order_batches`, in the caller's transaction.
   */
  fold(save: (rows: readonly OrderSave[]) => void): void {
    if (!this.#pending) return;
    let rows: OrderSave[];
    try {
      rows = (this.#read.all() as string[]).flatMap((text) => {
        const [strings, orders] = JSON.parse(text) as PackedBatch;
        return orders.map((packed) => saveOf(strings, packed));
      });
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
  }
}

/** Lowercase hex ids (as the engine makes them) compare the same in JS and in SQLite (UTF-8 bytes). */
const HEX = /^[0-9a-f]+$/;

function indexOf(strings: string[], value: string): number {
  const i = strings.indexOf(value);
  return i >= 0 ? i : strings.push(value) - 1;
}

function saveOf(strings: readonly string[], [orderId, status, filled, at, updatedAt, reason, packed]: Packed): OrderSave {
  const tokenId = strings[packed.tokenId];
  const conditionId = strings[packed.conditionId];
  if (tokenId === undefined || conditionId === undefined) throw new Error(`staged order ${packed.clientOrderId}: no string ${packed.tokenId} or ${packed.conditionId}`);
  // assigned in place, so the request's keys (and its JSON text) are as they were
  const request = packed as unknown as { tokenId: string; conditionId: string };
  request.tokenId = tokenId;
  request.conditionId = conditionId;
  return { order: { request: request as unknown as OrderRequest, status, orderId: orderId ?? undefined, filled }, at, updatedAt, reason: reason ?? undefined };
}
