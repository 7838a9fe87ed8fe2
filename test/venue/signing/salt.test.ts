import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { orderStamper, randomSaltSource, sequentialSaltSource } from '../../../src/venue/signing/salt.ts';

describe('salt sources and the order stamp', () => {
  it('stamps from the injected clock and salt source', () => {
    const clock = new SimulatedClock(1_700_000_000_000);
    const stamp = orderStamper(clock, sequentialSaltSource(10));
    expect(stamp()).toEqual({ salt: 10, timestamp: 1_700_000_000_000 });
    clock.advanceBy(250);
    expect(stamp()).toEqual({ salt: 11, timestamp: 1_700_000_000_250 });
  });

  it('random salts are safe integers below 2^48 and differ', () => {
    const salts = randomSaltSource();
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const s = salts();
      expect(Number.isSafeInteger(s) && s >= 0 && s < 2 ** 48).toBe(true);
      seen.add(s);
    }
    expect(seen.size).toBeGreaterThan(990);
  });
});
