/**
 * Work that yields to the HTTP routes: the WebSocket channels' handshakes, subscriptions,
 * snapshots and socket writes are done a step at a time, under one time budget per turn of the
 * event loop over all of them, so a request or heartbeat waits at most about that long behind a
 * connect burst or a fan-out to hundreds of subscribers.
 */

/** One kind of work, done a step at a time. */
export interface SlicedWork {
  /** True while a step is left to do. */
  pending(): boolean;
  /** Does one step: one upgrade's handshake, one connection's subscriptions, part of a snapshot, one socket's writes. */
  step(): void;
}

/** CPU time the steps of one turn of the event loop may take in all, ms (at least one step runs each turn). */
const TURN_MS = 1;

/**
 * Runs the steps of the works it is woken for, about `turnMs` a turn (setImmediate), then yields.
 * Each turn starts with the work that started the fewest turns lately (the one at the head goes
 * to the back once its turn is over), so a steady stream of writes does not starve a connect
 * burst's handshakes, nor the other way round.
 */
export class TurnBudget {
  readonly #works = new Set<SlicedWork>();
  #scheduled = false;
  #turns = 0;

  /** `turnMs`: time the steps may take in one turn (0: one step a turn, for tests). */
  constructor(private readonly turnMs = TURN_MS) {}

  /** Turns that have run steps so far. */
  get turns(): number {
    return this.#turns;
  }

  /** Runs `work`'s steps from the next turn on, until it has none pending. */
  wake(work: SlicedWork): void {
    this.#works.add(work);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#run);
  }

  readonly #run = (): void => {
    this.#scheduled = false;
    this.#turns++;
    const started = performance.now();
    let steps = 0;
    let head: SlicedWork | undefined;
    for (const work of this.#works) {
      head ??= work;
      while (work.pending() && (steps === 0 || performance.now() - started < this.turnMs)) {
        work.step();
        steps++;
      }
      if (!work.pending()) this.#works.delete(work);
      else break;
    }
    // the work that had the head of this turn goes to the back
    if (head !== undefined && this.#works.delete(head)) this.#works.add(head);
    if (this.#works.size > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#run);
    }
  };
}

/** The budget of this thread's event loop, shared by every channel served in it. */
export const eventLoopBudget = new TurnBudget();
