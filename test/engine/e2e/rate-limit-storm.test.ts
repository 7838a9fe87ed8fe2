import { afterEach, describe, expect, it } from 'vitest';
import { churn, DEFAULT_MM, expectNoDuplicates, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 4: every order post is answered 429 with Retry-After for a few seconds. The
 * engine posts the same signed orders again after Retry-After; once the storm is over they are
 * taken, none is lost (refused for good) or doubled, and trading goes on.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: a 429 storm on order posts', () => {
  it('is ridden out: throttled orders are posted again after Retry-After, none lost or doubled', async () => {
    // the churn quoter holds each price 6 s, so an order throttled at a move is still wanted
    // when the storm ends and is posted again rather than replaced
    run = await startE2E({ strategies: [churn({ holdTicks: 20 }), DEFAULT_MM] });
    const e = run;
    await waitFor('both strategies quoting before the storm', () => e.orderEvents('OrderAccepted', 'churn').length > 0 && e.orderEvents('OrderAccepted', 'mm').length > 0);
    const statusesBefore = (await e.adminStats()).statuses['429'] ?? 0;
    expect(statusesBefore).toBe(0);

    await e.faults({ rateLimitStorm: true, routes: ['postOrders'] });
    const stormOn = Date.now();
    // the churn quoter moves into the storm (within 6 s); its orders are throttled at least twice
    const moved = await waitFor('the churn quoter to move during the storm', () => e.records().find((r) => r.request.strategyId === 'churn' && r.request.createdAt >= stormOn), 10_000);
    await waitFor('a throttled post', () => e.summary().ordersResubmitted > 0, 5_000);
    await waitFor('the storm to last past two Retry-Afters', () => Date.now() - Math.max(stormOn + 2_500, moved.request.createdAt + 2_000) >= 0, 10_000);
    const stormOff = Date.now();
    await e.faults({ rateLimitStorm: false, routes: [] });

    // every order created during the storm (so first posted into it) gets its answer
    const throttled = () => e.records().filter((r) => r.request.createdAt >= stormOn && r.request.createdAt < stormOff);
    await waitFor('every order of the storm answered', () => !throttled().some((r) => r.status === 'PENDING_SUBMIT'), 20_000);
    // trading continues
    await waitFor('new orders accepted after the storm', () => e.orderEvents('OrderAccepted').some((a) => a.tsInit > stormOff + 1_000), 15_000);

    const s = e.summary();
    expect(s.ordersResubmitted).toBeGreaterThan(0);
    expect(s.http429).toBeGreaterThan(0);
    expect((await e.adminStats()).statuses['429']).toBeGreaterThan(0);

    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    const byHash = new Map(venue.map((o) => [o.hash, o]));
    // no intent lost: no order refused for good over the 429s, none left in limbo
    for (const r of e.records()) {
      const last = r.history.at(-1)!;
      expect(r.status === 'REJECTED' && /429|rate limit/i.test(last.reason ?? ''), `${r.request.clientOrderId} refused after the retries: ${last.reason}`).toBe(false);
      expect(r.status).not.toBe('SUBMIT_UNKNOWN');
    }
    // every order the engine counts as accepted is at the venue, taken, exactly once
    const accepted = new Set(e.orderEvents('OrderAccepted').map((a) => a.clientOrderId));
    for (const id of accepted) {
      const record = e.session.engine.tracker.byClientId(id)!;
      const at = byHash.get(record.orderId!);
      expect(at, `accepted order ${id} is at the venue`).toBeDefined();
      expect(at!.accepted).toBe(true);
      expect(at!.clientOrderId).toBe(id);
    }
    // orders first posted during the storm reached the venue after it, once each: posted again
    // (200 ms margin: the batcher may hold an order created just before the storm ended)
    const reposted = throttled().filter((r) => r.request.createdAt < stormOff - 200 && byHash.has(r.orderId!));
    expect(reposted.length).toBeGreaterThan(0);
    for (const r of reposted) expect(byHash.get(r.orderId!)!.receivedAt).toBeGreaterThanOrEqual(stormOff);
    // the others were withdrawn by their strategy before they could be posted again
    for (const r of throttled().filter((x) => !byHash.has(x.orderId!))) {
      expect(r.status, r.request.clientOrderId).toBe('CANCELED');
      expect(r.history.some((h) => h.reason === 'cancelled before submission'), `${r.request.clientOrderId}: ${JSON.stringify(r.history)}`).toBe(true);
    }

    const summary = await e.stop();
    // every rejection the engine counted is the venue's own answer to an order it received
    const after = await e.adminOrders();
    expect(summary.ordersRejected).toBe(after.filter((o) => !o.accepted).length);
    expect(after.filter((o) => o.status === 'LIVE')).toEqual([]);
  }, 60_000);
});
