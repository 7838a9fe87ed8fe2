import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CashFence } from '../../src/portfolio/cash-fence.ts';

/**
 * Issue 28 point 2: a venue balance reading is applied only with the fills the venue had counted
 * when it answered. A model of the venue: fills matched at venue time `t`, each reaching the bot
 * `lag` ms later; readings asked at `from`, answered `d` ms later, the venue's balance taken at
 * some instant in between. Whatever the interleaving, once every fill has arrived the cash is
 * the venue's: no fill lost, none counted twice.
 */

const START = 1_000_000_000;

const fill = fc.record({ t: fc.integer({ min: 0, max: 60_000 }), effect: fc.integer({ min: -50_000_000, max: 50_000_000 }), lag: fc.integer({ min: 0, max: 5_000 }) });
const reading = fc.record({ from: fc.integer({ min: 0, max: 65_000 }), d: fc.integer({ min: 0, max: 2_000 }), u: fc.double({ min: 0, max: 1, noNaN: true }) });

type Step = { at: number; tie: number } & ({ kind: 'fill'; t: number; effect: number } | { kind: 'reading'; from: number; to: number; cash: number });

/** The bot's view, step by step, of one history; returns the fence and the venue's final cash. */
function replay(fills: { t: number; effect: number; lag: number }[], readings: { from: number; d: number; u: number }[], ties: number[], margin: number) {
  const venueAt = (s: number): number => START + fills.filter((f) => f.t <= s).reduce((a, f) => a + f.effect, 0);
  const steps: Step[] = [
    ...fills.map((f, i): Step => ({ kind: 'fill', at: f.t + f.lag, tie: ties[i % ties.length]!, t: f.t, effect: f.effect })),
    ...readings.map((r, i): Step => {
      const to = r.from + r.d;
      return { kind: 'reading', at: to, tie: ties[(fills.length + i) % ties.length]!, from: r.from, to, cash: venueAt(r.from + Math.floor(r.u * r.d)) };
    }),
  ].sort((a, b) => a.at - b.at || a.tie - b.tie);
  const fence = new CashFence(margin);
  // the run's first reading, before any fill
  fence.reading(START, -2_000, -1_000);
  for (const step of steps) {
    if (step.kind === 'fill') fence.event(step.t, step.effect);
    else fence.reading(step.cash, step.from, step.to);
  }
  return { fence, venue: START + fills.reduce((a, f) => a + f.effect, 0) };
}

describe('CashFence', () => {
  it('ends with the venue cash over 1,000 random interleavings of fills and readings', () => {
    fc.assert(
      fc.property(fc.array(fill, { maxLength: 30 }), fc.array(reading, { maxLength: 20 }), fc.array(fc.integer(), { minLength: 1, maxLength: 50 }), fc.constantFrom(0, 1_000), (fills, readings, ties, margin) => {
        const { fence, venue } = replay(fills, readings, ties, margin);
        expect(fence.cash()).toBe(venue);
      }),
      { numRuns: 1_000 },
    );
  });

  it('a reading between a fill\'s match and its delivery: the late fill moves nothing, a fill after the reading moves it once', () => {
    const fence = new CashFence();
    fence.reading(100_000_000, 0, 10);
    // the venue matched a BUY costing 8.389 at t=50; the bot reads the balance at 100-110 before the fill arrives
    fence.reading(91_611_000, 100, 110);
    expect(fence.cash()).toBe(91_611_000);
    fence.event(50, -8_389_000);
    expect(fence.cash()).toBe(91_611_000);
    // a fill matched after the reading is the venue's next change
    fence.event(200, -1_000_000);
    expect(fence.cash()).toBe(90_611_000);
  });

  it('a reading with a fill inside its window is not used, even when that fill arrives after it', () => {
    const fence = new CashFence();
    fence.reading(100_000_000, 0, 10);
    fence.reading(95_000_000, 100, 110); // holds the fill at 105, or not: nobody can say
    expect(fence.cash()).toBe(95_000_000);
    fence.event(105, -5_000_000);
    // the first reading and the fill after it
    expect(fence.cash()).toBe(95_000_000);
    fence.event(300, -1_000_000);
    expect(fence.cash()).toBe(94_000_000);
  });
});
