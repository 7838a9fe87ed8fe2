import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { formatMicros } from '../../../src/core/fixed.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { decodeAccountOrdersPage, decodeAccountTradesPage, decodeOrderPostResults } from '../../../src/venue/decode.ts';
import { encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import { pickMarket, send, TestTrader, top, units } from './harness.ts';

/** Profile polymarket end to end: POLY_ headers, base64url HMAC, no conditionId, snake_case orders, LTE= ends. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;
let market: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 17, markets: 120, events: 24, clock, profile: 'polymarket', limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'polymarket', clock, 0x81).login();
  bob = await new TestTrader(sb.url, 'polymarket', clock, 0x82).login();
  market = pickMarket(sb, { minSpreadTicks: 2 });
});
afterAll(async () => {
  await sb.close();
});

describe('profile polymarket', () => {
  it('derives keys with POLY_ L1 headers and refuses the SERVICE_ ones', async () => {
    expect(Object.keys(alice.l1Headers()).sort()).toEqual(['POLY_ADDRESS', 'POLY_NONCE', 'POLY_SIGNATURE', 'POLY_TIMESTAMP']);
    const iface = new TestTrader(sb.url, 'interface', clock, 0x81);
    const refused = await iface.createKey();
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('L1 auth: header POLY_ADDRESS is missing');
  });

  it('signs L2 with base64url under POLY_ names; a hex signature is refused', async () => {
    const headers = alice.l2Headers('GET', '/data/orders', undefined);
    expect(Object.keys(headers).sort()).toEqual(['POLY_ADDRESS', 'POLY_API_KEY', 'POLY_PASSPHRASE', 'POLY_SIGNATURE', 'POLY_TIMESTAMP']);
    expect(headers['POLY_SIGNATURE']).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect((await send(`${sb.url}/data/orders`, 'GET', headers)).status).toBe(200);
    const hex = Buffer.from((headers['POLY_SIGNATURE'] as string).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex');
    const answer = await send(`${sb.url}/data/orders`, 'GET', { ...headers, POLY_SIGNATURE: hex });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatch(/^L2 auth: POLY_SIGNATURE/);
  });

  it('takes orders without conditionId (and with a matching one), answers snake_case orders ending in LTE=', async () => {
    const signed = alice.sign({ market, side: 'BUY', price: units(market.tickSize), size: units(market.minOrderSize), clientOrderId: 'pm-1' });
    expect(signed.order.conditionId).toBeUndefined();
    expect(typeof signed.order.salt).toBe('number');
    const withCondition = alice.item(alice.sign({ market, side: 'BUY', price: units(market.tickSize), size: units(market.minOrderSize) }));
    withCondition.order = { ...withCondition.order, conditionId: market.conditionId };
    const posted = await alice.l2('POST', '/orders', [alice.item(signed), withCondition]);
    expect(decodeOrderPostResults(posted.body, 2).map((r) => r.kind)).toEqual(['accepted', 'accepted']);
    const page = (await alice.l2('GET', '/data/orders', undefined, { mount: '/clob' })).body;
    expect(page.next_cursor).toBe('LTE=');
    expect(page.count).toBe(2);
    const order = page.data[0];
    expect(Object.keys(order).sort()).toEqual(
      ['associate_trades', 'asset_id', 'created_at', 'expiration', 'id', 'maker_address', 'market', 'metadata', 'order_type', 'original_size', 'outcome', 'owner', 'price', 'side', 'size_matched', 'status'].sort(),
    );
    expect(order).toMatchObject({
      id: signed.orderHash,
      status: 'ORDER_STATUS_LIVE',
      owner: alice.apiKey,
      maker_address: alice.address,
      market: market.conditionId,
      asset_id: market.tokens[0].tokenId,
      original_size: formatMicros(market.minOrderSize),
      size_matched: '0',
      price: formatMicros(market.tickSize),
      expiration: '0',
      order_type: 'GTC',
      associate_trades: [],
      created_at: Math.floor(NOW_MS / 1000),
      metadata: encodeClientOrderId('pm-1'),
    });
    const decoded = decodeAccountOrdersPage(page);
    expect(decoded.done).toBe(true);
    expect(decoded.items[0]).toMatchObject({ status: 'LIVE', originalSize: market.minOrderSize, createdAt: NOW_MS, metadata: encodeClientOrderId('pm-1') });
  });

  it('fills across two traders; /data/trades carries trader_side and unix-second times', async () => {
    const { bid } = top(sb, market);
    const inside = bid + market.tickSize;
    const size = units(market.minOrderSize);
    const maker = bob.sign({ market, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size });
    expect((await bob.l2('POST', '/order', bob.item(maker))).body.status).toBe('live');
    const taken = await alice.post({ market, side: 'BUY', price: units(inside), size, orderType: 'FOK' });
    const tradeId = taken.body[0].tradeIDs[0];
    const mine = (await alice.l2('GET', '/data/trades', undefined, { mount: '/clob' })).body;
    expect(mine.next_cursor).toBe('LTE=');
    const trade = mine.data.find((t: any) => t.id === tradeId);
    expect(trade).toMatchObject({ trader_side: 'TAKER', status: 'TRADE_STATUS_MATCHED', match_time: String(Math.floor(NOW_MS / 1000)) });
    expect(trade.type).toBeUndefined();
    const decoded = decodeAccountTradesPage(mine).items.find((t) => t.id === tradeId);
    expect(decoded).toMatchObject({ status: 'MATCHED', traderSide: 'TAKER', matchTime: NOW_MS, price: inside });
    const theirs = (await bob.l2('GET', '/data/trades')).body.data.find((t: any) => t.id === tradeId);
    expect(theirs.trader_side).toBe('MAKER');
  });

  it('answers heartbeats and cancels under the POLY_ headers', async () => {
    expect((await alice.l2('POST', '/v1/heartbeats', { heartbeat_id: '' })).status).toBe(200);
    const all = await alice.l2('DELETE', '/cancel-all');
    expect(all.body.canceled).toHaveLength(2);
  });
});
