import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { SHAPES, expectEach } from '../helpers.ts';
import { pickMarket, send, TestTrader, top, units } from './harness.ts';

/** Wallet analytics (GET /trades, /activity, /holders, /closed-positions) include the sandbox's own trading. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;
let market: SandboxMarket;
let bought: number;
let sold: number;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 14, markets: 80, events: 16, clock, limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x71).login();
  bob = await new TestTrader(sb.url, 'interface', clock, 0x72).login();
  market = pickMarket(sb);
  const size = units(market.minOrderSize) * 2;
  const { bid, ask } = top(sb, market);
  bought = ask;
  sold = bid;
  // alice buys and sells back (a closed position); bob buys and holds
  expect((await alice.post({ market, side: 'BUY', price: units(ask), size, orderType: 'FOK' })).body[0].status).toBe('matched');
  clock.advanceBy(60_000);
  expect((await alice.post({ market, side: 'SELL', price: units(bid), size, orderType: 'FOK' })).body[0].status).toBe('matched');
  clock.advanceBy(60_000);
  expect((await bob.post({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - bid), size: size * 2, orderType: 'FOK' })).body[0].status).toBe('matched');
});
afterAll(async () => {
  await sb.close();
});

describe('wallet analytics', () => {
  it('GET /trades and /activity list the sandbox fills of a user, newest first', async () => {
    const size = (market.minOrderSize * 2) / 1_000_000;
    const trades = (await send(`${sb.url}/trades?user=${alice.address}`, 'GET', {})).body;
    expectEach(trades, SHAPES.tradeFill);
    expect(trades.map((t: any) => [t.side, t.price, t.size, t.conditionId, t.asset, t.proxyWallet])).toEqual([
      ['SELL', units(sold), size, market.conditionId, `${market.conditionId}:0`, alice.address],
      ['BUY', units(bought), size, market.conditionId, `${market.conditionId}:0`, alice.address],
    ]);
    expect(trades[0].timestamp).toBe(Math.floor(NOW_MS / 1000) + 60);
    expect(trades[0].transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const activity = (await send(`${sb.url}/activity?user=${alice.address}`, 'GET', {})).body;
    expectEach(activity, SHAPES.activity);
    expect(activity.map((a: any) => [a.type, a.side, a.price])).toEqual([
      ['TRADE', 'SELL', units(sold)],
      ['TRADE', 'BUY', units(bought)],
    ]);
    // the whole tape: the newest fills are the sandbox's (bob's buy and its maker)
    const tape = (await send(`${sb.url}/trades?limit=3&takerOnly=false`, 'GET', {})).body;
    expect(tape[0].timestamp).toBe(Math.floor(NOW_MS / 1000) + 120);
    expect(tape.some((t: any) => t.proxyWallet === bob.address)).toBe(true);
    expect((await send(`${sb.url}/trades?user=${alice.address}&side=BUY`, 'GET', {})).body).toHaveLength(1);
  });

  it('GET /holders ranks sandbox holders with the world\'s', async () => {
    const groups = (await send(`${sb.url}/holders?market=${market.conditionId}&minBalance=0`, 'GET', {})).body;
    const no = groups.find((g: any) => g.token === `${market.conditionId}:1`);
    expectEach(no.holders, SHAPES.holder);
    const entry = no.holders.find((h: any) => h.proxyWallet === bob.address);
    expect(entry).toMatchObject({ amount: (market.minOrderSize * 4) / 1_000_000, outcomeIndex: 1, asset: `${market.conditionId}:1` });
    const amounts = no.holders.map((h: any) => h.amount);
    expect(amounts).toEqual([...amounts].sort((a: number, b: number) => b - a));
    const yes = groups.find((g: any) => g.token === `${market.conditionId}:0`);
    expect(yes.holders.some((h: any) => h.proxyWallet === alice.address)).toBe(false); // sold out
  });

  it('GET /closed-positions shows a position bought and sold back to zero', async () => {
    const closed = (await send(`${sb.url}/closed-positions?user=${alice.address}`, 'GET', {})).body;
    expectEach(closed, SHAPES.closedPosition);
    expect(closed).toHaveLength(1);
    const size = (market.minOrderSize * 2) / 1_000_000;
    expect(closed[0]).toMatchObject({
      proxyWallet: alice.address,
      conditionId: market.conditionId,
      totalBought: size,
      avgPrice: units(bought),
      curPrice: units(sold),
    });
    expect(closed[0].realizedPnl).toBeCloseTo(size * units(sold - bought), 6);
    expect((await send(`${sb.url}/closed-positions?user=${bob.address}`, 'GET', {})).body).toEqual([]);
  });
});
