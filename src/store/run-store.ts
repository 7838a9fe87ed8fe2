import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { FillEvent } from '../core/events.ts';
import { journalColumns } from './journal-entry.ts';
import { migrateStore } from './migrate.ts';
import { replayPortfolio } from './replay-portfolio.ts';
import { assertNotNewer, openReadOnlyChecked, readSchemaVersion, storeFailure } from './store-file.ts';
import { BackgroundCheckpointer } from './checkpointer.ts';
import { claimLock, releaseLock } from './store-lock.ts';
import {
  journalRows,
  readBalances,
  readCursors,
  readFills,
  readHeartbeat,
  readJournalSeq,
  readLastFillSeq,
  readNextId,
  readOrders,
  readRun,
} from './store-queries.ts';
import type { JournalInput, JournalRow, LoadedRun, LockHolder, OrderStateInput, OrderUpdate, RunInfo, RunStoreOptions, StoreDurability } from './store-types.ts';

type Db = Database.Database;
type Stmt = Database.Statement;

const RUN_ID = /^[0-9a-f]{8}$/;
/** Background checkpoint period. */
const CHECKPOINT_INTERVAL_MS = 500;
/** SQLite's default automatic checkpoint threshold, in pages (~4 MB). */
const AUTO_CHECKPOINT_PAGES = 1_000;
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** Stores open in this process, by absolute path: a second open here is refused too. */
const OPEN_HERE = new Set<string>();

/**
 * The crash-safe state of one run: a SQLite file (WAL) owned by one process at a time. Every
 * method is synchronous (better-sqlite3) and every hot-path statement is prepared once.
 *
 * How the engine is meant to call it (see docs/store.md):
 * - on start: `open(path, { create: true, runName })`; a fresh store gets a random run id, a
 *   reopened one keeps its id; `load()` returns the orders, fills, positions, heartbeat chain and
 *   cursors to reconcile from, and `nextId`, the first client order id sequence never reserved.
 * - client order ids: `reserveIds(n)` durably records a block before any id of it is used
 *   (`IdAllocator` hands them out one by one), so a restart never reuses one.
 * - `saveOrder(record, at)` when an order is created (PENDING_SUBMIT), BEFORE it is sent;
 *   `updateOrder(id, { status: 'PENDING_SUBMIT', orderId: hash, at })` once the hash is known, still
 *   before the post, so a restart can look it up; `updateOrder` on every later status change.
 * - `saveFill(fill)` on each new fill (idempotent on trade id + order id), `journal(event)` from
 *   the engine's `onEvent`, `setHeartbeatId` on each acknowledged beat, `setCursor` for resume points.
 * - `transaction(fn)` groups the writes of one tick into one commit (much cheaper per write).
 * - `close()` on stop releases the lock.
 */
export class RunStore {
  readonly file: string;
  readonly durability: StoreDurability;
  readonly #db: Db;
  readonly #now: () => number;
  readonly #info: RunInfo;
  readonly #takenOverFrom: LockHolder | undefined;
  #closed = false;
  #checkpointer: BackgroundCheckpointer | undefined;
  #checkpointFailure: string | undefined;
  #depth = 0;
  #nextId: number;
  #lastFillSeq: number;
  /** Id blocks reserved inside a transaction, made durable when the outermost one ends. */
  #pendingReservations: { from: number; to: number; at: number }[] = [];
  /** Callbacks waiting for the outermost transaction to end (see afterCommit). */
  #afterCommit: ((committed: boolean) => void)[] = [];

  readonly #tx: (fn: () => unknown) => unknown;
  readonly #insertOrder: Stmt;
  readonly #updateOrder: Stmt;
  readonly #insertFill: Stmt;
  readonly #confirmFill: Stmt;
  readonly #insertJournal: Stmt;
  readonly #upsertHeartbeat: Stmt;
  readonly #upsertCursor: Stmt;
  readonly #selectCursor: Stmt;
  readonly #insertReservation: Stmt;
  readonly #selectReservation: Stmt;
  readonly #insertBalance: Stmt;
  readonly #touchRun: Stmt;

