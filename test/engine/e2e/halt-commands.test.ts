import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE_METRICS } from '../../../src/engine/engine-metrics.ts';
import { DEFAULT_MM, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 20 points 3 and 4 on a live run against the sandbox: the run's metrics hold the
 * tick-to-trade of its batches; a halt command cancels our resting quotes at the venue (they
 * used to stay), the strategies are told, new orders are denied; a resume lets them quote again.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: a halt command on a live run', () => {
  it('cancels the resting quotes at the venue, denies new orders, and the resume quotes again', async () => {
    run = await startE2E({ strategies: [DEFAULT_MM] });
    const e = run;
    await waitFor('quotes resting at the venue', async () => (await liveAtVenue(e)).length > 0, 20_000);
    const ttt = e.session.metrics.histogram(ENGINE_METRICS.tickToTrade);
    expect(ttt?.count).toBeGreaterThan(0);
    expect(ttt?.count).toBe(e.summary().batches);

    const result = e.session.engine.command({ type: 'halt', name: 'manual', reason: 'e2e drill' });
    expect(result.ok).toBe(true);
    expect(result.cancelled).toBeGreaterThan(0);
    await waitFor('no quote of ours left at the venue', async () => (await liveAtVenue(e)).length === 0, 20_000);
    expect(e.events.some((ev) => ev.type === 'lifecycle' && ev.event.type === 'Halted' && ev.event.name === 'manual')).toBe(true);
    const denied = e.orderEvents('OrderDenied').length;
    await waitFor('quotes denied while halted', () => e.orderEvents('OrderDenied').filter((d) => d.code === 'TRADING_HALTED').length > denied, 20_000);
    expect(await liveAtVenue(e)).toEqual([]);

    expect(e.session.engine.command({ type: 'resume', name: 'manual' })).toMatchObject({ ok: true, halts: [] });
    expect(e.events.some((ev) => ev.type === 'lifecycle' && ev.event.type === 'Resumed')).toBe(true);
    await waitFor('quotes resting again', async () => (await liveAtVenue(e)).length > 0, 20_000);
    await e.stop();
  }, 60_000);
});
