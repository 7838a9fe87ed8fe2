import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { delay } from '../../src/venue/delay.ts';

const T0 = 1_700_000_000_000;

/** Lets settled promises run their callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('delay (the retries\' wait)', () => {
  it("many waits under one caller's signal: one listener on it; the ended ones leave it; its abort rejects the rest with its reason", async () => {
    const clock = new SimulatedClock(T0);
    const caller = new AbortController();
    const ended: number[] = [];
    const reasons: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      delay(clock, i < 5 ? 100 : 10_000, caller.signal).then(
        () => ended.push(i),
        (reason: unknown) => reasons.push(reason),
      );
    }
    // a listener each made Node warn of a leak past 10 (a burst of retries under a run's stop signal)
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    clock.advanceBy(100);
    await settle();
    expect(ended).toEqual([0, 1, 2, 3, 4]);
    const reason = new Error('run stopped');
    caller.abort(reason);
    await settle();
    expect(reasons).toHaveLength(15);
    expect(reasons.every((r) => r === reason)).toBe(true);
    // the aborted waits' timers are gone: time passing resolves nothing more
    clock.advanceBy(10_000);
    await settle();
    expect(ended).toHaveLength(5);
  });

  it('an aborted signal rejects at once; no signal waits the time out', async () => {
    const clock = new SimulatedClock(T0);
    const caller = new AbortController();
    const reason = new Error('stopped');
    caller.abort(reason);
    await expect(delay(clock, 100, caller.signal)).rejects.toBe(reason);
    let done = false;
    void delay(clock, 100).then(() => (done = true));
    clock.advanceBy(99);
    await settle();
    expect(done).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(done).toBe(true);
  });
});
