import { asyncScheduler, Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

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
 * One timer of a SimulatedClock: what rxjs's VirtualAction does for our use, lighter. rxjs's own
 * action goes through four classes per schedule, sorts the whole queue each time and
 * reschedules a periodic action by nesting a new one inside the old (so a long backtest holds
 * every past tick and unsubscribing the chain overflows the stack). This one is a Subscription
 * (operators add it to theirs), is inserted in place in the time-ordered queue, and reschedules
 * itself in place taking a fresh index as a new VirtualAction would, so what runs, and in which
 * order, is the same (test/core/simulated-clock.test.ts holds it to rxjs's VirtualTimeScheduler).
 */
class VirtualTimer<T> extends Subscription implements SchedulerAction<T>, QueuedTimer {
  /** Virtual time it is due at (frames: ms since the clock's start). */
  due = 0;
  /** Creation order: timers due at the same time run in it. */
  index: number;
  state: T | undefined = undefined;
  /** Set while queued or running (rxjs's `id`): a schedule then takes a fresh index. */
  queued = false;
  /** Set when the work rescheduled its own timer while running. */
  pending = false;
  work: ((this: SchedulerAction<T>, state?: T) => void) | undefined;
  readonly #queue: TimerQueue;

  constructor(queue: TimerQueue, work: (this: SchedulerAction<T>, state?: T) => void) {
    super();
    this.#queue = queue;
    this.work = work;
    this.index = ++queue.index;
  }

  schedule(state?: T, delay = 0): Subscription {
    if (!Number.isFinite(delay)) return Subscription.EMPTY;
    if (this.closed) return this;
    const queue = this.#queue;
    if (this.queued) {
      queue.remove(this);
      this.index = ++queue.index;
    }
    this.state = state;
    this.pending = true;
    this.due = queue.frame + delay;
    queue.insert(this);
    this.queued = true;
    return this;
  }

  run(): void {
    this.work!(this.state);
  }

  override unsubscribe(): void {
    if (this.closed) return;
    this.#queue.remove(this);
    this.work = undefined;
    this.state = undefined;
    this.pending = false;
    this.queued = false;
    super.unsubscribe();
  }
}

/** What the queue needs of a timer, whatever its state's type. */
interface QueuedTimer {
  readonly due: number;
  readonly index: number;
  pending: boolean;
  queued: boolean;
  run(): void;
  unsubscribe(): void;
}

/** The virtual time and the timers waiting, by due time then index (rxjs's sortActions order). */
class TimerQueue {
  frame = 0;
  index = -1;
  readonly timers: QueuedTimer[] = [];

  insert(timer: QueuedTimer): void {
    const timers = this.timers;
    // after every timer due before it, or due with it and made before it
    let lo = 0;
    let hi = timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = timers[mid]!;
      if (t.due < timer.due || (t.due === timer.due && t.index < timer.index)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === timers.length) timers.push(timer);
    else timers.splice(lo, 0, timer);
  }

  remove(timer: QueuedTimer): void {
    const timers = this.timers;
    const at = timers.indexOf(timer);
    if (at >= 0) timers.splice(at, 1);
  }

  /** Runs every timer due up to `maxFrame`, in order; a timer that throws unsubscribes the rest and rethrows (as rxjs's flush). */
  flush(maxFrame: number): void {
    const timers = this.timers;
    let failed = false;
    let error: unknown;
    while (timers.length > 0 && timers[0]!.due <= maxFrame) {
      const timer = timers.shift()!;
      this.frame = timer.due;
      timer.pending = false;
      try {
        timer.run();
      } catch (err) {
        failed = true;
        error = err ? err : new Error('Scheduled action threw falsy error');
        timer.unsubscribe();
        break;
      }
      if (!timer.pending) timer.queued = false;
    }
    if (failed) {
      while (timers.length > 0) timers.shift()!.unsubscribe();
      throw error;
    }
  }
}

/**
 * Virtual time that only moves forward. `advanceTo(t)` runs every action due at or before `t`
 * in time order; the backtest drives it from recorded `tsInit` values.
 */
export class SimulatedClock implements Clock {
  readonly #queue = new TimerQueue();
  readonly scheduler: SchedulerLike;
  readonly #epochMs: number;

  constructor(startEpochMs: number) {
    this.#epochMs = startEpochMs;
    const queue = this.#queue;
    // RxJS schedulers report frame time from 0; shift it so now() is epoch milliseconds.
    this.scheduler = {
      now: () => startEpochMs + queue.frame,
      schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
        return new VirtualTimer<T>(queue, work).schedule(state, delay);
      },
    };
  }

  now(): number {
    return this.#epochMs + this.#queue.frame;
  }

  /** Runs all actions due up to epoch time `t` (inclusive) and leaves the clock at `t`. */
  advanceTo(t: number): void {
    const target = t - this.#epochMs;
    const queue = this.#queue;
    if (target < queue.frame) return; // time never goes back
    // nothing due: the common case of a replayed event
    if (queue.timers.length > 0 && queue.timers[0]!.due <= target) queue.flush(target);
    queue.frame = target;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.now() + ms);
  }
}
