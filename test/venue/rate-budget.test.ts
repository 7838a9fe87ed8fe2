import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { isOutcomeUnknown, RateLimitError, TransportError } from '../../src/core/errors.ts';
import { RateBudget, type RatePermit } from '../../src/venue/rate-budget.ts';
import type { RateLimitConfig } from '../../src/venue/rate-limits.ts';

const T0 = 1_700_000_000_000;
const W = 1_000;

/** Lets resolved promises run their callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `GET /` (getOk) limited to `limit` per W ms; the trading group window is far larger. */
function budget(limit: number, extra: RateLimitConfig = {}): { clock: SimulatedClock; b: RateBudget } {
  const clock = new SimulatedClock(T0);
  const b = new RateBudget(clock, { routeOverrides: { getOk: [{ name: 'ok', limit, windowMs: W }] }, ...extra });
  return { clock, b };
}

function track(p: Promise<RatePermit>): { permit: RatePermit | undefined; error: unknown } {
  const state: { permit: RatePermit | undefined; error: unknown } = { permit: undefined, error: undefined };
  p.then(
    (permit) => (state.permit = permit),
    (error: unknown) => (state.error = error),
  );
  return state;
}

describe('RateBudget (virtual time)', () => {
  it('admits up to the limit at once, then waits until the window has slid past the oldest entry', async () => {
    const { clock, b } = budget(5);
    const first = await Promise.all(Array.from({ length: 5 }, () => b.acquire('getOk')));
    expect(b.remaining('getOk')).toBe(0);
    const sixth = track(b.acquire('getOk'));
    for (const permit of first) permit.release(); // finished at T0
    await settle();
    expect(sixth.permit).toBeUndefined();
    clock.advanceBy(W); // an entry counts while now - stamp <= W
    await settle();
    expect(sixth.permit).toBeUndefined();
    clock.advanceBy(1);
    await settle();
    expect(sixth.permit).toBeDefined();
  });

  it('counts a request in flight until it is released, then from its release time', async () => {
    const { clock, b } = budget(1);
    const p = await b.acquire('getOk');
    const next = track(b.acquire('getOk'));
    clock.advanceBy(5 * W);
    await settle();
    expect(next.permit).toBeUndefined(); // still in flight: no amount of time frees it
    p.release(); // at T0 + 5W
    await settle();
    expect(next.permit).toBeUndefined();
    clock.advanceBy(W + 1);
    await settle();
    expect(next.permit).toBeDefined();
  });

  it('admits the waiters of a route in arrival order', async () => {
    const { clock, b } = budget(2);
    const order: number[] = [];
    const permits = await Promise.all([b.acquire('getOk'), b.acquire('getOk')]);
    // Each waiter hands its permit back as soon as it is admitted.
    for (const n of [1, 2, 3, 4]) void b.acquire('getOk').then((permit) => (order.push(n), permit.release()));
    for (const p of permits) p.release();
    await settle();
    expect(order).toEqual([]);
    clock.advanceBy(W + 1);
    await settle();
    expect(order).toEqual([1, 2]);
    clock.advanceBy(W + 1);
    await settle();
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('shares a window between routes that name the same one', async () => {
    const shared = { name: 'shared', limit: 3, windowMs: W };
    const clock = new SimulatedClock(T0);
    const b = new RateBudget(clock, { routeOverrides: { getOk: [shared], getVersion: [shared] } });
    await b.acquire('getOk');
    await b.acquire('getVersion');
    await b.acquire('getOk');
    expect(b.remaining('getVersion')).toBe(0);
    expect(b.tryAcquire('getVersion')).toBeUndefined();
    expect(b.remaining('getServerTime')).toBeGreaterThan(0); // not in that window
  });

  it('a pause after a 429 holds the route until its time', async () => {
    const { clock, b } = budget(100);
    b.pause('getOk', T0 + 2_500);
    expect(b.remaining('getOk')).toBe(0);
    expect(b.waitMs('getOk')).toBe(2_500);
    const waiting = track(b.acquire('getOk'));
    clock.advanceBy(2_499);
    await settle();
    expect(waiting.permit).toBeUndefined();
    clock.advanceBy(1);
    await settle();
    expect(waiting.permit).toBeDefined();
    expect(b.snapshot(['getOk']).pausedUntil).toEqual({});
  });

  it('refuses a cost above a window limit at once, and counts a batch by its cost', async () => {
    const { b } = budget(10);
    await expect(b.acquire('getOk', 11)).rejects.toBeInstanceOf(RateLimitError);
    const batch = await b.acquire('getOk', 7);
    expect(b.remaining('getOk')).toBe(3);
    batch.release();
    expect(b.remaining('getOk')).toBe(3); // finished, still inside the window
  });

  it('an abort while waiting rejects with a not-sent TransportError and lets the next waiter in', async () => {
    const { clock, b } = budget(1);
    const p = await b.acquire('getOk');
    const controller = new AbortController();
    const aborted = track(b.acquire('getOk', 1, controller.signal));
    const after = track(b.acquire('getOk'));
    controller.abort();
    await settle();
    expect(aborted.error).toBeInstanceOf(TransportError);
    expect(isOutcomeUnknown(aborted.error)).toBe(false);
    p.release();
    clock.advanceBy(W + 1);
    await settle();
    expect(after.permit).toBeDefined();
  });

  it("many waiters under one caller's signal: one listener on it, admitted waiters leave it, its abort rejects the rest", async () => {
    const { clock, b } = budget(5);
    const held = await Promise.all(Array.from({ length: 5 }, () => b.acquire('getOk')));
    const caller = new AbortController();
    const waiters = Array.from({ length: 20 }, () => track(b.acquire('getOk', 1, caller.signal)));
    // a listener each made Node warn of a leak past 10 (a run's one stop signal over a burst)
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    for (const permit of held) permit.release();
    clock.advanceBy(W + 1);
    await settle();
    expect(waiters.filter((w) => w.permit !== undefined)).toHaveLength(5);
    caller.abort(new Error('run stopped'));
    await settle();
    const rejected = waiters.filter((w) => w.error !== undefined);
    expect(rejected).toHaveLength(15);
    expect(rejected.every((w) => w.error instanceof TransportError && (w.error.cause as Error).message === 'run stopped')).toBe(true);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('keeps no timer once no request waits: the last waiter aborted (a run that stopped) leaves nothing to hold the process', async () => {
    const clock = new SimulatedClock(T0);
    const timers: { closed: boolean }[] = [];
    // the clock's scheduler, each timer it arms kept to see whether it is still armed
    const watched = {
      now: () => clock.now(),
      scheduler: {
        now: () => clock.scheduler.now(),
        schedule: (...args: Parameters<typeof clock.scheduler.schedule>) => {
          const sub = clock.scheduler.schedule(...args);
          timers.push(sub);
          return sub;
        },
      },
    };
    const b = new RateBudget(watched, { routeOverrides: { getOk: [{ name: 'ok', limit: 1, windowMs: 600_000 }] } });
    (await b.acquire('getOk')).release();
    const first = new AbortController();
    const second = new AbortController();
    const a = track(b.acquire('getOk', 1, first.signal));
    const c = track(b.acquire('getOk', 1, second.signal));
    await settle();
    expect(timers.filter((t) => !t.closed), 'one timer for the head waiter').toHaveLength(1);
    first.abort();
    await settle();
    expect(a.error).toBeInstanceOf(TransportError);
    expect(timers.filter((t) => !t.closed), 'still one for the waiter left').toHaveLength(1);
    second.abort();
    await settle();
    expect(c.error).toBeInstanceOf(TransportError);
    expect(timers.filter((t) => !t.closed), 'none once nobody waits').toEqual([]);
  });

  it('snapshot reports each window; disabled budgets never wait', async () => {
    const { b } = budget(4);
    const p = await b.acquire('getOk');
    (await b.acquire('getOk')).release();
    const snap = b.snapshot(['getOk']);
    const ok = snap.windows.find((w) => w.name === 'ok');
    expect(ok).toMatchObject({ limit: 4, used: 1, inFlight: 1, remaining: 2, windowMs: W });
    expect(snap.windows.find((w) => w.name === 'trading')).toMatchObject({ used: 1, inFlight: 1 });
    expect(snap.routes.getOk).toBe(2);
    p.release();

    const off = new RateBudget(new SimulatedClock(T0), { enabled: false });
    await Promise.all(Array.from({ length: 1_000 }, () => off.acquire('getOk')));
    expect(off.remaining('getOk')).toBe(Infinity);
  });

  it('windowScale shrinks the part 8 windows: GET / allows 50 per 200 ms at scale 0.02', async () => {
    const clock = new SimulatedClock(T0);
    const b = new RateBudget(clock, { windowScale: 0.02 });
    const permits = await Promise.all(Array.from({ length: 50 }, () => b.acquire('getOk')));
    for (const p of permits) p.release();
    expect(b.waitMs('getOk')).toBe(201);
  });
});
