import { describe, expect, it } from 'vitest';
import { AlignedTimer } from '../../src/core/aligned-timer.ts';
import { SimulatedClock } from '../../src/core/clock.ts';

/** The timer of the reward samplers (sandbox and engine): every multiple of the period, none skipped. */
describe('AlignedTimer', () => {
  it('runs at every multiple of the period from the next one; stop ends it', () => {
    const clock = new SimulatedClock(10_250);
    const runs: number[] = [];
    const timer = new AlignedTimer(clock, 1_000, (at) => runs.push(at));
    timer.start();
    expect(timer.pendingAt).toBe(11_000);
    clock.advanceTo(13_500);
    expect(runs).toEqual([11_000, 12_000, 13_000]);
    timer.stop();
    expect(timer.pendingAt).toBeUndefined();
    clock.advanceTo(20_000);
    expect(runs).toHaveLength(3);
  });

  it('a reader (runDue) takes every due instant in order, never one twice, none skipped; the callback then takes only what is left', () => {
    const clock = new SimulatedClock(10_250);
    const runs: number[] = [];
    const timer = new AlignedTimer(clock, 1_000, (at) => runs.push(at));
    timer.start();
    timer.runDue(10_900); // nothing due yet
    expect(runs).toEqual([]);
    // a stall: three instants due by the time anyone runs, taken in order
    timer.runDue(13_100);
    expect(runs).toEqual([11_000, 12_000, 13_000]);
    expect(timer.pendingAt).toBe(14_000);
    // the callback that was for 11,000 runs at last: nothing more is due
    clock.advanceTo(13_200);
    expect(runs).toEqual([11_000, 12_000, 13_000]);
    clock.advanceTo(14_000);
    expect(runs).toEqual([11_000, 12_000, 13_000, 14_000]);
    timer.stop();
    timer.runDue(20_000);
    expect(runs).toHaveLength(4);
  });
});
