import { asyncScheduler, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';

/**
 * The one injected clock. Core code never reads wall time nor schedules a timer except through
 * a Clock: `now()` for timestamps and `scheduler` for every RxJS time operator.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  readonly scheduler: SchedulerLike;
}

/** Real time: Date.now() and RxJS's asyncScheduler. The only place allowed to read the wall clock. */
export class LiveClock implements Clock {
  readonly scheduler: SchedulerLike = asyncScheduler;
  now(): number {
    return Date.now();
  }
}

/**
 * Virtual time that only moves forward. `advanceTo(t)` runs every action due at or before `t`
 * in time order; the backtest drives it from recorded `tsInit` values.
 */
export class SimulatedClock implements Clock {
  readonly #scheduler: VirtualTimeScheduler;
  readonly scheduler: SchedulerLike;
  readonly #epochMs: number;

  constructor(startEpochMs: number) {
    this.#epochMs = startEpochMs;
    this.#scheduler = new VirtualTimeScheduler(undefined, Infinity);
    // RxJS schedulers report frame time from 0; shift it so now() is epoch milliseconds.
    const vts = this.#scheduler;
    const epoch = startEpochMs;
    this.scheduler = {
      now: () => epoch + vts.now(),
      schedule: vts.schedule.bind(vts) as SchedulerLike['schedule'],
    };
  }

  now(): number {
    return this.#epochMs + this.#scheduler.now();
  }

  /** Runs all actions due up to epoch time `t` (inclusive) and leaves the clock at `t`. */
  advanceTo(t: number): void {
    const target = t - this.#epochMs;
    if (target < this.#scheduler.frame) return; // time never goes back
    this.#scheduler.maxFrames = target;
    this.#scheduler.flush();
    this.#scheduler.frame = target;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.now() + ms);
  }
}
