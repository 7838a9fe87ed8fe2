import type { SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { longTimer, MAX_TIMER_MS } from '../../src/core/long-timer.ts';

const HOUR = 3_600_000;

/** The clock's scheduler, recording every delay asked of it. */
function recording(clock: SimulatedClock): { scheduler: SchedulerLike; delays: number[] } {
  const delays: number[] = [];
  const scheduler: SchedulerLike = {
    now: () => clock.scheduler.now(),
    schedule: (work: never, delay?: number, state?: never) => {
      delays.push(delay ?? 0);
      return clock.scheduler.schedule(work, delay, state);
    },
  };
  return { scheduler, delays };
}

describe('longTimer', () => {
  it('fires a 600 h timer when due, waiting in chunks no longer than one Node timer can hold', () => {
    const clock = new SimulatedClock(1_700_000_000_000);
    const { scheduler, delays } = recording(clock);
    let firedAt: number | undefined;
    longTimer(600 * HOUR, scheduler, () => (firedAt = clock.now()));
    clock.advanceBy(1);
    clock.advanceBy(MAX_TIMER_MS);
    expect(firedAt).toBeUndefined();
    clock.advanceBy(600 * HOUR - MAX_TIMER_MS - 2);
    expect(firedAt).toBeUndefined();
    clock.advanceBy(1);
    expect(firedAt).toBe(1_700_000_000_000 + 600 * HOUR);
    expect(delays.length).toBeGreaterThan(1);
    for (const d of delays) expect(d).toBeLessThanOrEqual(MAX_TIMER_MS);
  });

  it('a short timer is one timer; unsubscribe cancels, also between chunks', () => {
    const clock = new SimulatedClock(0);
    const { scheduler, delays } = recording(clock);
    let fired = 0;
    longTimer(500, scheduler, () => fired++);
    clock.advanceBy(500);
    expect([fired, delays]).toEqual([1, [500]]);
    const long = longTimer(5 * MAX_TIMER_MS, scheduler, () => fired++);
    clock.advanceBy(MAX_TIMER_MS + 10);
    long.unsubscribe();
    clock.advanceBy(10 * MAX_TIMER_MS);
    expect(fired).toBe(1);
  });

  it('refuses a negative or NaN delay', () => {
    const clock = new SimulatedClock(0);
    expect(() => longTimer(-1, clock.scheduler, () => undefined)).toThrow('timer delay must be a number >= 0, was -1');
    expect(() => longTimer(NaN, clock.scheduler, () => undefined)).toThrow('was NaN');
  });
});
