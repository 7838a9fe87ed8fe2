import { afterEach, describe, expect, it } from 'vitest';
import { churn, ENGINE_OPEN, expectNoDuplicates, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Stopping with order posts in flight (cancelOnStop): the engine waits for their answers before
 * the cancel-all, so an order the venue takes while the run stops does not stay resting, and the
 * summary counts no open order.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: stop with order posts in flight', () => {
  it('cancels what the venue takes after the stop began; nothing rests, nothing is counted open', async () => {
    run = await startE2E({ strategies: [churn()] });
    const e = run;
    await waitFor('orders accepted', () => e.summary().ordersAccepted >= 2);
    // order posts now take 600 ms to reach the handler; the cancel-all is not slowed
    await e.faults({ latencyMs: 600, routes: ['postOrders'] });
    await waitFor('an order post in flight', () => e.session.engine.inFlight > 0, 5_000, 5);

    const summary = await e.stop();
    expect(summary.openOrders).toBe(0);
    expect(e.records().filter((r) => ENGINE_OPEN.has(r.status))).toEqual([]);
    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    // the post in flight did reach the venue after the stop began, and was cancelled there
    expect(venue.length).toBe(summary.ordersSubmitted);
    expect(await liveAtVenue(e)).toEqual([]);
  }, 30_000);
});
