import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { FillEvent } from '../core/events.ts';
import { DeferredJournal } from './deferred-journal.ts';
import { FillWrites } from './fill-writes.ts';
import { IdReservations } from './id-reservations.ts';
import { readLoadedRun } from './loaded-run.ts';
import { OrderWrites, type OrderSave } from './order-writes.ts';
import { RunNotes } from './run-notes.ts';
import { StagedOrders } from './staged-orders.ts';
import { StoreCheckpoints } from './store-checkpoints.ts';
import { storeFailure } from './store-file.ts';
import { releaseLock } from './store-lock.ts';
import { openStoreFile, releaseOpened, type OpenedStore } from './store-open.ts';
import { journalRows } from './store-queries.ts';
import { StoreTransactions } from './store-transactions.ts';
import type { JournalInput, JournalRow, LoadedRun, LockHolder, OrderStateInput, OrderUpdate, RunInfo, RunStoreOptions, StoreDurability } from './store-types.ts';

/**
 * The crash-safe state of one run: a SQLite file (WAL) owned by one process at a time. Every
 * method is synchronous (better-sqlite3) and every hot-path statement is prepared once. The
 * parts: opening and the lock (store-open.ts), transactions and their savepoints
 * (store-transactions.ts), WAL checkpoints (store-checkpoints.ts), id blocks
 * (id-reservations.ts), order writes (order-writes.ts) and the orders staged before their post
 * (staged-orders.ts), fills and balances (fill-writes.ts), journal, heartbeat and cursors
 * (run-notes.ts), the reads (store-queries.ts; what a restart loads: loaded-run.ts); this class
 * is their one face, and checks each call against the store's state (open, no failed deferred
 * write).
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
 * - `journalLater(event)` for market events: written on a later turn of the event loop, many in one
 *   commit, so they never stand between a book and its order post (deferred-journal.ts).
 * - `transaction(fn)` groups the writes of one tick into one commit (much cheaper per write).
 * - `close()` on stop releases the lock.
 */
export class RunStore {
  readonly file: string;
  readonly durability: StoreDurability;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #info: RunInfo;
  readonly #takenOverFrom: LockHolder | undefined;
  #closed = false;
  readonly #checkpoints: StoreCheckpoints;
  readonly #tx: StoreTransactions;
  readonly #touchRun: Database.Statement;
  readonly #ids: IdReservations;
  readonly #orders: OrderWrites;
  readonly #fills: FillWrites;
  readonly #notes: RunNotes;
  readonly #later: DeferredJournal;
  readonly #staged: StagedOrders;
  /** A fold of the staged orders is scheduled for a later turn. */
  #foldScheduled = false;

  /**
   * Opens (or with `create`, creates) the store at `path` and takes its lock. Throws a StoreError
   * naming the file when there is no store there, when it is not SQLite or not ours, corrupt,
   * written by a newer build (left untouched), or locked by another live process. An older store
   * is migrated in one transaction. Nothing is ever reset or overwritten.
   */
  static open(path: string, options: RunStoreOptions = {}): RunStore {
    const opened = openStoreFile(path, options);
    try {
      return new RunStore(opened, options.checkpoints ?? 'background');
    } catch (err) {
      releaseOpened(opened.file);
      opened.db.close();
      throw storeFailure(opened.file, 'open', err);
    }
  }

