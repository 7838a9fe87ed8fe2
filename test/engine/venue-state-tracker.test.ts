import { of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { VenueRejectError } from '../../src/core/errors.ts';
import type { LifecycleEvent } from '../../src/core/events.ts';
import { EngineDesk } from '../../src/engine/engine-desk.ts';
import { VenueStateTracker } from '../../src/engine/venue-state-tracker.ts';
import { SETTINGS, silent, simulatedEdge, T0 } from './parts.ts';

/**
 * The venue-state tracker on a simulated clock (docs/venue-states.md): the venue's answers move
 * it, a restart is probed on a backoff of 1-2 s doubling to 30 s (or at the venue's Retry-After),
 * and the post-only phase after a restart and the restricted modes end on their own.
 */

const too = (retryAfterMs?: number) => new VenueRejectError('POST /orders: 425', 425, 'postOrders', 'restarting', { error: 'restarting' }, retryAfterMs);
const mode = (code: string, retryAfterMs?: number) => new VenueRejectError('POST /orders: 503', 503, 'postOrders', code, { error: code, code }, retryAfterMs);

function rig(probeAnswers: (() => ReturnType<typeof of>)[] = []) {
  const clock = new SimulatedClock(T0);
  const desk = new EngineDesk({ clock, execution: simulatedEdge(clock), log: silent, settings: SETTINGS });
  const told: LifecycleEvent[] = [];
  const probes: number[] = [];
  const tracker = new VenueStateTracker({
    desk,
    tell: (e) => told.push(e),
    probe: () => {
      probes.push(clock.now() - T0);
      return (probeAnswers.shift() ?? (() => of({})))();
    },
    settings: { postOnlyAfterRestartMs: 10_000, random: () => 0.5 },
  });
  const states = () => told.map((e) => (e.type === 'VenueStateChanged' ? e.state : e.type));
  return { clock, tracker, told, probes, states };
}

describe('VenueStateTracker', () => {
  it('a 425 with Retry-After: restarting, one probe then, post-only for the configured phase, then open', () => {
    const r = rig();
    expect(r.tracker.refused(too(4_000))).toBe(true);
    expect(r.tracker.state).toBe('restarting');
    expect(r.tracker.cancels).toBe(false);
    r.clock.advanceBy(3_999);
    expect(r.probes).toEqual([]);
    r.clock.advanceBy(1);
    expect(r.probes).toEqual([4_000]);
    expect(r.tracker.state).toBe('postOnly');
    r.clock.advanceBy(10_000);
    expect(r.tracker.state).toBe('open');
    expect(r.states()).toEqual(['restarting', 'postOnly', 'open']);
    expect(r.told[0]).toMatchObject({ retryAfterMs: 4_000, tsInit: T0 });
    expect(r.told[1]).toMatchObject({ retryAfterMs: 10_000, tsInit: T0 + 4_000 });
  });

  it('a 425 without Retry-After probes on a backoff from 1.5 s doubling to at most 30 s', () => {
    const refusals = Array.from({ length: 7 }, () => () => throwError(() => too()));
    const r = rig(refusals);
    r.tracker.refused(too());
    r.clock.advanceBy(200_000);
    const waits = r.probes.map((at, i) => at - (i === 0 ? 0 : r.probes[i - 1]!));
    expect(waits.slice(0, 7)).toEqual([1_500, 3_000, 6_000, 12_000, 24_000, 30_000, 30_000]);
    // the eighth probe was answered: back, post-only, then open
    expect(r.states()).toEqual(['restarting', 'postOnly', 'open']);
  });

  it('a probe that fails on the network looks again later; the state stays restarting', () => {
    const r = rig([() => throwError(() => new Error('ECONNRESET'))]);
    r.tracker.refused(too(1_000));
    r.clock.advanceBy(1_000);
    expect(r.tracker.state).toBe('restarting');
    r.clock.advanceBy(6_000);
    expect(r.probes).toEqual([1_000, 7_000]);
    expect(r.tracker.state).toBe('postOnly');
  });

  it('cancel-only and post-only 503s last their Retry-After, then orders go out again; a taker taken means open', () => {
    const r = rig();
    expect(r.tracker.refused(mode('cancel_only_mode', 5_000))).toBe(true);
    expect(r.tracker.state).toBe('cancelOnly');
    expect(r.tracker.cancels).toBe(true);
    r.clock.advanceBy(5_000);
    expect(r.tracker.state).toBe('open');
    r.tracker.refused(mode('post_only_mode', 60_000));
    expect(r.tracker.state).toBe('postOnly');
    r.tracker.posted(true, false);
    expect(r.tracker.state).toBe('postOnly');
    r.tracker.posted(true, true);
    expect(r.tracker.state).toBe('open');
    expect(r.probes).toEqual([]);
    expect(r.states()).toEqual(['cancelOnly', 'open', 'postOnly', 'open']);
  });

  it('an answer that is not a state is not taken for one; nothing moves after stop', () => {
    const r = rig();
    expect(r.tracker.refused(new VenueRejectError('503', 503, 'postOrders', 'service unavailable', { error: 'service unavailable' }, 1_000))).toBe(false);
    expect(r.tracker.refused(new VenueRejectError('400', 400, 'postOrders', 'invalid order', { error: 'invalid order' }))).toBe(false);
    expect(r.tracker.state).toBe('open');
    r.tracker.refused(too(1_000));
    r.tracker.stop();
    r.clock.advanceBy(60_000);
    expect(r.probes).toEqual([]);
    expect(r.states()).toEqual(['restarting']);
  });
});
