import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { pickMarket, TestTrader, top, units } from './harness.ts';

/**
 * Issue 13 points 2 and 3 over HTTP: the sandbox's trades settle on chain (their status moves on
 * GET /data/trades; a FAILED one is reversed on both wallets), and a marketable order in a market
 * with a matching delay is answered `delayed`, shown DELAYED, then matched when the delay is over.
 */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({
    flow: { enabled: false },
    seed: 4,
    markets: 200,
    events: 40,
    clock,
    limits: { enabled: false },
    faults: { settlementMinedMs: 1_000, settlementConfirmedMs: 1_000, settlementFailRate: 1, matchingDelayMs: 0 },
  });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x41).login();
  bob = await new TestTrader(sb.url, 'interface', clock, 0x42).login();
  market = pickMarket(sb, { minSpreadTicks: 2 });
});
afterAll(async () => {
  await sb.close();
});

/** Both wallets as the venue holds them: collateral (free + reserved) and YES tokens. */
function wallets() {
  const yes = market.tokens[0].tokenId;
  return [alice.address, bob.address].map((address) => {
    const b = sb.engine.ledger.balance(address);
    return { collateral: b.collateral + b.collateralReserved, yes: sb.engine.ledger.position(address, yes) };
  });
}

/** Bob rests a NO bid inside the spread (a YES ask); alice takes it with a FAK. Returns the FAK's answer. */
async function cross(size: number): Promise<any> {
  const { bid } = top(sb, market);
  const inside = bid + market.tickSize;
  const rest = await bob.l2('POST', '/order', bob.item(bob.sign({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size })));
  expect(rest.body).toMatchObject({ success: true, status: 'live' });
  const taken = await alice.l2('POST', '/orders', [alice.item(alice.sign({ market, side: 'BUY', price: units(inside), size, orderType: 'FAK' }))]);
  return taken.body[0];
}

describe('sandbox: settlement on chain', () => {
  it('moves a trade MATCHED -> RETRYING -> FAILED on /data/trades and reverses it on both wallets', async () => {
    const before = wallets();
    const result = await cross(20);
    expect(result).toMatchObject({ success: true, status: 'matched' });
    const tradeId = result.tradeIDs[0] as string;
    const status = async () => ((await alice.l2('GET', `/data/trades?id=${tradeId}`)).body.data[0] as { status: string }).status;
    expect(await status()).toBe('MATCHED');
    expect(wallets()[0]!.yes).toBe(before[0]!.yes + 20_000_000);
    clock.advanceBy(1_600);
    expect(await status()).toBe('RETRYING');
    clock.advanceBy(3_000);
    expect(await status()).toBe('FAILED');
    // as before the trade: alice's collateral and no YES, bob's collateral (the NO he bought never minted)
    expect(wallets()).toEqual(before);
    expect(sb.engine.settlingTrades).toBe(0);
    // the order keeps its matched size
    expect(sb.engine.order(result.orderID)?.sizeMatched).toBe(20_000_000);
  });

  it('confirms trades once the fault knobs stop failing them', async () => {
    sb.faults.set({ settlementFailRate: 0 });
    const before = wallets();
    const result = await cross(10);
    clock.advanceBy(10_000);
    const trade = (await alice.l2('GET', `/data/trades?id=${result.tradeIDs[0]}`)).body.data[0];
    expect(trade.status).toBe('CONFIRMED');
    expect(wallets()[0]!.yes).toBe(before[0]!.yes + 10_000_000);
  });
});

describe('sandbox: matching delay', () => {
  it('answers a marketable order delayed, shows it DELAYED and open, then matches it when the delay is over', async () => {
    sb.faults.set({ matchingDelayMs: 2_000, settlementFailRate: 0 });
    const before = wallets();
    const result = await cross(10);
    expect(result).toMatchObject({ success: true, status: 'delayed', makingAmount: '0', takingAmount: '0' });
    const id = result.orderID as string;
    const shown = await alice.l2('GET', `/data/order/${id}`);
    expect(shown.body).toMatchObject({ id, status: 'DELAYED' });
    const open = (await alice.l2('GET', '/data/orders')).body.data as { id: string }[];
    expect(open.map((o) => o.id)).toContain(id);
    clock.advanceBy(2_500);
    expect((await alice.l2('GET', `/data/order/${id}`)).body).toMatchObject({ status: 'MATCHED', sizeMatched: '10' });
    expect(wallets()[0]!.yes).toBe(before[0]!.yes + 10_000_000);
  });

  it('cancels a delayed order: it never reaches the book', async () => {
    sb.faults.set({ matchingDelayMs: 2_000 });
    const before = wallets();
    const result = await cross(10);
    expect(result.status).toBe('delayed');
    const canceled = await alice.l2('DELETE', '/order', { orderID: result.orderID });
    expect(canceled.body).toMatchObject({ canceled: [result.orderID] });
    clock.advanceBy(3_000);
    expect((await alice.l2('GET', `/data/order/${result.orderID}`)).body).toMatchObject({ status: 'CANCELED' });
    expect(wallets()[0]!.yes).toBe(before[0]!.yes);
  });
});
