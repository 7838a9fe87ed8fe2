import { describe, expect, it } from 'vitest';
import { Observable, of, throwError, timer, map, NEVER } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import { VenueRejectError } from '../../src/core/errors.ts';
import { HeartbeatSupervisor, type HeartbeatHealth } from '../../src/execution/heartbeat.ts';

/** A venue stand-in in virtual time: answers each beat after `latencyMs`, or never while `down`. */
function venue(clock: SimulatedClock) {
  const state = { down: false, latencyMs: 100, received: [] as string[], n: 0, rejectNext: false };
  const beat = (prev: string): Observable<string> => {
    state.received.push(prev);
    if (state.down) return NEVER;
    if (state.rejectNext) {
      state.rejectNext = false;
      return throwError(() => new VenueRejectError('bad id', 400, '/v1/heartbeats', 'Invalid Heartbeat ID', { error: 'Invalid Heartbeat ID', heartbeat_id: 'expected-7' }));
    }
    return timer(state.latencyMs, clock.scheduler).pipe(map(() => `id-${++state.n}`));
  };
  return { state, beat };
}

describe('HeartbeatSupervisor (virtual time)', () => {
  it('beats every 5 s, chains the id and is healthy', () => {
    const clock = new SimulatedClock(1_000_000);
    const v = venue(clock);
    const hb = new HeartbeatSupervisor({ clock, beat: v.beat });
    const seen: HeartbeatHealth[] = [];
    hb.health$.subscribe((h) => seen.push(h));
    hb.start();
    clock.advanceBy(20_050);
    expect(v.state.received).toEqual(['', 'id-1', 'id-2', 'id-3', 'id-4']);
    expect(hb.stats).toEqual({ sent: 5, acknowledged: 4, missed: 0 });
    clock.advanceBy(100);
    expect(hb.stats.acknowledged).toBe(5);
    expect(seen).toEqual(['idle', 'healthy']);
    hb.stop();
  });

  it('goes late, then lost after 10 s without an ack, and healthy again only after a fresh ack', () => {
    const clock = new SimulatedClock(0);
    const v = venue(clock);
    const hb = new HeartbeatSupervisor({ clock, beat: v.beat });
    const seen: [number, HeartbeatHealth][] = [];
    hb.health$.subscribe((h) => seen.push([clock.now(), h]));
    hb.start();
    clock.advanceBy(200); // first ack at 100
    v.state.down = true;
    clock.advanceBy(14_800); // until 15 000
    expect(hb.health).toBe('lost');
    v.state.down = false; // the in-flight beat hangs; the next beat at 20 000 is exhausted-mapped away
    expect(seen.map(([, h]) => h)).toEqual(['idle', 'healthy', 'late', 'lost']);
    const lateAt = seen[2]![0];
    const lostAt = seen[3]![0];
    expect(lateAt).toBeGreaterThanOrEqual(100 + 7_500);
    expect(lostAt).toBeGreaterThanOrEqual(100 + 10_000);
    expect(lostAt).toBeLessThan(100 + 10_500);
    hb.stop();
  });

  it('recovers after the venue comes back and adopts the expected id from a 400', () => {
    const clock = new SimulatedClock(0);
    const v = venue(clock);
    const hb = new HeartbeatSupervisor({ clock, beat: v.beat });
    hb.start();
    clock.advanceBy(200);
    v.state.rejectNext = true;
    clock.advanceBy(5_000); // beat at 5000 rejected
    expect(hb.chainId).toBe('expected-7');
    expect(hb.stats.missed).toBe(1);
    clock.advanceBy(5_000); // beat at 10000 sends the adopted id
    expect(v.state.received.at(-1)).toBe('expected-7');
    clock.advanceBy(200);
    expect(hb.health).toBe('healthy');
    hb.stop();
  });

  it('returns to healthy from lost after an acknowledged beat', () => {
    const clock = new SimulatedClock(0);
    let fail = false;
    const beat = (prev: string) => (fail ? throwError(() => new Error('down')) : of(`${prev}x`));
    const hb = new HeartbeatSupervisor({ clock, beat });
    hb.start();
    fail = true;
    clock.advanceBy(11_000);
    expect(hb.health).toBe('lost');
    fail = false;
    clock.advanceBy(5_000);
    expect(hb.health).toBe('healthy');
    hb.stop();
  });
});
