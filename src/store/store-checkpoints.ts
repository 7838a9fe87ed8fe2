import type Database from 'better-sqlite3';
import { BackgroundCheckpointer } from './checkpointer.ts';

/**
 * Background checkpoint period. A checkpoint (its copy and two fsyncs on the worker) stalls a
 * commit of the owner that lands during it, now and then by tens to hundreds of ms on this
 * machine's ext4; fewer checkpoints, fewer stalled ticks. Measured on the live order path (15
 * orders a tick every ~25 ms, a one-off trace not kept, two runs each): the tick's COMMIT p99 4.4-5.9
 * ms every 500 ms, 0.2-0.4 ms every 5 s (its p50 ~15 us higher: the WAL restarts less often).
 * The WAL holds at most a few MB more between checkpoints.
 */
const CHECKPOINT_INTERVAL_MS = 5_000;
/**
 * When checkpoints are SQLite's own (inline): once the WAL holds this much. SQLite's default is
 * 1,000 pages, ~4 MB with 4 KB pages; a store made with 8 KB pages (store-open.ts) keeps ~4 MB.
 */
const AUTO_CHECKPOINT_BYTES = 4_096_000;

/**
 * Where a store's WAL checkpoints run: on a worker thread (`background`, checkpointer.ts: its
 * fsyncs never stall the owner's commits), or in the committing call, SQLite's own (`inline`:
 * asked for, or after the worker failed). Either way the WAL stays bounded.
 */
export class StoreCheckpoints {
  readonly #db: Database.Database;
  readonly #file: string;
  #checkpointer: BackgroundCheckpointer | undefined;
  #failure: string | undefined;
  #stopped = false;

  constructor(db: Database.Database, file: string, mode: 'background' | 'inline') {
    this.#db = db;
    this.#file = file;
    if (mode === 'background') this.#startBackground();
    else this.#inline();
  }

  get mode(): 'background' | 'inline' {
    return this.#checkpointer ? 'background' : 'inline';
  }

  /** Why the background checkpointer stopped, if it failed. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Stops the worker (its connection closed before this returns); the owner closes the file next. */
  stop(): void {
    this.#stopped = true;
    this.#checkpointer?.stop();
    this.#checkpointer = undefined;
  }

  #startBackground(): void {
    this.#db.pragma('wal_autocheckpoint = 0');
    this.#checkpointer = new BackgroundCheckpointer(this.#file, CHECKPOINT_INTERVAL_MS, (reason) => {
      // back to SQLite's own checkpoints: slower commits now and then, but the WAL stays bounded
      this.#checkpointer = undefined;
      this.#failure = reason;
      if (!this.#stopped) this.#inline();
    });
  }

  /** SQLite checkpoints in the committing call once the WAL holds AUTO_CHECKPOINT_BYTES. */
  #inline(): void {
    const pageSize = this.#db.pragma('page_size', { simple: true }) as number;
    this.#db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.round(AUTO_CHECKPOINT_BYTES / pageSize))}`);
  }
}
