import type { Subscription } from 'rxjs';
import type { Clock } from './clock.ts';

/**
 * Runs `work(at)` at every multiple of `periodMs` on the clock (virtual time in a backtest), from
 * the next one after now, until stopped. One fresh action per run rather than one that
 * reschedules itself: a virtual-time scheduler chains every rescheduled action to the one
 * before. The reward samplers of the sandbox and the engine share it, so both sample on the same
 * instants of one clock.
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
    if (this.#timer === undefined) this.#schedule();
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

  #schedule(): void {
    const now = this.#clock.now();
    const next = (Math.floor(now / this.#periodMs) + 1) * this.#periodMs;
    this.#pendingAt = next;
    this.#timer = this.#clock.scheduler.schedule(() => {
      if (this.#timer === undefined) return;
      this.#work(next);
      if (this.#timer !== undefined) this.#schedule();
    }, next - now);
  }
}
