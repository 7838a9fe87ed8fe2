import { afterEach, describe, expect, it } from 'vitest';
import { churn, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * A stop is verified (issue 14 point 1): the cancel-all at stop is retried with backoff and the
 * venue's open orders are listed until none of ours is live, within `execution.stopDeadlineMs`.
 * When the venue refuses every cancel, the stop says so: not verified, and the orders still
 * live listed one by one (the CLI then exits 3, see test/app/run-fail-safe.e2e.test.ts).
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: a verified stop', () => {
  it('retries cancels the venue answers 500 until no order of ours is live', async () => {
    run = await startE2E({ strategies: [churn()] });
    const e = run;
    const cancels = async (): Promise<number> => {
      const routes = (await e.adminStats()).routes;
      return (routes['cancelAll'] ?? 0) + (routes['cancelOrders'] ?? 0) + (routes['cancelOrder'] ?? 0);
    };
    await waitFor('orders resting at the venue', async () => (await liveAtVenue(e)).length >= 2);
    await e.faults({ errorRate: 1, routes: ['cancelAll', 'cancelOrders', 'cancelOrder'] });
    const stopping = e.stop();
    const before = await cancels();
    // the first cancels of the stop fail; then the venue recovers
    await waitFor('two failed cancels', async () => (await cancels()) >= before + 2, 10_000, 20);
    await e.faults({ errorRate: 0 });
    const summary = await stopping;
    expect(summary.stop?.verified).toBe(true);
    expect(summary.stop?.rounds).toBeGreaterThanOrEqual(2); // at least one round after a failed cancel
    expect(summary.stop?.live).toEqual([]);
    expect(await liveAtVenue(e)).toEqual([]);
  }, 60_000);

  it('gives up at the stop deadline when every cancel fails, listing each order still live', async () => {
    run = await startE2E({ strategies: [churn()], config: { execution: { stopDeadlineMs: 2_000 } } });
    const e = run;
    await waitFor('orders resting at the venue', async () => (await liveAtVenue(e)).length >= 2);
    await e.faults({ errorRate: 1, routes: ['cancelAll', 'cancelOrders', 'cancelOrder'] });
    const started = Date.now();
    const summary = await e.stop();
    expect(Date.now() - started).toBeLessThan(2_000 + 5_000 + 10_000); // the drain, then the deadline
    const live = await liveAtVenue(e);
    expect(live.length).toBeGreaterThan(0);
    expect(summary.stop?.verified).toBe(false);
    expect(summary.stop?.live.map((o) => o.orderId).sort()).toEqual(live.map((o) => o.hash).sort());
    expect(summary.stop?.live.map((o) => o.clientOrderId).sort()).toEqual(live.map((o) => o.clientOrderId).sort());
  }, 60_000);
});
