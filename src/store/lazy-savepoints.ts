import type Database from 'better-sqlite3';

/**
 * The nested levels of a store transaction, each with a SAVEPOINT opened only once something is
 * written inside it (`writing()`, called by every write of the store). Most nested levels of a
 * tick write nothing: the hashes set before the post merge into the orders held for the
 * transaction's end (pending-creations.ts), and a SAVEPOINT + RELEASE pair cost ~15 µs on the
 * order path. A level that throws rolls back to its savepoint if it has one; without one it
 * wrote nothing, so there is nothing to undo.
 */
export class LazySavepoints {
  readonly #savepoint: Database.Statement;
  readonly #release: Database.Statement;
  readonly #rollbackTo: Database.Statement;
  /** Per open level, outermost first: its savepoint exists. */
  readonly #opened: boolean[] = [];

  constructor(db: Database.Database) {
    this.#savepoint = db.prepare('SAVEPOINT clobot_level');
    this.#release = db.prepare('RELEASE clobot_level');
    this.#rollbackTo = db.prepare('ROLLBACK TO clobot_level');
  }

  /** Runs `fn` as a nested level (the store's transaction is open). */
  run<T>(fn: () => T): T {
    this.#opened.push(false);
    let ok = false;
    try {
      const result = fn();
      ok = true;
      return result;
    } finally {
      if (this.#opened.pop() === true) {
        if (!ok) this.#rollbackTo.run();
        this.#release.run();
      }
    }
  }

  /** Before a write: opens the savepoints of the open levels that have none yet, outermost first. */
  writing(): void {
    const opened = this.#opened;
    for (let i = 0; i < opened.length; i++) {
      if (!opened[i]) {
        this.#savepoint.run();
        opened[i] = true;
      }
    }
  }
}
