import type { RunStore } from './run-store.ts';

/**
 * Hands out client order id sequence numbers one at a time from blocks durably reserved in the
 * store (`reserveIds`), reserving the next block when one runs out. After a restart a new
 * allocator continues after the newest block, so no id is ever handed out twice, even if the
 * process died between a reservation and its use.
 */
export class IdAllocator {
  #next = 0;
  #last = -1;

  constructor(
    private readonly store: Pick<RunStore, 'reserveIds'>,
    readonly blockSize = 1_000,
  ) {}

  next(): number {
    if (this.#next > this.#last) {
      const block = this.store.reserveIds(this.blockSize);
      this.#next = block.from;
      this.#last = block.to;
    }
    return this.#next++;
  }
}
