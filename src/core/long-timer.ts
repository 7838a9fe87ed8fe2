import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * The longest delay one timer can wait: Node's timers (and rxjs's asyncScheduler over them) hold
 * a signed 32-bit count of milliseconds and fire after 1 ms for anything longer.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` once, `ms` milliseconds from now on `scheduler`, however long that is: a delay
 * beyond MAX_TIMER_MS waits in chunks, each rechecking the scheduler's time, so `--duration 600h`
 * (or years) fires when due, not after 1 ms. Unsubscribe to cancel.
 */
export function longTimer(ms: number, scheduler: SchedulerLike, fire: () => void): { unsubscribe(): void } {
  if (!(ms >= 0)) throw new RangeError(`timer delay must be a number >= 0, was ${ms}`);
  const due = scheduler.now() + ms;
  let current: Subscription | undefined;
  let cancelled = false;
  const arm = (wait: number): void => {
    current = scheduler.schedule(() => {
      if (cancelled) return;
      const left = due - scheduler.now();
      if (left > 0) arm(left);
      else fire();
    }, Math.min(wait, MAX_TIMER_MS));
  };
  arm(ms);
  return {
    unsubscribe(): void {
      cancelled = true;
      current?.unsubscribe();
    },
  };
}
