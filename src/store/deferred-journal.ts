import type { JournalInput } from './store-types.ts';

/**
 * Journal entries written off the order path: market events, the run's replayable data. They are
 * not needed for the crash safety of orders (that is the order rows and the id blocks, written
 * before a post), so instead of costing every tick their JSON, their INSERT and their pages in the
 * commit that lets the orders go, they are queued and written on a later turn of the event loop,
 * all that queued up in one transaction. What a process kill loses is the queue of that one turn.
 *
 * `flush()` writes the queue now (the store calls it before it reads or closes). A failed write
 * of a deferred flush is kept and thrown by the next `add` (and by the store's next write), so it
 * reaches the caller's fault handling on its next write instead of being lost.
 */
export class DeferredJournal {
  readonly #write: (entries: readonly JournalInput[]) => void;
  readonly #defer: (task: () => void) => void;
  #queue: JournalInput[] = [];
  #scheduled = false;
  #failure: Error | undefined;

  /** `write` stores entries (in one transaction); `defer` runs a task on a later turn (default setImmediate). */
  constructor(write: (entries: readonly JournalInput[]) => void, defer: (task: () => void) => void = (task) => setImmediate(task)) {
    this.#write = write;
    this.#defer = defer;
  }

  /** Entries queued and not yet written. */
  get pending(): number {
    return this.#queue.length;
  }

  /** The error of a deferred flush that failed, if one did. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Queues an entry; throws the failure of an earlier deferred flush. */
  add(entry: JournalInput): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#queue.push(entry);
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#defer(() => this.#deferredFlush());
    }
  }

  /** Writes what is queued now; a failure is thrown (the entries are dropped with it). */
  flush(): void {
    if (this.#queue.length === 0) return;
    const entries = this.#queue;
    this.#queue = [];
    this.#write(entries);
  }

  #deferredFlush(): void {
    this.#scheduled = false;
    try {
      this.flush();
    } catch (err) {
      this.#failure ??= err instanceof Error ? err : new Error(String(err));
    }
  }
}
