import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { formatMicros, parseMicros } from '../../../src/core/fixed.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { LIQUIDITY_OWNER } from '../../../src/sandbox/trading/sandbox-engine.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import {
  ERR_BALANCE,
  ERR_DUPLICATED,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_MARKET_NOT_READY,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from '../../../src/sim/venue-messages.ts';
import { decodeAccountTradesPage, decodeOrderPostResult, decodeOrderPostResults } from '../../../src/venue/decode.ts';
import { encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import { send, pickMarket, TestTrader, top, units } from './harness.ts';

/** POST /orders and POST /order: per-item checks with the venue's strings, matching, books, limits. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 4, markets: 200, events: 40, clock, limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x31).login();
  bob = await new TestTrader(sb.url, 'interface', clock, 0x32).login();
  market = pickMarket(sb, { minSpreadTicks: 2 });
});
afterAll(async () => {
  await sb.close();
});

describe('POST /orders', () => {
  it('answers one result per item, in order, with the exact errorMsg of each refusal', async () => {
    const { bid, ask } = top(sb, market);
    const tick = market.tickSize;
    const min = units(market.minOrderSize);
    const low = units(bid - 2 * tick);
    const closed = sb.world.markets.find((m) => m.closed) as SandboxMarket;
    const other = pickMarket(sb, { skip: 1 });
    const unknownToken = { ...market, tokens: [{ ...market.tokens[0], tokenId: '12345' }, market.tokens[1]] } as unknown as SandboxMarket;
    const askLevel = sb.world.books.book(market.tokens[0].tokenId)!.asks[0]!;

    const good = alice.sign({ market, side: 'BUY', price: low, size: min * 2, clientOrderId: 'batch-0' });
    const tampered = alice.sign({ market, side: 'BUY', price: low, size: min });
    const tamperedOrder = { ...tampered.order, salt: String(Number(tampered.order.salt) + 1) };
    const wrongCondition = alice.item(alice.sign({ market, side: 'BUY', price: low, size: min }));
    wrongCondition.order = { ...wrongCondition.order, conditionId: other.conditionId };
    // signed by alice, but conditionId is not part of the struct: only the JSON changed
    const items = [
      alice.item(good),
      alice.item(alice.sign({ market, side: 'BUY', price: low + units(tick) / 2, size: min, tick: tick / 10 })),
      alice.item(alice.sign({ market, side: 'BUY', price: low, size: min - 0.01 })),
      { ...alice.item(tampered), order: tamperedOrder },
      alice.item(alice.sign({ market, side: 'BUY', price: low, size: min }), bob.apiKey),
      alice.item(good),
      alice.item(alice.sign({ market, side: 'BUY', price: 0.5, size: 30_000 })),
      alice.item(alice.sign({ market, side: 'SELL', price: units(ask), size: min })),
      bob.item(bob.sign({ market, side: 'BUY', price: low, size: min }), alice.apiKey),
      wrongCondition,
      alice.item(alice.sign({ market: unknownToken, side: 'BUY', price: low, size: min })),
      alice.item(alice.sign({ market, side: 'BUY', price: units(ask), size: min, postOnly: true })),
      alice.item(alice.sign({ market, side: 'BUY', price: units(ask), size: units(askLevel.size) + 1, orderType: 'FOK' })),
      alice.item(alice.sign({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - ask - 2 * tick), size: min, clientOrderId: 'batch-13' })),
      alice.item(alice.sign({ market: closed, side: 'BUY', price: units(closed.tickSize * 10), size: units(closed.minOrderSize) })),
    ];
    expect(items).toHaveLength(15);
    const answer = await alice.l2('POST', '/orders', items);
    expect(answer.status).toBe(200);
    const results = answer.body as any[];
    expect(results.map((r) => r.errorMsg)).toEqual([
      '',
      ERR_PRICE_TICK,
      ERR_SIZE_MINIMUM,
      'invalid signature',
      'the order owner has to be the owner of the API KEY',
      ERR_DUPLICATED,
      ERR_BALANCE,
      ERR_BALANCE,
      'the order signer address has to be the address of the API KEY',
      ERR_INVALID_PAYLOAD,
      ERR_INVALID_PAYLOAD,
      ERR_POST_ONLY_CROSSES,
      ERR_FOK_UNFILLED,
      '',
      ERR_MARKET_NOT_READY,
    ]);
    expect(results.map((r) => r.success)).toEqual(results.map((r) => r.errorMsg === ''));
    expect(results[0]).toEqual({ success: true, errorMsg: '', orderID: good.orderHash, status: 'live', makingAmount: '0', takingAmount: '0' });
    for (const r of results.filter((x) => !x.success)) expect(r.orderID).toBe('');
    const decoded = decodeOrderPostResults(answer.body, 15);
    expect(decoded.filter((d) => d.kind === 'accepted').map((d) => d.kind === 'accepted' && d.status)).toEqual(['LIVE', 'LIVE']);

    const logged = (await send(`${sb.url}/admin/orders?owner=${alice.apiKey}`, 'GET', {})).body as any[];
    const first = logged.find((o) => o.hash === good.orderHash && o.accepted);
    expect(first).toMatchObject({
      metadata: encodeClientOrderId('batch-0'),
      clientOrderId: 'batch-0',
      maker: alice.address,
      side: 'BUY',
      price: formatMicros(bid - 2 * tick),
      size: formatMicros(market.minOrderSize * 2),
      status: 'LIVE',
      sizeMatched: '0',
      tradeIds: [],
    });
    const refusals = logged.slice(-15).map((o) => o.errorMsg);
    expect(refusals).toEqual(results.map((r) => r.errorMsg));
  });

  it('refuses a batch of 16 and an empty batch as a whole with 400', async () => {
    const items = Array.from({ length: 16 }, () => alice.item(alice.sign({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize) })));
    const tooMany = await alice.l2('POST', '/orders', items);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'Too many orders in payload: 16, max allowed: 15' });
    const empty = await alice.l2('POST', '/orders', []);
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body)).toEqual(['error']);
    const notArray = await alice.l2('POST', '/orders', { order: {} });
    expect(notArray.status).toBe(400);
  });

  it('fills crossing orders: both sides see the trade in /data/trades, balances and the book follow', async () => {
    const { bid, ask } = top(sb, market);
    const tick = market.tickSize;
    const inside = bid + tick; // strictly inside the seeded spread
    const yes = market.tokens[0].tokenId;
    const bookBefore = sb.world.books.book(yes)!;
    // bob: BUY NO at 1 - inside rests as a YES ask at `inside`, ahead of the seeded asks
    const bobOrder = bob.sign({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size: 20, clientOrderId: 'bob-no-1' });
    const rest = await bob.l2('POST', '/order', bob.item(bobOrder));
    expect(rest.body).toMatchObject({ success: true, orderID: bobOrder.orderHash, status: 'live' });
    const resting = sb.world.books.book(yes)!;
    expect(resting.asks[0]).toEqual({ price: inside, size: 20_000_000 });
    expect(resting.hash).not.toBe(bookBefore.hash);
    expect(sb.world.books.book(yes)!.hash).toBe(resting.hash);
    const rest2 = await alice.l2('GET', `/book?token_id=${yes}`);
    expect(rest2.body.hash).toBe(resting.hash);
    expect(rest2.body.asks.some((l: any) => l.price === formatMicros(inside) && l.size === '20')).toBe(true);

    // alice: BUY YES 20 at `inside` takes bob's order and nothing else
    const take = alice.sign({ market, side: 'BUY', price: units(inside), size: 20, orderType: 'FAK' });
    const taken = await alice.l2('POST', '/orders', [alice.item(take)]);
    const result = taken.body[0];
    expect(result).toMatchObject({ success: true, status: 'matched', makingAmount: formatMicros(20 * inside), takingAmount: '20' });
    expect(result.tradeIDs).toHaveLength(1);
    expect(result.transactionsHashes[0]).toMatch(/^0x[0-9a-f]{64}$/);
    const decoded = decodeOrderPostResult(result);
    expect(decoded.kind === 'accepted' && decoded.tradeIds).toEqual(result.tradeIDs);

    // the book is back to its content before bob's order: the same hash
    const after = sb.world.books.book(yes)!;
    expect(after.asks).toEqual(bookBefore.asks);
    expect(after.hash).toBe(bookBefore.hash);
    expect(after.lastTradePrice).toBe(inside);
    expect(after.asks[0]!.price).toBe(ask);

    const aliceTrades = (await alice.l2('GET', '/data/trades')).body;
    const bobTrades = (await bob.l2('GET', `/data/trades?market=${market.conditionId}`)).body;
    const tradeId = result.tradeIDs[0];
    const a = aliceTrades.data.find((t: any) => t.id === tradeId);
    const b = bobTrades.data.find((t: any) => t.id === tradeId);
    expect(a).toMatchObject({ type: 'TAKER', side: 'BUY', asset_id: yes, price: formatMicros(inside), size: '20', status: 'MATCHED', taker_order_id: take.orderHash, owner: alice.apiKey, maker_address: alice.address, outcome: 'Yes' });
    expect(b).toMatchObject({ type: 'MAKER', id: tradeId });
    expect(a.maker_orders).toEqual([
      {
        order_id: bobOrder.orderHash,
        maker_address: bob.address,
        owner: bob.apiKey,
        matched_amount: '20',
        fee_rate_bps: '0',
        price: formatMicros(1_000_000 - inside),
        asset_id: market.tokens[1].tokenId,
        outcome: 'No',
        side: 'BUY',
      },
    ]);
    expect(decodeAccountTradesPage(aliceTrades).items.find((t) => t.id === tradeId)?.makerOrders[0]?.matchedAmount).toBe(20_000_000);

    const aliceBal = (await send(`${sb.url}/admin/balances?address=${alice.address}`, 'GET', {})).body;
    const bobBal = (await send(`${sb.url}/admin/balances?address=${bob.address}`, 'GET', {})).body;
    expect(aliceBal.tokens.find((t: any) => t.tokenId === yes)).toEqual({ tokenId: yes, balance: '20', reserved: '0' });
    expect(bobBal.tokens.find((t: any) => t.tokenId === market.tokens[1].tokenId)).toEqual({ tokenId: market.tokens[1].tokenId, balance: '20', reserved: '0' });
    expect(parseMicros(bobBal.collateral)).toBe(10_000_000_000 - 20 * (1_000_000 - inside));

    const bobLog = (await send(`${sb.url}/admin/orders?hash=${bobOrder.orderHash}`, 'GET', {})).body[0];
    expect(bobLog).toMatchObject({ status: 'MATCHED', sizeMatched: '20', tradeIds: [tradeId], clientOrderId: 'bob-no-1' });
  });

  it('takes seeded liquidity, whose maker is the sandbox', async () => {
    const { ask } = top(sb, market);
    const answer = await alice.post({ market, side: 'BUY', price: units(ask), size: units(market.minOrderSize), orderType: 'FOK' });
    expect(answer.body[0]).toMatchObject({ success: true, status: 'matched' });
    const trade = (await alice.l2('GET', `/data/trades?id=${answer.body[0].tradeIDs[0]}`)).body.data[0];
    expect(trade.maker_orders[0].owner).toBe(LIQUIDITY_OWNER);
  });

  it('POST /order answers one result, also for a refusal', async () => {
    const signed = alice.sign({ market, side: 'BUY', price: 0.11, size: units(market.minOrderSize), postOnly: true });
    const ok = await alice.l2('POST', '/order', { ...alice.item(signed), deferExec: false });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, orderID: signed.orderHash, status: 'live' });
    const dup = await alice.l2('POST', '/order', alice.item(signed));
    expect(dup.body).toEqual({ success: false, errorMsg: ERR_DUPLICATED, orderID: '', status: '', makingAmount: '', takingAmount: '' });
    expect((await alice.l2('POST', '/order', [alice.item(signed)])).status).toBe(400);
  });

  it('verifies neg-risk orders against the neg-risk exchange', async () => {
    const negRisk = pickMarket(sb, { negRisk: true });
    const size = units(negRisk.minOrderSize);
    const right = alice.sign({ market: negRisk, side: 'BUY', price: 0.11, size });
    const wrong = alice.sign({ market: negRisk, side: 'BUY', price: 0.12, size, negRisk: false });
    const answer = await alice.l2('POST', '/orders', [alice.item(right), alice.item(wrong)]);
    expect(answer.body.map((r: any) => r.errorMsg)).toEqual(['', 'invalid signature']);
  });

  it('accepts signature types 1 and 2 (maker = the key\'s own wallet), refuses type 0 with maker != signer', async () => {
    const proxy = await new TestTrader(sb.url, 'interface', clock, 0x33, { wallet: 'proxy' }).login();
    const funder = proxy.signer.maker;
    const size = units(market.minOrderSize);
    const answer = await proxy.post({ market, side: 'BUY', price: 0.11, size });
    expect(answer.body[0]).toMatchObject({ success: true, status: 'live' });
    const funds = (await send(`${sb.url}/admin/balances?address=${funder}`, 'GET', {})).body;
    expect(funds.opened).toBe(true);
    expect(parseMicros(funds.collateralReserved)).toBe((110_000 * market.minOrderSize) / 1_000_000);
    expect((await send(`${sb.url}/admin/balances?address=${proxy.address}`, 'GET', {})).body.opened).toBe(false);
    const eoa = alice.sign({ market, side: 'BUY', price: 0.11, size });
    const forged = alice.item(eoa);
    forged.order = { ...forged.order, maker: funder };
    expect((await alice.l2('POST', '/orders', [forged])).body[0].errorMsg).toBe('invalid signature'); // maker is signed
  });
});

describe('rate limits of the order routes', () => {
  it('charge one unit per item against the order budget', async () => {
    const limited = await startSandbox({
      flow: { enabled: false },
      seed: 4,
      markets: 20,
      events: 4,
      clock,
      limits: { routeOverrides: { postOrders: [{ name: 'test orders', limit: 20, windowMs: 10_000 }] } },
    });
    try {
      const t = await new TestTrader(limited.url, 'interface', clock, 0x34).login();
      const m = pickMarket(limited);
      const batch = (n: number): unknown[] => Array.from({ length: n }, () => t.item(t.sign({ market: m, side: 'BUY', price: 0.11, size: units(m.minOrderSize) })));
      expect((await t.l2('POST', '/orders', batch(15))).status).toBe(200);
      const refused = await t.l2('POST', '/orders', batch(6));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/'test orders' allows 20 per 10000 ms/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