  /**
   * Opens (or with `create`, creates) the store at `path` and takes its lock. Throws a StoreError
   * naming the file when there is no store there, when it is not SQLite or not ours, corrupt,
   * written by a newer build (left untouched), or locked by another live process. An older store
   * is migrated in one transaction. Nothing is ever reset or overwritten.
   */
  static open(path: string, options: RunStoreOptions = {}): RunStore {
    const file = resolve(path);
    if (OPEN_HERE.has(file)) throw new StoreError(`${file}: locked by this process (pid ${process.pid})`, 'LOCKED', file);
    if (options.runId !== undefined && !RUN_ID.test(options.runId)) {
      throw new StoreError(`${file}: run id must be 8 lowercase hex characters, was ${JSON.stringify(options.runId)}`, 'INVALID', file);
    }
    const exists = existsSync(file);
    if (exists) {
      openReadOnlyChecked(file).db.close();
    } else if (!options.create) {
      throw new StoreError(`${file}: no store there`, 'NOT_FOUND', file);
    } else {
      try {
        mkdirSync(dirname(file), { recursive: true });
      } catch (err) {
        throw storeFailure(file, 'create directory', err, 'NOT_FOUND');
      }
    }
    const now = options.now ?? Date.now;
    const durability = options.durability ?? 'normal';
    let db: Db | undefined;
    try {
      db = new Database(file, { fileMustExist: exists, timeout: 5_000 });
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new StoreError(`${file}: cannot use WAL journaling (got ${String(mode)})`, 'WRITE_FAILED', file);
      // the claim (lock row, run row, migration) is fsynced whatever the durability
      db.pragma('synchronous = FULL');
      const d = db;
      let takenOver: LockHolder | undefined;
      const info = d
        .transaction(() => {
          const version = readSchemaVersion(d, file);
          assertNotNewer(version, file);
          if (version > 0) takenOver = claimLock(d, file, now(), false);
          migrateStore(d, file);
          if (version === 0) claimLock(d, file, now(), false);
          return ensureRun(d, file, options, now());
        })
        .immediate();
      if (durability !== 'full') d.pragma('synchronous = NORMAL');
      // a WAL larger than this is cut back to it after each checkpoint that empties it
      d.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      const store = new RunStore(file, d, info, durability, now, takenOver);
      if ((options.checkpoints ?? 'background') === 'background') store.#startCheckpointer();
      return store;
    } catch (err) {
      db?.close();
      throw storeFailure(file, 'open', err);
    }
  }

