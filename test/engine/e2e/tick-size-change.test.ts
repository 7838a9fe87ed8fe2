import { afterEach, describe, expect, it } from 'vitest';
import { parseMicros } from '../../../src/core/fixed.ts';
import { ERR_PRICE_TICK } from '../../../src/sim/venue-messages.ts';
import { DEFAULT_MM, expectNoDuplicates, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 5: a traded market's tick becomes coarser (0.001 -> 0.01) while the market
 * maker quotes on it. Once a book with the new tick has arrived, no order is refused by the venue
 * for its tick (risk's tickGrid and order building use the newest book's tick), and the market
 * maker goes on quoting on the new grid although older orders rest between its points.
 */

const OLD_TICK = 1_000;
const NEW_TICK = 10_000;

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: tick size change mid-run', () => {
  it('orders after the new tick was seen are on the new grid, none refused for its tick, quoting goes on', async () => {
    run = await startE2E({ strategies: [DEFAULT_MM] });
    const e = run;
    const engine = e.session.engine;
    // a market on the 0.001 grid where the market maker has an order accepted
    const market = await waitFor('the market maker quoting a 0.001-tick market', () =>
      e.session.markets.find((m) => {
        const tokens = m.tokens.map((t) => t.tokenId);
        return (
          engine.cache.get(tokens[0]!)?.rules.tickSize === OLD_TICK &&
          e.orderEvents('OrderAccepted', 'mm').some((a) => tokens.includes(engine.tracker.byClientId(a.clientOrderId)!.request.tokenId))
        );
      }),
    );
    const tokens = market.tokens.slice(0, 2).map((t) => t.tokenId);

    const changed = await e.admin<{ tickSize: string; previousTickSize: string }>('/admin/tick-size', { conditionId: market.conditionId, tickSize: '0.01' });
    expect(changed).toMatchObject({ tickSize: '0.01', previousTickSize: '0.001' });
    // the first book with the new tick has arrived once the engine's rules say so
    const seenAt = await waitFor('a book with the new tick', () => tokens.every((t) => engine.cache.get(t)?.rules.tickSize === NEW_TICK) && Date.now(), 10_000, 20);

    // quoting goes on, on the new grid
    const onNewGrid = () =>
      e.records().filter((r) => tokens.includes(r.request.tokenId) && r.request.createdAt > seenAt && e.orderEvents('OrderAccepted').some((a) => a.clientOrderId === r.request.clientOrderId));
    await waitFor('an order on the market accepted after the change', () => onNewGrid().length > 0, 25_000);
    for (const r of onNewGrid()) expect(r.request.price % NEW_TICK, `price ${r.request.price}`).toBe(0);

    const summary = await e.stop();
    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    // no order created after the engine saw the new tick was refused for its tick, nor denied off the grid
    const createdAt = new Map(e.records().map((r) => [r.request.clientOrderId, r.request.createdAt]));
    const tickRefusals = venue.filter((o) => o.errorMsg === ERR_PRICE_TICK && (createdAt.get(o.clientOrderId!) ?? 0) > seenAt);
    expect(tickRefusals).toEqual([]);
    expect(e.orderEvents('OrderDenied').filter((d) => d.code === 'PRICE_OFF_TICK' && d.tsInit > seenAt)).toEqual([]);
    // every order sent on the market since then is on the new grid
    for (const o of venue.filter((x) => x.conditionId === market.conditionId && (createdAt.get(x.clientOrderId!) ?? 0) > seenAt)) {
      expect(parseMicros(o.price!) % NEW_TICK, `venue order price ${o.price}`).toBe(0);
    }
    expect(summary.strategies['mm']).toBe('STOPPED');
    expect(venue.filter((o) => o.status === 'LIVE')).toEqual([]);
  }, 60_000);
});
