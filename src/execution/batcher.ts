import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * Groups pushed items into batches of at most `maxSize`. The first item of a batch starts a timer
 * of `maxWaitMs` on the given scheduler; the batch goes to `emit` when it is full or the timer
 * fires, whichever is first. Nothing is emitted while idle (unlike bufferTime).
 *
 * A plain class rather than an operator chain: the engine's order and cancel paths push every
 * order through it, and an RxJS Subject + operator costs a few subscriber hops per item.
 */
export class Batcher<T> {
  readonly #maxWaitMs: number;
  readonly #maxSize: number;
  readonly #scheduler: SchedulerLike;
  readonly #emit: (batch: T[]) => void;
  #batch: T[] = [];
  #timer: Subscription | undefined;
  /** The timer's work, made once (a fresh arrow per batch would cost a closure each). */
  readonly #onTimer = (): void => this.flush();

  constructor(maxWaitMs: number, maxSize: number, scheduler: SchedulerLike, emit: (batch: T[]) => void) {
    if (maxSize < 1) throw new RangeError(`maxSize must be >= 1, was ${maxSize}`);
    this.#maxWaitMs = maxWaitMs;
    this.#maxSize = maxSize;
    this.#scheduler = scheduler;
    this.#emit = emit;
  }

  push(item: T): void {
    const batch = this.#batch;
    batch.push(item);
    if (batch.length >= this.#maxSize) this.flush();
    else if (this.#timer === undefined) this.#timer = this.#scheduler.schedule(this.#onTimer, this.#maxWaitMs);
  }

  /**
   * Items that must go out in ONE batch (a basket's legs): when they do not fit beside the
   * waiting items, the waiting batch goes first; then they join the next batch together. More
   * items than `maxSize` throw a RangeError (they could never share a batch).
   */
  pushGroup(items: readonly T[]): void {
    if (items.length > this.#maxSize) throw new RangeError(`a group of ${items.length} items cannot share a batch of at most ${this.#maxSize}`);
    if (this.#batch.length + items.length > this.#maxSize) this.flush();
    for (const item of items) this.#batch.push(item);
    if (this.#batch.length >= this.#maxSize) this.flush();
    else if (this.#timer === undefined && this.#batch.length > 0) this.#timer = this.#scheduler.schedule(this.#onTimer, this.#maxWaitMs);
  }

  /** Emits the waiting batch now (nothing when empty) and stops its timer. */
  flush(): void {
    this.#stopTimer();
    if (this.#batch.length === 0) return;
    const out = this.#batch;
    this.#batch = [];
    this.#emit(out);
  }

  /** Drops the waiting batch and its timer. */
  cancel(): void {
    this.#stopTimer();
    this.#batch = [];
  }

  #stopTimer(): void {
    const timer = this.#timer;
    if (timer === undefined) return;
    this.#timer = undefined;
    timer.unsubscribe();
  }
}

/** `Batcher` as an operator: on completion a pending partial batch is flushed. */
export function batchWithin<T>(maxWaitMs: number, maxSize: number, scheduler: SchedulerLike): OperatorFunction<T, T[]> {
  if (maxSize < 1) throw new RangeError(`maxSize must be >= 1, was ${maxSize}`);
  return (source) =>
    new Observable<T[]>((subscriber) => {
      const batcher = new Batcher<T>(maxWaitMs, maxSize, scheduler, (batch) => subscriber.next(batch));
      const sub = source.subscribe({
        next: (item) => batcher.push(item),
        error(err) {
          batcher.cancel();
          subscriber.error(err);
        },
        complete() {
          batcher.flush();
          subscriber.complete();
        },
      });
      return () => {
        batcher.cancel();
        sub.unsubscribe();
      };
    });
}

/**
 * Runs jobs with at most `limit` of them going at once; the rest wait in arrival order (what
 * `mergeMap(fn, limit)` does, without a subscriber chain per job). A job calls `done()` once
 * when it ends; the next waiting job then starts, in that call.
 */
export class Lanes<T> {
  readonly #limit: number;
  readonly #start: (job: T) => void;
  readonly #waiting: T[] = [];
  #head = 0;
  #active = 0;

  constructor(limit: number, start: (job: T) => void) {
    this.#limit = Math.max(1, limit);
    this.#start = start;
  }

  /** Jobs started and not done. */
  get active(): number {
    return this.#active;
  }

  add(job: T): void {
    if (this.#active < this.#limit) this.#run(job);
    else this.#waiting.push(job);
  }

  /** A started job ended: the next waiting one starts. */
  done(): void {
    this.#active--;
    const waiting = this.#waiting;
    while (this.#active < this.#limit && this.#head < waiting.length) {
      const job = waiting[this.#head]!;
      waiting[this.#head++] = undefined as T;
      if (this.#head === waiting.length) {
        waiting.length = 0;
        this.#head = 0;
      }
      this.#run(job);
    }
  }

  /** Forgets the waiting jobs (they never start). */
  clear(): void {
    this.#waiting.length = 0;
    this.#head = 0;
  }

  #run(job: T): void {
    this.#active++;
    this.#start(job);
  }
}

/**
 * An order or cancel path out: items pushed are batched on the clock (`Batcher`), whole batches
 * may skip the wait, and batches run with at most `inFlight` going at once (`Lanes`). Takes
 * items only while open: between `open()` and `complete()` (which still flushes the waiting
 * batch) or `close()` (which drops it and the batches waiting for a lane).
 */
export class Outlet<T> {
  readonly #lanes: Lanes<readonly T[]>;
  readonly #batcher: Batcher<T>;
  #open = false;

  constructor(maxWaitMs: number, maxSize: number, inFlight: number, scheduler: SchedulerLike, start: (batch: readonly T[]) => void) {
    const lanes = new Lanes<readonly T[]>(inFlight, start);
    this.#lanes = lanes;
    this.#batcher = new Batcher<T>(maxWaitMs, maxSize, scheduler, (batch) => lanes.add(batch));
  }

  open(): void {
    this.#open = true;
  }

  /** One item, batched with the next ones within the wait. */
  push(item: T): void {
    if (this.#open) this.#batcher.push(item);
  }

  /** Items batched together, never split across batches (Batcher.pushGroup). */
  pushGroup(items: readonly T[]): void {
    if (this.#open) this.#batcher.pushGroup(items);
  }

  /** A whole batch, at once. */
  post(batch: readonly T[]): void {
    if (this.#open) this.#lanes.add(batch);
  }

  /** A started batch ended: the next waiting one starts. */
  done(): void {
    this.#lanes.done();
  }

  complete(): void {
    if (!this.#open) return;
    this.#batcher.flush();
    this.#open = false;
  }

  close(): void {
    this.#open = false;
    this.#batcher.cancel();
    this.#lanes.clear();
  }
}
