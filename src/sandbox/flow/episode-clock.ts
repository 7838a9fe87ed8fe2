import type { Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.ts';

/**
 * How a kind of sandbox episode runs on the sandbox clock: `step(now, dtSec)` every `stepMs` (one
 * fresh scheduled action per step: a virtual-time scheduler chains an action that reschedules
 * itself to the one before, without bound), from `start` until `stop`.
 */
export class EpisodeClock {
  readonly #clock: Clock;
  readonly #stepMs: number;
  readonly #step: (now: number, dtSec: number) => void;
  #timer: Subscription | undefined;
  #lastStepMs = 0;

  constructor(clock: Clock, stepMs: number, step: (now: number, dtSec: number) => void) {
    this.#clock = clock;
    this.#stepMs = stepMs;
    this.#step = step;
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#lastStepMs = this.#clock.now();
    this.#schedule();
  }

  stop(): void {
    this.#timer?.unsubscribe();
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = this.#clock.scheduler.schedule(() => {
      if (this.#timer === undefined) return;
      const now = this.#clock.now();
      const dtSec = Math.max(0, now - this.#lastStepMs) / 1000;
      this.#lastStepMs = now;
      this.#step(now, dtSec);
      if (this.#timer !== undefined) this.#schedule();
    }, this.#stepMs);
  }
}

/** The chance that a Poisson process of `ratePerHour` starts within `dtSec` (a gap above a minute counts as one). */
export function startChance(ratePerHour: number, dtSec: number): number {
  return 1 - Math.exp((-ratePerHour / 3600) * Math.min(dtSec, 60));
}
