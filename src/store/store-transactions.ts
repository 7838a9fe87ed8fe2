import type Database from 'better-sqlite3';
import { LazySavepoints } from './lazy-savepoints.ts';

/** What the store does when a transaction level ends (see StoreTransactions). */
export interface TransactionEnds {
  /** A level (outermost or nested) rolled back: what it staged or folded is undone. */
  rolledBack(): void;
  /** The outermost transaction ended (committed or not), before the afterCommit callbacks run. */
  outermostEnded(): void;
}

/**
 * A store's transactions: the outermost one is a SQLite transaction (timed when asked: the
 * COMMIT's seconds for the run's metrics); nested ones are savepoints opened at their first write
 * (lazy-savepoints.ts); callbacks wait for the outermost one to end (`afterCommit`).
 */
export class StoreTransactions {
  readonly #tx: (fn: () => unknown) => unknown;
  readonly #nested: LazySavepoints;
  readonly #ends: TransactionEnds;
  #depth = 0;
  /** Callbacks waiting for the outermost transaction to end (see afterCommit). */
  #afterCommit: ((committed: boolean) => void)[] = [];
  /** Told how long each outermost transaction's COMMIT took, seconds (timeCommits). */
  #commitTime: ((seconds: number) => void) | undefined;

  constructor(db: Database.Database, ends: TransactionEnds) {
    this.#tx = db.transaction((fn: () => unknown) => fn());
    this.#nested = new LazySavepoints(db);
    this.#ends = ends;
  }

  /** A transaction is open (this call runs inside one). */
  get open(): boolean {
    return this.#depth > 0;
  }

  /** Before a write: the nested levels around it get their savepoints. */
  writing(): void {
    this.#nested.writing();
  }

  /**
   * Runs `fn` in one transaction, or as a nested level of the one open. A throw rolls back (a
   * nested level: to its start) and rethrows.
   */
  run<T>(fn: () => T): T {
    const nested = this.#depth > 0;
    this.#depth++;
    let committed = false;
    try {
      const result = (nested ? this.#nested.run(fn) : this.#commitTime === undefined ? this.#tx(fn) : this.#timed(fn, this.#commitTime)) as T;
      committed = true;
      return result;
    } finally {
      if (!committed) this.#ends.rolledBack();
      this.#depth--;
      if (this.#depth === 0) {
        this.#ends.outermostEnded();
        if (this.#afterCommit.length > 0) {
          const waiting = this.#afterCommit;
          this.#afterCommit = [];
          for (const callback of waiting) callback(committed);
        }
      }
    }
  }

  /** Tells `observe` how long each outermost transaction's COMMIT takes (from the end of its work to its return), seconds. */
  timeCommits(observe: (seconds: number) => void): void {
    this.#commitTime = observe;
  }

  /** Runs `callback(true)` at once outside a transaction, else when the outermost one ends (`false` when it rolled back). */
  afterCommit(callback: (committed: boolean) => void): void {
    if (this.#depth === 0) callback(true);
    else this.#afterCommit.push(callback);
  }

  #timed<T>(fn: () => T, observe: (seconds: number) => void): T {
    let workDone = 0;
    const result = this.#tx(() => {
      const r = fn();
      workDone = performance.now();
      return r;
    }) as T;
    observe((performance.now() - workDone) / 1000);
    return result;
  }
}