  private constructor(file: string, db: Db, info: RunInfo, durability: StoreDurability, now: () => number, takenOver: LockHolder | undefined) {
    this.file = file;
    this.#db = db;
    this.#info = info;
    this.durability = durability;
    this.#now = now;
    this.#takenOverFrom = takenOver;
    this.#nextId = readNextId(db);
    this.#lastFillSeq = readLastFillSeq(db);
    this.#tx = db.transaction((fn: () => unknown) => fn());
    this.#insertOrder = db.prepare(
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
    this.#updateOrder = db.prepare(
      `UPDATE orders SET
         status_reason = CASE WHEN status = ? AND ? IS NULL THEN status_reason ELSE ? END,
         status = ?,
         order_id = coalesce(?, order_id),
         filled = coalesce(?, filled),
         updated_at = ?
       WHERE client_order_id = ?`,
    );
    this.#insertFill = db.prepare(
      `INSERT INTO fills (trade_id, order_id, seq, client_order_id, token_id, side, price, size, fee, liquidity, confirmed, ts_event, ts_init)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (trade_id, order_id) DO NOTHING`,
    );
    this.#confirmFill = db.prepare('UPDATE fills SET confirmed = 1 WHERE trade_id = ? AND order_id = ? AND confirmed = 0');
    this.#insertJournal = db.prepare('INSERT INTO journal (at, type, strategy_id, payload) VALUES (?, ?, ?, ?)');
    this.#upsertHeartbeat = db.prepare('INSERT INTO heartbeat (id, chain_id, at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET chain_id = excluded.chain_id, at = excluded.at');
    this.#upsertCursor = db.prepare('INSERT INTO cursor (name, value, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at');
    this.#selectCursor = db.prepare('SELECT value FROM cursor WHERE name = ?').pluck();
    this.#insertReservation = db.prepare('INSERT INTO id_reservations (first_id, last_id, at) VALUES (?, ?, ?)');
    this.#selectReservation = db.prepare('SELECT 1 FROM id_reservations WHERE first_id = ? AND last_id = ?').pluck();
    this.#insertBalance = db.prepare('INSERT INTO balances (balance, after_fill_seq, at, reason) VALUES (?, ?, ?, ?)');
    this.#touchRun = db.prepare('UPDATE run SET updated_at = ? WHERE id = 1');
    OPEN_HERE.add(file);
  }

  /** 8 hex characters: the client order id prefix of this run, kept across restarts. */
  get runId(): string {
    return this.#info.runId;
  }

  get runName(): string | undefined {
    return this.#info.runName;
  }

  get createdAt(): number {
    return this.#info.createdAt;
  }

  /** The dead process whose stale lock this open took over, if any (for the restart log line). */
  get takenOverFrom(): LockHolder | undefined {
    return this.#takenOverFrom;
  }

  /** The first id the next `reserveIds` will hand out. */
  get nextId(): number {
    return this.#nextId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Where checkpoints run now (`inline` after a background worker failed: see `checkpointFailure`). */
  get checkpoints(): 'background' | 'inline' {
    return this.#checkpointer ? 'background' : 'inline';
  }

  /** Why the background checkpointer stopped, if it failed. */
  get checkpointFailure(): string | undefined {
    return this.#checkpointFailure;
  }

  // ------------------------------------------------------------------ ids

  /**
   * Reserves the next `n` client order id sequence numbers, `from` to `to` inclusive, durably:
   * the reservation is fsynced (whatever the durability) before this returns, or, when called
   * inside `transaction(fn)`, before that transaction returns. Ids of a block left unused when
   * the run stops are skipped, never reused.
   */
  reserveIds(n: number): { from: number; to: number } {
    this.#assertOpen();
    if (!Number.isSafeInteger(n) || n < 1 || n > 1_000_000_000) {
      throw new StoreError(`${this.file}: reserveIds needs a whole number from 1 to 1e9, was ${n}`, 'INVALID', this.file);
    }
    const from = this.#nextId;
    const to = from + n - 1;
    const at = this.#now();
    try {
      if (this.#depth === 0) {
        this.#synced(() => {
          this.#insertReservation.run(from, to, at);
          this.#touchRun.run(at);
        });
      } else {
        this.#insertReservation.run(from, to, at);
        this.#pendingReservations.push({ from, to, at });
      }
    } catch (err) {
      throw storeFailure(this.file, 'reserveIds', err);
    }
    this.#nextId = to + 1;
    return { from, to };
  }

  // ------------------------------------------------------------------ orders

  /**
   * Upserts an order: the durable intent, written before the order is sent. The request is
   * immutable: saving another request under a stored client order id is refused (an id reused
   * would be a bug that could double an order). Each status change lands in `order_history`.
   */
  saveOrder(order: OrderStateInput, at: number, reason?: string): void {
    this.#assertOpen();
    const r = order.request;
    checkMicros(this.file, 'price', r.price);
    checkMicros(this.file, 'size', r.size);
    checkMicros(this.file, 'filled', order.filled);
    let changes: number;
    try {
      changes = this.#insertOrder.run(
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
        at,
      ).changes;
    } catch (err) {
      throw storeFailure(this.file, `saveOrder ${r.clientOrderId}`, err);
    }
    if (changes === 0) {
      throw new StoreError(`${this.file}: client order id ${r.clientOrderId} is already stored with a different request`, 'INVALID', this.file);
    }
  }

  /** Applies a status change (and the venue order id / filled size when given) to a stored order. */
  updateOrder(clientOrderId: string, update: OrderUpdate): void {
    this.#assertOpen();
    if (update.filled !== undefined) checkMicros(this.file, 'filled', update.filled);
    let changes: number;
    try {
      const reason = update.reason ?? null;
      changes = this.#updateOrder.run(update.status, reason, reason, update.status, update.orderId ?? null, update.filled ?? null, update.at, clientOrderId).changes;
    } catch (err) {
      throw storeFailure(this.file, `updateOrder ${clientOrderId}`, err);
    }
    if (changes === 0) throw new StoreError(`${this.file}: updateOrder: no stored order ${clientOrderId}`, 'INVALID', this.file);
  }

  // ------------------------------------------------------------------ fills and balance

  /**
   * Records a fill once per (trade id, order id). A repeat changes nothing, except that a fill
   * first stored unconfirmed becomes confirmed. Returns true when the fill was new.
   */
  saveFill(fill: FillEvent): boolean {
    this.#assertOpen();
    checkMicros(this.file, 'price', fill.price);
    checkMicros(this.file, 'size', fill.size);
    checkMicros(this.file, 'fee', fill.fee);
    try {
      const seq = this.#lastFillSeq + 1;
      const inserted =
        this.#insertFill.run(
          fill.tradeId,
          fill.orderId,
          seq,
          fill.clientOrderId,
          fill.tokenId,
          fill.side,
          fill.price,
          fill.size,
          fill.fee,
          fill.liquidity,
          fill.confirmed ? 1 : 0,
          fill.tsEvent,
          fill.tsInit,
        ).changes === 1;
      if (inserted) {
        this.#lastFillSeq = seq;
        return true;
      }
      if (fill.confirmed) this.#confirmFill.run(fill.tradeId, fill.orderId);
      return false;
    } catch (err) {
      throw storeFailure(this.file, `saveFill ${fill.tradeId}`, err);
    }
  }

  /**
   * Records the collateral balance as of now (the starting balance, or the venue's after a
   * reconciliation); fills stored later move it. `load().balance` replays from the newest one.
   */
  setBalance(balance: Micros, at: number, reason?: string): void {
    this.#assertOpen();
    checkMicros(this.file, 'balance', balance);
    try {
      this.#insertBalance.run(balance, this.#lastFillSeq, at, reason ?? null);
    } catch (err) {
      throw storeFailure(this.file, 'setBalance', err);
    }
  }

  // ------------------------------------------------------------------ heartbeat, journal, cursors

  /** The heartbeat chain id the venue acknowledged last, and when. */
  setHeartbeatId(id: string, at: number): void {
    this.#assertOpen();
    try {
      this.#upsertHeartbeat.run(id, at);
    } catch (err) {
      throw storeFailure(this.file, 'setHeartbeatId', err);
    }
  }

  /** Appends an engine event (or a run note) to the journal; returns its sequence number. */
  journal(event: JournalInput): number {
    this.#assertOpen();
    const c = journalColumns(event);
    try {
      return Number(this.#insertJournal.run(c.at, c.type, c.strategyId, JSON.stringify(event)).lastInsertRowid);
    } catch (err) {
      throw storeFailure(this.file, `journal ${c.type}`, err);
    }
  }

  /** Sets a named resume point (e.g. the newest `/data/trades` match time seen). */
  setCursor(name: string, value: string, at: number = this.#now()): void {
    this.#assertOpen();
    try {
      this.#upsertCursor.run(name, value, at);
    } catch (err) {
      throw storeFailure(this.file, `setCursor ${name}`, err);
    }
  }

  cursor(name: string): string | undefined {
    this.#assertOpen();
    return (this.#selectCursor.get(name) as string | undefined) ?? undefined;
  }

  // ------------------------------------------------------------------ transactions and reads

  /**
   * Runs `fn` in one transaction (nested calls become savepoints): every write inside commits
   * together or not at all, and costs far less than a commit per write. `fn` must be synchronous.
   * A throw rolls back and rethrows. Id blocks reserved inside are fsynced before this returns.
   */
  transaction<T>(fn: () => T): T {
    this.#assertOpen();
    this.#depth++;
    let committed = false;
    try {
      const result = this.#tx(fn) as T;
      committed = true;
      return result;
    } finally {
      this.#depth--;
      if (this.#depth === 0) {
        if (this.#pendingReservations.length > 0) this.#settleReservations();
        if (this.#afterCommit.length > 0) {
          const waiting = this.#afterCommit;
          this.#afterCommit = [];
          for (const callback of waiting) callback(committed);
        }
      }
    }
  }

  /**
   * Runs `callback(true)` once everything written so far is committed: at once outside a
   * transaction, else when the outermost one ends (`false` when it rolled back). The engine posts
   * orders from here, so an order's hash is durable before the order can leave the process.
   */
  afterCommit(callback: (committed: boolean) => void): void {
    if (this.#depth === 0) callback(true);
    else this.#afterCommit.push(callback);
  }

  /** Everything a restarted run needs, in one consistent read. `orders: 'open'` skips finished ones. */
  load(options: { orders?: 'all' | 'open' } = {}): LoadedRun {
    return this.transaction(() => {
      const fills = readFills(this.#db);
      const balances = readBalances(this.#db);
      const portfolio = replayPortfolio(fills, balances);
      const heartbeat = readHeartbeat(this.#db);
      return {
        runId: this.#info.runId,
        runName: this.#info.runName,
        nextId: this.#nextId,
        orders: readOrders(this.#db, options.orders ?? 'all'),
        fills,
        heartbeatId: heartbeat?.id,
        heartbeatAt: heartbeat?.at,
        positions: portfolio.positions(),
        balance: portfolio.balance(),
        balances,
        cursors: readCursors(this.#db),
        journalSeq: readJournalSeq(this.#db),
      };
    });
  }

  /** Journal rows from sequence `from` (default the first), oldest first, read page by page. */
  journalEvents(from = 1): Iterable<JournalRow> {
    this.#assertOpen();
    return journalRows(this.#db, from);
  }

  /** Releases the lock and closes the file (the WAL is checkpointed into it). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    OPEN_HERE.delete(this.file);
    this.#checkpointer?.stop();
    this.#checkpointer = undefined;
    try {
      releaseLock(this.#db);
      this.#touchRun.run(this.#now());
    } finally {
      this.#db.close();
    }
  }

  // ------------------------------------------------------------------ internals

  #assertOpen(): void {
    if (this.#closed) throw new StoreError(`${this.file}: store is closed`, 'INVALID', this.file);
  }

  #startCheckpointer(): void {
    this.#db.pragma('wal_autocheckpoint = 0');
    this.#checkpointer = new BackgroundCheckpointer(this.file, CHECKPOINT_INTERVAL_MS, (reason) => {
      // back to SQLite's own checkpoints: slower commits now and then, but the WAL stays bounded
      this.#checkpointer = undefined;
      this.#checkpointFailure = reason;
      if (!this.#closed) this.#db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
    });
  }

  #synced(fn: () => void): void {
    if (this.durability === 'full') fn();
    else syncedWrite(this.#db, fn);
  }

  /**
   * After the outermost transaction: a reservation rolled back (by a throw, or by a savepoint
   * the caller caught) is written again; then one fsynced commit makes them all durable.
   */
  #settleReservations(): void {
    const pending = this.#pendingReservations;
    this.#pendingReservations = [];
    try {
      this.#synced(() => {
        for (const r of pending) {
          if (this.#selectReservation.get(r.from, r.to) === undefined) this.#insertReservation.run(r.from, r.to, r.at);
        }
        this.#touchRun.run(this.#now());
      });
    } catch (err) {
      throw storeFailure(this.file, 'reserveIds', err);
    }
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

function ensureRun(db: Db, file: string, options: RunStoreOptions, now: number): RunInfo {
  const existing = readRun(db);
  if (existing) {
    if (options.runId !== undefined && options.runId !== existing.runId) {
      throw new StoreError(`${file}: belongs to run ${existing.runId}, not ${options.runId}`, 'INVALID', file);
    }
    db.prepare('UPDATE run SET updated_at = ? WHERE id = 1').run(now);
    return { ...existing, updatedAt: now };
  }
  const runId = options.runId ?? randomBytes(4).toString('hex');
  db.prepare('INSERT INTO run (id, run_id, name, created_at, updated_at) VALUES (1, ?, ?, ?, ?)').run(runId, options.runName ?? null, now, now);
  return { runId, runName: options.runName, createdAt: now, updatedAt: now };
}

function checkMicros(file: string, what: string, value: number): void {
  if (!Number.isSafeInteger(value)) throw new StoreError(`${file}: ${what} must be whole Micros, was ${value}`, 'INVALID', file);
}
