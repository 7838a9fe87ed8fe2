import { afterEach, describe, expect, it } from 'vitest';
import { THROWER_MESSAGE } from './strategies/throw-after-first-book.ts';
import { DEFAULT_MM, ENGINE_OPEN, expectNoDuplicates, startE2E, THROWER, waitFor, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 6: two strategies in one live run on the same markets; one throws in onBook
 * after its first call. It ends FAULTED with its order cancelled; the market maker keeps placing
 * orders and getting them accepted afterwards.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: a strategy that throws', () => {
  it('is faulted and its order cancelled while the market maker keeps trading', async () => {
    run = await startE2E({ strategies: [DEFAULT_MM, { id: 'thrower', module: THROWER }] });
    const e = run;
    const engine = e.session.engine;

    const fault = await waitFor('the thrower to fault', () => e.events.find((ev) => ev.type === 'fault'), 15_000);
    expect(fault).toMatchObject({ strategyId: 'thrower' });
    expect(fault.type === 'fault' && fault.message).toContain(THROWER_MESSAGE);
    expect(engine.strategyState('thrower')).toBe('FAULTED');
    expect(engine.strategyState('mm')).toBe('RUNNING');
    expect(e.summary()).toMatchObject({ faults: 1, strategies: { mm: 'RUNNING', thrower: 'FAULTED' } });

    // the order of its first call was placed, and is cancelled now that nobody manages it
    const thrown = e.records().filter((r) => r.request.strategyId === 'thrower');
    expect(thrown.length).toBe(1);
    await waitFor('the thrower order to be closed', () => thrown.every((r) => !ENGINE_OPEN.has(r.status)), 10_000);
    expect(thrown.every((r) => r.status === 'CANCELED')).toBe(true);
    const venueOf = async () => (await e.adminOrders()).filter((o) => thrown.some((r) => r.request.clientOrderId === o.clientOrderId));
    // if it reached the venue it no longer rests there
    expect((await venueOf()).filter((o) => o.status === 'LIVE')).toEqual([]);

    // the market maker goes on: orders it creates on later books (a second on) are accepted
    const after = () => e.orderEvents('OrderAccepted', 'mm').filter((a) => engine.tracker.byClientId(a.clientOrderId)!.request.createdAt > fault.at + 1_000);
    await waitFor('market-maker orders accepted after the fault', () => after().length >= 2, 30_000);
    expect(engine.strategyState('mm')).toBe('RUNNING');

    // the thrower was called no more: nothing of it after its fault
    expect(e.records().filter((r) => r.request.strategyId === 'thrower')).toHaveLength(1);

    const summary = await e.stop();
    expect(summary.strategies).toEqual({ mm: 'STOPPED', thrower: 'FAULTED' });
    expect(summary.faults).toBe(1);
    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    expect(venue.filter((o) => o.status === 'LIVE')).toEqual([]);
  }, 60_000);
});