  private constructor(opened: OpenedStore, checkpoints: 'background' | 'inline') {
    const { file, db } = opened;
    this.file = file;
    this.#db = db;
    this.#info = opened.info;
    this.durability = opened.durability;
    this.#now = opened.now;
    this.#takenOverFrom = opened.takenOver;
    const touchRun = db.prepare('UPDATE run SET updated_at = ? WHERE id = 1');
    this.#touchRun = touchRun;
    this.#ids = new IdReservations(db, file, opened.durability, opened.now, (at) => touchRun.run(at));
    this.#orders = new OrderWrites(db, file);
    this.#fills = new FillWrites(db, file);
    this.#notes = new RunNotes(db, file);
    this.#staged = new StagedOrders(db, file, opened.info.runId);
    const ids = this.#ids;
    const staged = this.#staged;
    this.#tx = new StoreTransactions(db, {
      // what this level staged or folded is undone: fold again when next needed
      rolledBack: () => staged.rolledBack(),
      // id blocks reserved inside are fsynced before the transaction returns
      outermostEnded: () => {
        if (ids.pending) ids.settle();
      },
    });
    // orders a previous life staged and did not fold before it ended
    this.#foldStaged();
    this.#staged.readGreatest();
    const notes = this.#notes;
    this.#later = new DeferredJournal((entries) =>
      this.transaction(() => {
        this.#tx.writing();
        for (const entry of entries) notes.journal(entry);
      }),
    );
    this.#checkpoints = new StoreCheckpoints(db, file, checkpoints);
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
    return this.#ids.nextId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Where checkpoints run now (`inline` after a background worker failed: see `checkpointFailure`). */
  get checkpoints(): 'background' | 'inline' {
    return this.#checkpoints.mode;
  }

  /** Why the background checkpointer stopped, if it failed. */
  get checkpointFailure(): string | undefined {
    return this.#checkpoints.failure;
  }

  /**
   * Reserves the next `n` client order id sequence numbers, `from` to `to` inclusive, durably:
   * the reservation is fsynced (whatever the durability) before this returns, or, when called
   * inside `transaction(fn)`, before that transaction returns. Ids of a block left unused when
   * the run stops are skipped, never reused.
   */
  reserveIds(n: number): { from: number; to: number } {
    this.#assertOpenWriting();
    return this.#ids.reserve(n, this.#tx.open);
  }

  /**
   * Upserts an order: the durable intent, written before the order is sent. The request is
   * immutable: saving another request under a stored client order id is refused (an id reused
   * would be a bug that could double an order). Each status change lands in `order_history`.
   */
  saveOrder(order: OrderStateInput, at: number, reason?: string, updatedAt: number = at): void {
    this.#assertWritable();
    this.#foldStaged();
    this.#orders.save(order, at, reason, updatedAt);
    this.#staged.written([{ order, at }]);
  }

  /**
   * Upserts several orders as `saveOrder` one by one would, in one statement per few dozen (the
   * orders of a batch written before its post cost one INSERT, not one each).
   */
  saveOrders(orders: readonly OrderSave[]): void {
    this.#assertWritable();
    this.#foldStaged();
    this.#orders.saveMany(orders);
    this.#staged.written(orders);
  }

  /**
   * Saves new orders as `saveOrders` would, for the write before their post: staged as one row,
   * far cheaper to commit, and folded into the orders table on a later turn of the event loop
   * (or by the next order write, read or close; by the next open after a crash). Readers see a
   * staged order as its row (the view `orders`). Orders not all new are upserted at once instead.
   */
  stageOrders(orders: readonly OrderSave[]): void {
    this.#assertWritable();
    if (orders.length === 0) return;
    if (!this.#staged.stage(orders)) {
      this.saveOrders(orders);
      return;
    }
    if (!this.#foldScheduled) {
      this.#foldScheduled = true;
      setImmediate(() => {
        this.#foldScheduled = false;
        if (this.#closed) return;
        try {
          this.#foldStaged();
        } catch {
          // left staged (durable, and read as orders): the next order write folds and throws it
        }
      });
    }
  }

  /** Applies a status change (and the venue order id / filled size when given) to a stored order. */
  updateOrder(clientOrderId: string, update: OrderUpdate): void {
    this.#assertWritable();
    this.#foldStaged();
    this.#orders.update(clientOrderId, update);
  }

  /**
   * Records a fill once per (trade id, order id). A repeat changes nothing, except that a fill
   * first stored unconfirmed becomes confirmed. Returns true when the fill was new.
   */
  saveFill(fill: FillEvent): boolean {
    this.#assertWritable();
    return this.#fills.saveFill(fill);
  }

  /** Records a fill whose trade FAILED on chain in `voided_fills`, out of `fills` (fill-writes.ts); true when it was not void yet. */
  voidFill(fill: FillEvent, at: number): boolean {
    this.#assertWritable();
    return this.#fills.voidFill(fill, at);
  }

  /**
   * Records the collateral balance as of now (the starting balance, or the venue's after a
   * reconciliation); fills stored later move it. `load().balance` replays from the newest one.
   */
  setBalance(balance: Micros, at: number, reason?: string): void {
    this.#assertOpenWriting();
    this.#fills.setBalance(balance, at, reason);
  }

  /** The heartbeat chain id the venue acknowledged last, and when. */
  setHeartbeatId(id: string, at: number): void {
    this.#assertOpenWriting();
    this.#notes.setHeartbeatId(id, at);
  }

  /** Appends an engine event (or a run note) to the journal; returns its sequence number. */
  journal(event: JournalInput): number {
    this.#assertWritable();
    return this.#notes.journal(event);
  }

  /**
   * Appends an entry to the journal on a later turn of the event loop, together with the others
   * queued by then (one commit): for market events, which orders do not need durable before their
   * post. Reads (`load`, `journalEvents`) and `close` write the queue first. A deferred write
   * that failed is thrown by the next write of this store.
   */
  journalLater(event: JournalInput): void {
    this.#assertOpen();
    this.#assertNoDeferredFailure();
    this.#later.add(event);
  }

  /** Sets a named resume point (e.g. the newest `/data/trades` match time seen). */
  setCursor(name: string, value: string, at: number = this.#now()): void {
    this.#assertOpenWriting();
    this.#notes.setCursor(name, value, at);
  }

  cursor(name: string): string | undefined {
    this.#assertOpen();
    return this.#notes.cursor(name);
  }

  /**
   * Runs `fn` in one transaction (nested calls become savepoints, opened at their first write:
   * lazy-savepoints.ts): every write inside commits together or not at all, and costs far less
   * than a commit per write. `fn` must be synchronous. A throw rolls back (a nested level: to its
   * start) and rethrows. Id blocks reserved inside are fsynced before this returns.
   */
  transaction<T>(fn: () => T): T {
    this.#assertOpen();
    return this.#tx.run(fn);
  }

  /** Tells `observe` how long each outermost transaction's COMMIT takes (from the end of its work to its return), seconds: the run's metrics. */
  timeCommits(observe: (seconds: number) => void): void {
    this.#tx.timeCommits(observe);
  }

  /**
   * Runs `callback(true)` once everything written so far is committed: at once outside a
   * transaction, else when the outermost one ends (`false` when it rolled back). The engine posts
   * orders from here, so an order's hash is durable before the order can leave the process.
   */
  afterCommit(callback: (committed: boolean) => void): void {
    this.#tx.afterCommit(callback);
  }

  /** Everything a restarted run needs, in one consistent read. `orders: 'open'` skips finished ones. */
  load(options: { orders?: 'all' | 'open' } = {}): LoadedRun {
    this.#flushLater();
    this.#foldStaged();
    return this.transaction(() => readLoadedRun(this.#db, this.#info, this.#ids.nextId, options.orders ?? 'all'));
  }

  /** Journal rows from sequence `from` (default the first), oldest first, read page by page. */
  journalEvents(from = 1): Iterable<JournalRow> {
    this.#flushLater();
    return journalRows(this.#db, from);
  }

  /**
   * Writes the deferred journal entries, releases the lock and closes the file (the WAL is
   * checkpointed into it). Idempotent. A failed write of the deferred entries is thrown after the
   * file is closed.
   */
  close(): void {
    if (this.#closed) return;
    let failure: unknown = this.#later.failure;
    if (failure === undefined) {
      try {
        this.#later.flush();
      } catch (err) {
        failure = err;
      }
    }
    try {
      this.#foldStaged();
    } catch {
      // the staged orders stay durable in order_batches; the next open folds them
    }
    this.#closed = true;
    releaseOpened(this.file);
    this.#checkpoints.stop();
    try {
      releaseLock(this.#db);
      this.#touchRun.run(this.#now());
    } finally {
      this.#db.close();
    }
    if (failure !== undefined) throw storeFailure(this.file, 'journal (deferred entries)', failure);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreError(`${this.file}: store is closed`, 'INVALID', this.file);
  }

  /** Before a read: the deferred journal entries written (unless their writing failed already). */
  #flushLater(): void {
    this.#assertOpen();
    if (this.#later.failure === undefined) this.#later.flush();
  }

  /** Open, and no deferred journal write has failed (that failure is thrown here, at the next write). */
  #assertWritable(): void {
    this.#assertOpen();
    this.#assertNoDeferredFailure();
    this.#tx.writing();
  }

  #assertNoDeferredFailure(): void {
    const failure = this.#later.failure;
    if (failure !== undefined) throw storeFailure(this.file, 'journal (deferred entries)', failure);
  }

  /** Open, and about to write: the nested levels around the write get their savepoints. */
  #assertOpenWriting(): void {
    this.#assertOpen();
    this.#tx.writing();
  }

  /** Folds the staged orders into the orders table (in the open transaction, if any). */
  #foldStaged(): void {
    if (!this.#staged.pending) return;
    this.transaction(() => {
      this.#tx.writing();
      this.#staged.fold((rows) => this.#orders.saveMany(rows));
    });
  }
}
