import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Micros } from '../../../src/core/fixed.ts';
import { Secret } from '../../../src/core/secret.ts';
import { ENGINE_METRICS } from '../../../src/engine/engine-metrics.ts';
import type { OrderRecord } from '../../../src/execution/order-tracker.ts';
import type { RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { getOrCreateApiKey } from '../../../src/venue/actions/get-or-create-api-key.ts';
import { postOrders } from '../../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient } from '../../../src/venue/client.ts';
import { addressOf, OTHER_KEY, signer } from '../../venue/trading/helpers.ts';
import { REPO_ROOT, startE2E, waitFor, type E2E, type StrategySpec } from './harness.ts';

/**
 * Issue 28: a quote change never posts a SELL on shares the venue already sold for us while the
 * fill is still on its way to the bot (the "not enough balance" rejects of a loaded run). The
 * sandbox's flow is off: only the strategy and this test trade. The strategy (ask-mover) buys
 * SIZE shares, then asks them; with our trades held back (every `/data/trades` read fails, so no
 * fill reaches the bot), another account takes part, then all, of the ask, and the test moves the
 * ask. The old ask is cancelled (its rest, or "not canceled: matched" once it is all matched):
 * the new SELL must not go out on the shares sold until their fill is booked, and the venue must
 * never refuse one of our orders.
 */

const ASK_MOVER = resolve(REPO_ROOT, 'test/engine/e2e/strategies/ask-mover.ts');
const SIZE = 20;
const MICROS = 1_000_000;

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

/** A market with room for two asks between its best bid and ask, SIZE shares at its best ask, prices mid-range. */
function pickMarket(sb: RunningSandbox): { market: SandboxMarket; bestAsk: Micros } {
  for (const m of sb.world.markets) {
    if (m.closed || !m.acceptingOrders || m.negRisk) continue;
    const book = sb.engine.book(m.tokens[0].tokenId, Date.now());
    const bid = book.bids[0];
    const ask = book.asks[0];
    if (bid === undefined || ask === undefined || bid.price < 200_000 || ask.price > 800_000) continue;
    if (ask.price - bid.price < 3 * m.tickSize || ask.size < SIZE * MICROS || m.minOrderSize > 5 * MICROS) continue;
    return { market: m, bestAsk: ask.price };
  }
  throw new Error('fixture: no market with a wide enough spread in the seed');
}

describe('e2e: a SELL waits for the fill of the old ask the venue matched', () => {
  it('a partly and then a fully matched ask, moved while its fill is held back: no SELL on the sold shares, no venue reject', async () => {
    let market: SandboxMarket | undefined;
    const strategies = (sb: RunningSandbox): StrategySpec[] => {
      const picked = pickMarket(sb);
      market = picked.market;
      return [{ id: 'asks', module: ASK_MOVER, params: { tokenId: market.tokens[0].tokenId, size: SIZE, buyPrice: picked.bestAsk / MICROS }, markets: { conditionIds: [market.conditionId] } }];
    };
    run = await startE2E({
      sandbox: { flow: { enabled: false } },
      strategies,
      // fills by polling only: failing /data/trades reads hold them back
      config: { execution: { userChannel: { enabled: false } } },
    });
    const e = run;
    const m = market!;
    const tokenId = m.tokens[0].tokenId;
    const tick = m.tickSize;
    const engine = e.session.engine;
    const held = (): number => engine.portfolio.size(tokenId) ?? 0;
    const sells = (): OrderRecord[] => e.records().filter((r) => r.request.side === 'SELL');
    const rejected = (): string[] => e.orderEvents('OrderRejected').map((ev) => ev.reason);
    const setAsk = (price: Micros): void => {
      const result = engine.command({ type: 'updateParams', strategyId: 'asks', params: { askPrice: price / MICROS } });
      expect(result.ok, result.message).toBe(true);
    };
    // our trades at the venue can no longer be read: every fill from now on is held back
    const holdFills = async (): Promise<void> => {
      const refused = engine.metrics.value(ENGINE_METRICS.snapshotsRefused);
      await e.faults({ errorRate: 1, routes: ['getAccountTrades'] });
      // polls never overlap: a read refused after the fault means every read after it fails too
      await waitFor('a read of our trades refused', () => engine.metrics.value(ENGINE_METRICS.snapshotsRefused) > refused);
    };
    const releaseFills = (): Promise<unknown> => e.faults({ errorRate: 0, routes: [] });

    // another account takes `size` of our ask at `price` (a fill-and-kill BUY)
    const venue = createVenueClient({ baseUrl: e.sandbox.url, retries: 0 });
    const creds = await getOrCreateApiKey(venue, { privateKey: new Secret(OTHER_KEY) });
    const other = withL2Auth(venue, { address: addressOf(OTHER_KEY), credentials: creds });
    const taker = signer('interface', OTHER_KEY);
    let salt = 1;
    const take = async (price: Micros, size: Micros): Promise<void> => {
      const order = taker.sign({ tokenId, conditionId: m.conditionId, tick, negRisk: m.negRisk, orderType: 'FAK', timestamp: Date.now(), side: 'BUY', price, size, salt: salt++, clientOrderId: `taker-${salt}` });
      const [answer] = await postOrders(other, { owner: creds.apiKey, orders: [order] });
      expect(answer?.kind, JSON.stringify(answer)).toBe('accepted');
    };

    await waitFor('the buy booked', () => held() === SIZE * MICROS, 30_000);
    const book = e.sandbox.engine.book(tokenId, Date.now());
    const p1 = book.bids[0]!.price + tick;
    const p2 = p1 + tick;
    expect(p2, 'two asks inside the spread').toBeLessThan(book.asks[0]!.price);

    // 1. the ask partly matched, then moved: its rest is cancelled, the sold part not yet booked
    setAsk(p1);
    const first = await waitFor('the first ask live', () => sells().find((r) => r.request.price === p1 && r.status === 'LIVE'));
    await holdFills();
    const part = 8 * MICROS;
    await take(p1, part);
    setAsk(p2);
    await waitFor('the first ask cancelled and what it sold known, or a second ask sent', () =>
      first.status === 'CANCELED' && (first.filled >= part || rejected().length > 0 || sells().some((r) => r.request.price === p2)),
    );
    expect(rejected(), 'venue rejects').toEqual([]);
    expect(sells().filter((r) => r.request.price === p2), 'a SELL sent on shares the venue sold, fill not booked').toEqual([]);
    expect(first.filled, 'what the venue matched of the first ask').toBe(part);
    expect(held(), 'the fill is still held back').toBe(SIZE * MICROS);
    await releaseFills();
    const second = await waitFor('the second ask live on what is left', () => sells().find((r) => r.request.price === p2 && r.status === 'LIVE'));
    expect(second.request.size).toBe(SIZE * MICROS - part);
    expect(held()).toBe(SIZE * MICROS - part);

    // 2. the whole ask matched, then moved: "not canceled: matched", the sold shares not yet booked
    await holdFills();
    await take(p2, second.request.size);
    setAsk(p1);
    await waitFor('the second ask settled from the venue, or cancelled again and again', () =>
      second.status === 'FILLED' || second.history.filter((h) => h.status === 'CANCEL_PENDING').length >= 3 || rejected().length > 0,
    );
    expect(second.status, 'the matched ask, from the venue, before its fill').toBe('FILLED');
    expect(second.history.filter((h) => h.status === 'CANCEL_PENDING'), 'cancels sent for it').toHaveLength(1);
    expect(held(), 'the fill is still held back').toBe(SIZE * MICROS - part);
    expect(sells().filter((r) => r.request.price === p1 && r !== first), 'a SELL sent on shares the venue sold, fill not booked').toEqual([]);
    await releaseFills();
    await waitFor('the last fill booked', () => held() === 0);
    expect(rejected(), 'venue rejects').toEqual([]);
    expect(sells().filter((r) => r.status !== 'CANCELED' && r.status !== 'FILLED'), 'no SELL left open (nothing held)').toEqual([]);
  }, 120_000);
});
