import { asyncScheduler, Subscription, VirtualAction, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';

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
 * rxjs's VirtualAction reschedules a periodic action (an `interval`, any action calling
 * `this.schedule` from its work) by nesting a new action inside the old one, so each period adds
 * a level: a long backtest holds every past tick in memory, and unsubscribing the chain overflows
 * the stack. This action reschedules itself in place instead, taking a fresh index as a new
 * VirtualAction would, so the order of what runs is the same.
 */
class FlatVirtualAction<T> extends VirtualAction<T> {
  override schedule(state?: T, delay = 0): Subscription {
    if (!Number.isFinite(delay)) return Subscription.EMPTY;
    if (this.closed) return this;
    if (this.id) {
      const queue = this.scheduler.actions;
      const at = queue.indexOf(this);
      if (at >= 0) queue.splice(at, 1);
      this.index = this.scheduler.index += 1;
      this.active = true;
    }
    return ASYNC_ACTION_SCHEDULE.call(this, state, delay);
  }
}

/** AsyncAction's own `schedule` (queues the action once), which VirtualAction overrides. */
const ASYNC_ACTION_SCHEDULE = (Object.getPrototypeOf(VirtualAction.prototype) as { schedule: (this: unknown, state: unknown, delay: number) => Subscription }).schedule;

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
    this.#scheduler = new VirtualTimeScheduler(FlatVirtualAction, Infinity);
    // RxJS schedulers report frame time from 0; shift it so now() is epoch milliseconds.
    const vts = this.#scheduler;
    const epoch = startEpochMs;
    this.scheduler = {
      now: () => epoch + vts.now(),
      schedule: vts.schedule.bind<SchedulerLike['schedule']>(vts),
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
