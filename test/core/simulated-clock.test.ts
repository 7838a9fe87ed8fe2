import { interval, timer, VirtualTimeScheduler } from 'rxjs';
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
});
