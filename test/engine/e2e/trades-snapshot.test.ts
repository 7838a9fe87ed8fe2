import { afterEach, describe, expect, it } from 'vitest';
import { churn, DEFAULT_SANDBOX, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 26 point 6, guarded reconciliation: a live run trades no market until a read of our
 * trades at the venue has arrived in full. With a page of `/data/trades` failing (the sandbox's
 * page fault), every order is denied RECONCILING, coded, and none reaches the venue; once a read
 * is complete, trading starts.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: our trades read in full before trading', () => {
  it('refuses a read with a page missing and trades only after a complete one', async () => {
    run = await startE2E({
      sandbox: { ...DEFAULT_SANDBOX, faults: { pageFault: { route: 'getAccountTrades', page: 1, times: 1_000_000 } } },
      strategies: [churn()],
    });
    const e = run;
    // denials until one names the failed read: those before the first read was answered (a loaded
    // machine can hold it up past several of the churn quoter's intents) cannot name it yet
    const namesFailedRead = (d: { reason: string }) => /\(last read: a page failed: /.test(d.reason);
    await waitFor('orders denied while our trades are not read in full, one after a failed read', () => {
      const denials = e.orderEvents('OrderDenied').filter((d) => d.code === 'RECONCILING');
      return denials.length >= 3 && denials.some(namesFailedRead);
    }, 20_000);
    const denied = e.orderEvents('OrderDenied');
    expect(denied.every((d) => d.code === 'RECONCILING' && d.reason.startsWith('our trades at the venue not yet read in full since the start'))).toBe(true);
    expect(denied.some(namesFailedRead)).toBe(true);
    expect(await e.adminOrders()).toEqual([]);

    // the page answers again: the next read is complete, and orders go out
    e.sandbox.faults.set({ pageFault: null });
    await waitFor('orders resting at the venue after a complete read', async () => (await liveAtVenue(e)).length > 0, 20_000);
    await e.stop();
    expect(await liveAtVenue(e)).toEqual([]);
  }, 60_000);
});
