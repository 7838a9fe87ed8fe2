import { describe, expect, it } from 'vitest';
import { MICROS_PER_UNIT } from '../../../src/core/fixed.ts';
import { NegRiskEpisodes } from '../../../src/sandbox/flow/neg-risk-episodes.ts';
import { toEventSummary } from '../../../src/sandbox/wire/metadata.ts';
import type { SandboxEvent } from '../../../src/sandbox/world/model.ts';
import { flowRig, T0 } from './helpers.ts';

const M = MICROS_PER_UNIT;

function rig(options: ConstructorParameters<typeof NegRiskEpisodes>[4] = {}, flow = false) {
  const r = flowRig({ seed: 3, markets: 60, events: 16, start: flow });
  const episodes = new NegRiskEpisodes(r.engine, r.world.events, r.world.seed, r.clock, options);
  episodes.start();
  const open = r.world.events.filter((e) => e.negRisk && !e.closed && e.markets.length >= 2);
  return { ...r, episodes, open };
}

/** Σ best YES asks (or bids) of an event's outcomes, micros. */
function sum(r: ReturnType<typeof rig>, event: SandboxEvent, side: 'bestAsk' | 'bestBid'): number {
  let total = 0;
  for (const m of event.markets) total += r.engine.quote(m.tokens[0].tokenId)[side] ?? NaN;
  return total;
}

describe('neg-risk episodes (sandbox)', () => {
  it('marks some neg-risk events augmented (seeded), never a binary one, and serves the flags on the event', () => {
    const r = rig();
    const negRisk = r.world.events.filter((e) => e.negRisk);
    expect(negRisk.some((e) => e.negRiskAugmented)).toBe(true);
    expect(negRisk.some((e) => !e.negRiskAugmented)).toBe(true);
    expect(r.world.events.filter((e) => !e.negRisk).every((e) => !e.negRiskAugmented)).toBe(true);
    const augmented = negRisk.find((e) => e.negRiskAugmented)!;
    expect(toEventSummary(augmented)).toMatchObject({ negRisk: true, enableNegRisk: true, negRiskAugmented: true });
    // the same seed gives the same flags
    expect(rig().world.events.map((e) => e.negRiskAugmented)).toEqual(r.world.events.map((e) => e.negRiskAugmented));
  });

  it('a cheap episode offers every outcome with the YES asks summing to at most 1 - gap; a rich one bids above 1 + gap; the depth goes at the end', () => {
    const r = rig();
    const [a, b] = r.open;
    expect(sum(r, a!, 'bestAsk')).toBeGreaterThan(M); // no set below 1 before
    const cheap = r.episodes.begin({ event: a!.id, direction: 'cheap', gap: 0.04, durationMs: 30_000 });
    expect(typeof cheap).toBe('object');
    expect(sum(r, a!, 'bestAsk')).toBeLessThanOrEqual(0.96 * M);
    for (const m of a!.markets) {
      const q = r.engine.quote(m.tokens[0].tokenId);
      if (q.bestBid !== undefined) expect(q.bestBid).toBeLessThan(q.bestAsk!); // never a crossed book
    }
    const rich = r.episodes.begin({ event: b!.slug, direction: 'rich', gap: 0.03, durationMs: 60_000 });
    expect(typeof rich).toBe('object');
    expect(sum(r, b!, 'bestBid')).toBeGreaterThanOrEqual(1.03 * M);
    expect(r.episodes.begin({ event: a!.id })).toMatch(/in an episode already/);
    expect(r.episodes.begin({ event: 'nope' })).toMatch(/no open neg-risk event 'nope'/);
    r.clock.advanceBy(31_000);
    expect(r.episodes.stats().active.map((e) => e.eventId)).toEqual([b!.id]);
    expect(sum(r, a!, 'bestAsk')).toBeGreaterThan(0.96 * M);
    r.episodes.close();
    expect(r.episodes.stats()).toMatchObject({ started: 2, ended: 2, active: [] });
  });

  it('the rate knob starts episodes by itself, the same ones for the same seed; 0 starts none', () => {
    const run = (ratePerHour: number) => {
      const r = rig({ ratePerHour, durationMs: [10_000, 20_000] });
      const seen: string[] = [];
      for (let s = 0; s < 1800; s++) {
        r.clock.advanceBy(1_000);
        for (const e of r.episodes.stats().active) if (!seen.includes(`${e.eventId}@${e.startedAt}`)) seen.push(`${e.eventId}@${e.startedAt}`);
      }
      return { seen, stats: r.episodes.stats() };
    };
    const one = run(6);
    expect(one.stats.started).toBeGreaterThan(3);
    expect(run(6).seen).toEqual(one.seen);
    expect(run(0).stats.started).toBe(0);
  });

  it('withdraws the fragile outcome depth at the first client order on the event: the other legs fill, that one cannot at any price', () => {
    const r = rig();
    const event = r.open.find((e) => !e.negRiskAugmented)!;
    const view = r.episodes.begin({ event: event.id, direction: 'cheap', gap: 0.05, withdraw: true });
    if (typeof view === 'string') throw new Error(view);
    const fragile = event.markets.findIndex((m) => m.conditionId === view.fragile);
    expect(fragile).toBeGreaterThanOrEqual(0);
    r.engine.ledger.deposit('0x00000000000000000000000000000000000000aa', 10_000 * M);
    const filled = event.markets.map((m, i) => {
      // the fragile leg even at 0.99: the depth behind the episode's quote (the seeded asks) went too
      const price = i === fragile ? 0.99 * M : Math.round(Number(view.prices[i]) * M);
      const res = r.engine.submit({ id: `client-${i}`, owner: 'client-key', address: '0x00000000000000000000000000000000000000aa', tokenId: m.tokens[0].tokenId, side: 'BUY', price, size: 10 * M, type: 'FOK', createdAt: T0 }, r.clock.now());
      return res.status !== 'REJECTED';
    });
    expect(filled.filter((f) => !f)).toHaveLength(1);
    expect(filled[fragile]).toBe(false);
    expect(r.episodes.stats()).toMatchObject({ withdrawn: 1 });
  });

  it('refuses bad knobs with the key named', () => {
    const r = flowRig({ start: false });
    expect(() => new NegRiskEpisodes(r.engine, r.world.events, 1, r.clock, { withdrawLegShare: 2 })).toThrow(/sandbox\.episodes\.withdrawLegShare: must be a number from 0 to 1, was 2/);
    expect(() => new NegRiskEpisodes(r.engine, r.world.events, 1, r.clock, { gap: [0.1, 0.05] })).toThrow(/sandbox\.episodes\.gap/);
  });
});
