import { afterEach, describe, expect, it } from 'vitest';
import type { EngineSummary } from '../../../src/engine/engine-summary.ts';
import type { LiveExecutionClient } from '../../../src/execution/live-execution-client.ts';
import { churn, ENGINE_OPEN, expectNoDuplicates, startE2E, waitFor, type AdminOrder, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 2: an order post whose answer never arrives (held past the client's timeout,
 * or the connection dropped after the venue took the orders) is SUBMIT_UNKNOWN, never re-sent,
 * looked up by its hash and adopted with the venue's state; the venue never sees an intent twice.
 * The first two cases poll our trades (the user channel off), so the lookup by hash is what finds
 * the orders; the third has the user channel on (the default): the venue's PLACEMENT finds them.
 */

/** The user channel off: the lookup by hash is what finds an order of unknown outcome. */
const POLLING = { execution: { userChannel: { enabled: false } } };

const OPEN_AT_VENUE = 'LIVE';

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** Client order ids that went SUBMIT_UNKNOWN and were later found at the venue (OrderAccepted after it). */
function reconciledIds(e: E2E): string[] {
  const unknown = new Set(e.orderEvents('OrderSubmitUnknown').map((ev) => ev.clientOrderId));
  return [...new Set(e.orderEvents('OrderAccepted').filter((ev) => unknown.has(ev.clientOrderId)).map((ev) => ev.clientOrderId))];
}

/** Engine view and venue view of each order agree: open at one iff open at the other. */
function mismatches(e: E2E, ids: readonly string[], venue: readonly AdminOrder[]): string[] {
  const byId = new Map(venue.map((o) => [o.clientOrderId, o]));
  const out: string[] = [];
  for (const id of ids) {
    const record = e.session.engine.tracker.byClientId(id);
    const at = byId.get(id);
    if (!record || !at) {
      out.push(`${id}: engine ${record?.status ?? 'none'}, venue ${at?.status ?? 'none'}`);
      continue;
    }
    const engineOpen = ENGINE_OPEN.has(record.status);
    const venueOpen = at.status === OPEN_AT_VENUE;
    const agree = engineOpen === venueOpen && (record.status !== 'FILLED' || at.status === 'MATCHED');
    if (!agree) out.push(`${id}: engine ${record.status}, venue ${at.status}`);
  }
  return out;
}

/**
 * After the reconciliation: trading goes on, then the run stops; every order of unknown outcome
 * reached the venue exactly once, the venue holds each client id once and nothing rests.
 */
async function expectTradingGoesOn(e: E2E, ids: readonly string[]): Promise<EngineSummary> {
  const before = e.summary().ordersAccepted;
  await waitFor('new orders accepted after the reconciliation', () => e.summary().ordersAccepted > before + 2);
  const summary = await e.stop();
  const venue = await e.adminOrders();
  expectNoDuplicates(venue);
  for (const id of ids) expect(venue.filter((o) => o.clientOrderId === id)).toHaveLength(1);
  expect(summary.ordersSubmitted).toBe(venue.length);
  expect(venue.filter((o) => o.status === OPEN_AT_VENUE)).toEqual([]);
  return summary;
}

/** Settles after a fault: no order of unknown outcome left, and engine and venue agree on every reconciled order. */
async function expectReconciled(e: E2E, foundBefore: number): Promise<string[]> {
  await waitFor(
    'every outcome-unknown order looked up and found',
    () => e.summary().reconciled.found > foundBefore && !e.records().some((r) => r.status === 'SUBMIT_UNKNOWN'),
    20_000,
  );
  const ids = reconciledIds(e);
  expect(ids.length).toBeGreaterThan(0);
  // the strategy keeps one bid per token: orders it replaced while their outcome was unknown
  // must be cancelled once found, and the engine's view must match the venue's
  let last: string[] = [];
  await waitFor(
    'engine and venue to agree on the reconciled orders, and only the wanted bids to rest',
    async () => {
      const venue = await e.adminOrders();
      last = mismatches(e, ids, venue);
      const resting = venue.filter((o) => o.status === OPEN_AT_VENUE).length;
      const tokens = e.session.markets[0]!.tokens.length;
      return last.length === 0 && resting <= tokens;
    },
    8_000,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}; mismatches: ${last.join('; ')}`);
  });
  return ids;
}

describe('e2e: an order post of unknown outcome', () => {
  it('held past the client timeout: SUBMIT_UNKNOWN, found by hash, never sent twice', async () => {
    // a short client deadline; the sandbox then holds order-post answers longer than it
    run = await startE2E({ strategies: [churn()], config: { venue: { timeoutMs: 1500 }, ...POLLING } });
    const e = run;
    await waitFor('a few orders accepted', () => e.summary().ordersAccepted >= 4);

    await e.faults({ stallMs: 2_500, routes: ['postOrders'] });
    await waitFor('an order post to time out', () => e.summary().ordersSubmitUnknown > 0, 15_000);
    await e.faults({ stallMs: 0, routes: [] });
    const unknownAt = e.summary().ordersSubmitUnknown;

    const ids = await expectReconciled(e, 0);
    const s = e.summary();
    expect(s.ordersSubmitUnknown).toBeGreaterThanOrEqual(unknownAt);
    expect(s.reconciled.found).toBeGreaterThan(0);
    // the stall holds the answer after the orders were placed: every one is found, none missing
    expect(s.reconciled.missing).toBe(0);
    expect(ids.length).toBe(s.reconciled.found);

    const summary = await expectTradingGoesOn(e, ids);
    expect(summary.openOrders).toBe(0);
  }, 50_000);

  it('connection dropped after the venue took the orders: found by hash, never sent twice', async () => {
    run = await startE2E({ strategies: [churn()], config: POLLING });
    const e = run;
    await waitFor('a few orders accepted', () => e.summary().ordersAccepted >= 4);

    await e.faults({ dropAfterAccept: 1 });
    await waitFor('an order post to lose its answer', () => e.summary().ordersSubmitUnknown > 0, 15_000);
    await e.faults({ dropAfterAccept: 0 });

    const ids = await expectReconciled(e, 0);
    const s = e.summary();
    expect(s.reconciled.missing).toBe(0);
    expect(ids.length).toBe(s.reconciled.found);

    await expectTradingGoesOn(e, ids);
  }, 50_000);

  it('held past the client timeout, the user channel on: each order found by the venue\'s PLACEMENT, without a lookup', async () => {
    run = await startE2E({ strategies: [churn()], config: { venue: { timeoutMs: 1500 } } });
    const e = run;
    await waitFor('the user channel trusted', () => (e.session.execution as LiveExecutionClient).counters.userChannel?.mode === 'up', 30_000);
    await waitFor('a few orders accepted', () => e.summary().ordersAccepted >= 4);

    await e.faults({ stallMs: 2_500, routes: ['postOrders'] });
    await waitFor('an order post to time out', () => e.summary().ordersSubmitUnknown > 0, 15_000);
    await e.faults({ stallMs: 0, routes: [] });

    await expectReconciled(e, 0);
    const s = e.summary();
    expect(s.reconciled.missing).toBe(0);
    // every order found was found by the channel's word (its PLACEMENT came while the post was
    // stalled): taken LIVE straight from SUBMIT_UNKNOWN, the lookup's reason never in its history
    const found = reconciledIds(e).map((id) => e.session.engine.tracker.byClientId(id)!);
    expect(found.length).toBe(s.reconciled.found);
    for (const record of found) {
      const i = record.history.findIndex((h) => h.status === 'SUBMIT_UNKNOWN');
      expect(record.history[i + 1], record.request.clientOrderId).toMatchObject({ reason: 'the venue said it placed it (user channel)' });
    }
    await expectTradingGoesOn(e, reconciledIds(e));
  }, 60_000);
});
