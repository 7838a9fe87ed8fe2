import { afterEach, describe, expect, it } from 'vitest';
import type { HeartbeatHealth } from '../../../src/execution/heartbeat.ts';
import { churn, DEFAULT_MM, expectNoDuplicates, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 3: heartbeats fail (the sandbox answers every beat 500, other routes work),
 * the engine goes `late` and stops sending orders, the sandbox's dead-man switch cancels our
 * orders once its deadline passes and the engine sees `lost`; when beats succeed again a new
 * chain is acknowledged, health is `healthy` and quoting resumes.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

function healthAt(e: E2E, health: HeartbeatHealth, after = 0): number | undefined {
  for (const ev of e.events) if (ev.type === 'heartbeat' && ev.health === health && ev.at > after) return ev.at;
  return undefined;
}

describe('e2e: heartbeat loss', () => {
  it('halts new orders, sees the venue cancel everything, and resumes after a fresh acknowledged beat', async () => {
    // the market maker, plus the churn quoter so that intents keep coming on a fixed beat
    run = await startE2E({ strategies: [DEFAULT_MM, churn()], config: { execution: { heartbeatIntervalMs: 1000 } } });
    const e = run;
    const heartbeat = e.session.engine.heartbeat!;
    await waitFor('healthy heartbeats and resting orders', async () => heartbeat.health === 'healthy' && (await liveAtVenue(e)).length >= 2);
    const apiKey = (await e.adminOrders())[0]!.apiKey;
    expect(e.sandbox.context.heartbeats.deadline(apiKey)).toBeDefined();

    const faultAt = Date.now();
    await e.faults({ errorRate: 1, routes: ['postHeartbeatV1'] });

    // late: no new orders (TRADING_HALTED denials), then lost
    const lateAt = await waitFor('heartbeat late', () => healthAt(e, 'late', faultAt), 10_000);
    await waitFor('an order denied while the heartbeat is late', () => e.orderEvents('OrderDenied').some((d) => d.code === 'TRADING_HALTED' && d.tsInit >= lateAt), 10_000);
    const lostAt = await waitFor('heartbeat lost', () => healthAt(e, 'lost', faultAt), 20_000);
    expect(e.summary().heartbeats.lost).toBeGreaterThan(0);
    expect(e.summary().heartbeats.missed).toBeGreaterThan(0);

    // the venue's dead-man switch fired: the key's session is disarmed and nothing of ours rests
    await waitFor('the sandbox to cancel our orders', async () => (await liveAtVenue(e)).length === 0, 5_000);
    expect(e.sandbox.context.heartbeats.deadline(apiKey)).toBeUndefined();
    // and the engine took every order as cancelled
    expect(e.session.engine.tracker.open().filter((r) => r.status === 'LIVE' || r.status === 'PARTIALLY_FILLED')).toEqual([]);

    await e.faults({ errorRate: 0, routes: [] });
    const healthyAt = await waitFor('heartbeat healthy again', () => healthAt(e, 'healthy', lostAt), 10_000);
    expect(heartbeat.health).toBe('healthy');

    // nothing was posted between going late and recovering but what was already in flight: an
    // order the venue received meanwhile was made before the engine went late (its own time, not
    // the venue's arrival: a loaded machine can hold a post in flight for any time)
    const madeAt = (clientOrderId: string | null) => (clientOrderId === null ? undefined : e.session.engine.tracker.byClientId(clientOrderId)?.request.createdAt);
    const during = (await e.adminOrders()).filter((o) => o.receivedAt > lateAt && o.receivedAt < healthyAt);
    expect(during.filter((o) => !((madeAt(o.clientOrderId) ?? Number.POSITIVE_INFINITY) <= lateAt)).map((o) => [o.clientOrderId, o.receivedAt, madeAt(o.clientOrderId)])).toEqual([]);

    // quoting resumes: both strategies get new orders accepted and resting again
    const acceptedAfter = (id: string) => e.orderEvents('OrderAccepted', id).filter((a) => a.tsInit > healthyAt).length;
    await waitFor('the churn quoter to trade again', () => acceptedAfter('churn') > 0, 15_000);
    await waitFor('the market maker to quote again', () => acceptedAfter('mm') > 0, 25_000);
    await waitFor('orders resting at the venue again', async () => (await liveAtVenue(e)).length > 0, 10_000);
    expect(e.sandbox.context.heartbeats.deadline(apiKey)).toBeDefined();

    const summary = await e.stop();
    expect(summary.heartbeats.lost).toBeGreaterThan(0);
    expect(summary.ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);
    expectNoDuplicates(await e.adminOrders());
    expect(await liveAtVenue(e)).toEqual([]);
  }, 60_000);
});
