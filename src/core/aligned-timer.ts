import type { Subscription } from 'rxjs';
import type { Clock } from './clock.ts';

/**
 * Runs `work(at)` at every multiple of `periodMs` on the clock (virtual time in a backtest), from
 * the next one after now, until stopped. One fresh action per run rather than one that
 * reschedules itself: a virtual-time scheduler chains every rescheduled action to the one
 * before. The reward samplers of the sandbox and the engine share it, so both sample on the same
 * instants of one clock.
 *
 * No instant is skipped: a callback that runs late (a busy event loop, a stalled process) runs
 * every instant due by then, in order, before waiting for the next. Two timers on one clock then
 * run the same instants whichever side of an instant a stall ends for each (a skipping timer
 * would skip an instant on one side and not the other: the sandbox and the engine would count
 * different samples). `runDue` lets a reader take the due instants before the callback comes.
 */
export class AlignedTimer {
  readonly #clock: Clock;
  readonly #periodMs: number;
  readonly #work: (at: number) => void;
  #timer: Subscription | undefined;
  #pendingAt: number | undefined;

  constructor(clock: Clock, periodMs: number, work: (at: number) => void) {
    this.#clock = clock;
    this.#periodMs = periodMs;
    this.#work = work;
  }

  /** No-op when running. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#pendingAt = (Math.floor(this.#clock.now() / this.#periodMs) + 1) * this.#periodMs;
    this.#schedule();
  }

  /** The instant the next run is for (its callback may be a moment late); undefined when stopped. */
  get pendingAt(): number | undefined {
    return this.#timer === undefined ? undefined : this.#pendingAt;
  }

  stop(): void {
    const t = this.#timer;
    this.#timer = undefined;
    t?.unsubscribe();
  }

  /** Runs every instant due at or before `now`, in order (none when stopped or none is due). */
  runDue(now: number): void {
    while (this.#timer !== undefined && this.#pendingAt !== undefined && this.#pendingAt <= now) {
      const at = this.#pendingAt;
      this.#pendingAt = at + this.#periodMs;
      this.#work(at);
    }
  }

  #schedule(): void {
    const due = this.#pendingAt ?? 0;
    this.#timer = this.#clock.scheduler.schedule(
      () => {
        if (this.#timer === undefined) return;
        // the instant this callback is for is due even when the clock reads a moment before it
        // (a reader's runDue may have run it already: then only what is due by now)
        this.runDue(Math.max(this.#clock.now(), due));
        if (this.#timer !== undefined) this.#schedule();
      },
      Math.max(0, due - this.#clock.now()),
    );
  }
}
