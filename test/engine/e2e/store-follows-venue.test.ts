import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../../src/store/run-store.ts';
import { churn, DEFAULT_MM, ENGINE_OPEN, expectNoDuplicates, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 14 point 4: the store follows the venue after heartbeat loss, stalls and unknown
 * outcomes. The venue ignores our heartbeats (its dead-man switch cancels our orders while every
 * beat is answered), then order posts stall past the client's timeout (SUBMIT_UNKNOWN) and the
 * run stops while some are still being looked up. At the end every order in the store has the
 * venue's state (none CANCEL_PENDING, SUBMIT_UNKNOWN or live that the venue does not hold), and
 * every order the venue accepted counts as accepted, whether answered or found by reconciliation.
 */

let run: E2E | undefined;
let dir: string | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The store status an order ends in, given the venue's final status of it. */
const FINAL_FOR: Record<string, readonly string[]> = { MATCHED: ['FILLED'], CANCELED: ['CANCELED'] };

describe('e2e: the store follows the venue', () => {
  it('after ignored heartbeats and stalled posts, the stopped run stores exactly what the venue holds', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clobot-follow-'));
    const storePath = join(dir, 'state.sqlite');
    run = await startE2E({
      sandbox: { heartbeatTimeoutMs: 2_000 },
      strategies: [DEFAULT_MM, churn()],
      config: { venue: { timeoutMs: 1_500, retries: 0 }, execution: { heartbeatIntervalMs: 500, orderTimeoutMs: 1_000 }, store: { path: storePath } },
    });
    const e = run;
    await waitFor('orders resting at the venue', async () => (await liveAtVenue(e)).length >= 2);

    // 1. beats answered but ignored: the venue cancels our orders on its own
    const apiKey = (await e.adminOrders())[0]!.apiKey;
    await e.faults({ ignoreHeartbeats: true });
    // the switch fired: the key's deadline is gone (its next beat arms it again)
    await waitFor('the venue to cancel our orders by its dead-man switch', () => e.sandbox.context.heartbeats.deadline(apiKey) === undefined, 20_000, 20);
    await e.faults({ ignoreHeartbeats: false });

    // 2. order posts held past the client's timeout: outcome unknown, looked up by hash
    await e.faults({ stallMs: 2_500, routes: ['postOrders'] });
    await waitFor('orders of unknown outcome', () => e.summary().ordersSubmitUnknown >= 2, 20_000);

    // 3. stop while lookups may still be pending (the stall stays on)
    const summary = await e.stop();
    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    expect(venue.filter((o) => o.status === 'LIVE')).toEqual([]);

    const store = RunStore.open(storePath);
    const stored = store.load().orders;
    store.close();
    const byHash = new Map(venue.map((o) => [o.hash, o]));
    const disagree: string[] = [];
    for (const o of stored) {
      if (ENGINE_OPEN.has(o.status)) disagree.push(`${o.request.clientOrderId}: ${o.status} in the store at the end`);
      const at = o.orderId === undefined ? undefined : byHash.get(o.orderId);
      if (at === undefined) {
        // never reached the venue: refused, or never sent
        if (o.status !== 'REJECTED' && o.status !== 'CANCELED') disagree.push(`${o.request.clientOrderId}: ${o.status} in the store, not at the venue`);
        continue;
      }
      if (!at.accepted) {
        if (o.status !== 'REJECTED') disagree.push(`${o.request.clientOrderId}: ${o.status} in the store, refused by the venue`);
      } else if (!(FINAL_FOR[at.status] ?? []).includes(o.status)) {
        disagree.push(`${o.request.clientOrderId}: ${o.status} in the store, ${at.status} at the venue`);
      }
    }
    expect(disagree).toEqual([]);
    const stalled = new Set(venue.filter((o) => o.accepted).map((o) => o.hash));
    expect(stored.filter((o) => o.orderId !== undefined && stalled.has(o.orderId)).length).toBe(stalled.size);
    // every order the venue took counts as accepted: answered, or found by reconciliation
    expect(summary.ordersAccepted).toBe(venue.filter((o) => o.accepted).length);
    expect(summary.ordersSubmitUnknown).toBeGreaterThanOrEqual(2);
  }, 90_000);
});
