import { afterEach, describe, expect, it } from 'vitest';
import { churn, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Credentials the venue stops accepting mid-run (issue 14 point 5): the sandbox forgets our API
 * key, every L2 call is answered 401; trading halts, the summary carries the alert, and the stop
 * (its cancels refused too) says it could not verify, listing the orders it knows open.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: credentials refused mid-run', () => {
  it('halts trading and alerts; the stop lists what may still be live', async () => {
    run = await startE2E({ strategies: [churn()], config: { execution: { stopDeadlineMs: 1_500 } } });
    const e = run;
    await waitFor('orders resting at the venue', async () => (await liveAtVenue(e)).length >= 2);
    // the venue no longer knows our key (as after a revocation)
    e.sandbox.context.apiKeys.get = () => undefined;
    await waitFor('trading halted', () => e.session.engine.halted, 10_000);
    expect(e.session.engine.halted).toBe('credentials refused (401)');
    const summary = await e.stop();
    expect(summary.alerts?.[0]).toMatch(/^the venue refused our API credentials mid-run \(\d+ answer\(s\) 401\)$/);
    expect(summary.stop?.verified).toBe(false);
    const live = await liveAtVenue(e);
    expect(live.length).toBeGreaterThan(0);
    const listed = new Set(summary.stop?.live.map((o) => o.clientOrderId));
    for (const order of live) expect(listed.has(order.clientOrderId ?? '')).toBe(true);
  }, 60_000);
});
