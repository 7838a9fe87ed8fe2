import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import { storeFailure } from './store-file.ts';
import { readNextId } from './store-queries.ts';
import type { StoreDurability } from './store-types.ts';

type Db = Database.Database;

/**
 * Client order id blocks, reserved durably before any id of them is used, so a restart never
 * reuses one. A block reserved outside a transaction is fsynced at once; one reserved inside is
 * fsynced when the outermost transaction ends (`settle`), written again first if the transaction
 * rolled it back.
 */
export class IdReservations {
  readonly #db: Db;
  readonly #file: string;
  readonly #durability: StoreDurability;
  readonly #now: () => number;
  /** Stamps the run row's `updated_at` (part of every reservation's commit). */
  readonly #touchRun: (at: number) => void;
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  #nextId: number;
  #pending: { from: number; to: number; at: number }[] = [];

  constructor(db: Db, file: string, durability: StoreDurability, now: () => number, touchRun: (at: number) => void) {
    this.#db = db;
    this.#file = file;
    this.#durability = durability;
    this.#now = now;
    this.#touchRun = touchRun;
    this.#nextId = readNextId(db);
    this.#insert = db.prepare('INSERT INTO id_reservations (first_id, last_id, at) VALUES (?, ?, ?)');
    this.#select = db.prepare('SELECT 1 FROM id_reservations WHERE first_id = ? AND last_id = ?').pluck();
  }

  /** The first id the next reservation hands out. */
  get nextId(): number {
    return this.#nextId;
  }

  /** True when blocks reserved inside a transaction wait for `settle`. */
  get pending(): boolean {
    return this.#pending.length > 0;
  }

  /** Reserves the next `n` ids (see RunStore.reserveIds); `inTransaction` defers the fsync to `settle`. */
  reserve(n: number, inTransaction: boolean): { from: number; to: number } {
    if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000_000) {
      throw new StoreError(`${this.#file}: reserveIds needs a whole number from 1 to 1e9, was ${n}`, 'INVALID', this.#file);
    }
    const from = this.#nextId;
    const to = from + n - 1;
    const at = this.#now();
    try {
      if (!inTransaction) {
        this.#synced(() => {
          this.#insert.run(from, to, at);
          this.#touchRun(at);
        });
      } else {
        this.#insert.run(from, to, at);
        this.#pending.push({ from, to, at });
      }
    } catch (err) {
      throw storeFailure(this.#file, 'reserveIds', err);
    }
    this.#nextId = to + 1;
    return { from, to };
  }

  /**
   * After the outermost transaction: a reservation rolled back (by a throw, or by a savepoint
   * the caller caught) is written again; then one fsynced commit makes them all durable.
   */
  settle(): void {
    const pending = this.#pending;
    this.#pending = [];
    try {
      this.#synced(() => {
        for (const r of pending) {
          if (this.#select.get(r.from, r.to) === undefined) this.#insert.run(r.from, r.to, r.at);
        }
        this.#touchRun(this.#now());
      });
    } catch (err) {
      throw storeFailure(this.#file, 'reserveIds', err);
    }
  }

  #synced(fn: () => void): void {
    if (this.#durability === 'full') fn();
    else syncedWrite(this.#db, fn);
  }
}

/** One autocommit write with synchronous=FULL: its commit fsyncs the WAL, and every commit before it. */
function syncedWrite(db: Db, fn: () => void): void {
  db.pragma('synchronous = FULL');
  try {
    db.transaction(fn)();
  } finally {
    db.pragma('synchronous = NORMAL');
  }
}
