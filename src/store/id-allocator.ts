import type { RunStore } from './run-store.ts';

/**
 * Hands out client order id sequence numbers one at a time from blocks durably reserved in the
 * store (`reserveIds`). After a restart a new allocator continues after the newest block, so no id
 * is ever handed out twice, even if the process died between a reservation and its use.
 *
 * A reservation is fsynced (milliseconds), so it should not happen inside a tick, between a book
 * and its order post. Once half of the current block is used, the next block is reserved on a
 * later turn of the event loop (`defer`, setImmediate by default), so `next()` finds it waiting.
 * Only when ids run out faster than that (or the deferred reservation failed) does `next()`
 * reserve synchronously, and then a failure is thrown to the caller. A block reserved in advance
 * and never used is skipped, never reused.
 */
export class IdAllocator {
  #next = 0;
  #last = -1;
  #spare: { from: number; to: number } | undefined;
  #prefetching = false;

  constructor(
    private readonly store: Pick<RunStore, 'reserveIds'>,
    readonly blockSize = 1_000,
    private readonly defer: (task: () => void) => void = (task) => setImmediate(task),
  ) {}

  next(): number {
    if (this.#next > this.#last) {
      const block = this.#spare ?? this.store.reserveIds(this.blockSize);
      this.#spare = undefined;
      this.#next = block.from;
      this.#last = block.to;
    }
    const id = this.#next++;
    if (this.#spare === undefined && !this.#prefetching && this.#last - this.#next < this.blockSize / 2) this.#prefetch();
    return id;
  }

  #prefetch(): void {
    this.#prefetching = true;
    this.defer(() => {
      this.#prefetching = false;
      if (this.#spare !== undefined) return;
      try {
        this.#spare = this.store.reserveIds(this.blockSize);
      } catch {
        // the store closed or failed: next() reserves synchronously when it must, and throws then
      }
    });
  }
}
