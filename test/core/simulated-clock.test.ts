import { interval, timer, VirtualTimeScheduler, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';

/** What a mix of timers does on rxjs's own VirtualTimeScheduler, as the reference order. */
function reference(): string[] {
  const vts = new VirtualTimeScheduler(undefined, Infinity);
  const seen: string[] = [];
  const a = interval(10, vts).subscribe((i) => seen.push(`a${i}@${vts.now()}`));
  const b = interval(15, vts).subscribe((i) => seen.push(`b${i}@${vts.now()}`));
  timer(30, vts).subscribe(() => seen.push(`t@${vts.now()}`));
  timer(0, 20, vts).subscribe((i) => seen.push(`c${i}@${vts.now()}`));
  vts.maxFrames = 75;
  vts.flush();
  a.unsubscribe();
  b.unsubscribe();
  return seen;
}

describe('SimulatedClock', () => {
  it('runs timers and intervals in the same order as rxjs VirtualTimeScheduler', () => {
    const clock = new SimulatedClock(1_000);
    const seen: string[] = [];
    const at = () => clock.now() - 1_000;
    const a = interval(10, clock.scheduler).subscribe((i) => seen.push(`a${i}@${at()}`));
    const b = interval(15, clock.scheduler).subscribe((i) => seen.push(`b${i}@${at()}`));
    timer(30, clock.scheduler).subscribe(() => seen.push(`t@${at()}`));
    timer(0, 20, clock.scheduler).subscribe((i) => seen.push(`c${i}@${at()}`));
    clock.advanceTo(1_075);
    a.unsubscribe();
    b.unsubscribe();
    expect(seen).toEqual(reference());
    expect(clock.now()).toBe(1_075);
  });

  it('keeps a long interval flat: a million ticks, then unsubscribing does not overflow the stack', () => {
    const clock = new SimulatedClock(0);
    let ticks = 0;
    const sub = interval(1, clock.scheduler).subscribe(() => ticks++);
    clock.advanceBy(1_000_000);
    expect(ticks).toBe(1_000_000);
    expect(() => sub.unsubscribe()).not.toThrow();
    clock.advanceBy(10);
    expect(ticks).toBe(1_000_000);
  });

  it('a timer that throws: the advance throws it and the timers still waiting are dropped, as on rxjs', () => {
    const run = (scheduler: SchedulerLike, advance: (ms: number) => void): string[] => {
      const seen: string[] = [];
      scheduler.schedule(() => seen.push('a'), 5);
      scheduler.schedule(() => {
        throw new Error('boom');
      }, 10);
      scheduler.schedule(() => seen.push('late'), 20);
      scheduler.schedule(function (this: SchedulerAction<number>, n?: number) {
        seen.push(`r${n}`);
        if (n! < 3) this.schedule(n! + 1, 3);
      }, 1, 0);
      expect(() => advance(30)).toThrow('boom');
      advance(60);
      return seen;
    };
    const vts = new VirtualTimeScheduler(undefined, Infinity);
    const reference = run(vts, (ms) => {
      vts.maxFrames = ms;
      vts.flush();
    });
    const clock = new SimulatedClock(0);
    expect(run(clock.scheduler, (ms) => clock.advanceTo(ms))).toEqual(reference);
    // r3 is due with the throwing timer but made after it: dropped with `late`
    expect(reference).toEqual(['r0', 'r1', 'a', 'r2']);
  });
});
