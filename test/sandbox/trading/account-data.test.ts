import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { formatMicros } from '../../../src/core/fixed.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { decodeAccountOrder, decodeAccountOrdersPage, decodeAccountTradesPage, decodeCancelResult } from '../../../src/venue/decode.ts';
import { encodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import { pickMarket, TestTrader, top, units } from './harness.ts';

/** Account data (GET /data/orders, /data/order/{id}, /data/trades) and the cancel family, profile interface. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;
let m1: SandboxMarket;
let m2: SandboxMarket;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 9, markets: 200, events: 40, clock, limits: { enabled: false } });
  alice = await new TestTrader(sb.url, 'interface', clock, 0x41).login();
  bob = await new TestTrader(sb.url, 'interface', clock, 0x42).login();
  m1 = pickMarket(sb, { minSpreadTicks: 2 });
  m2 = pickMarket(sb, { skip: 1 });
});
afterAll(async () => {
  await sb.close();
});

/** Posts `n` resting BUY YES orders at the lowest tick prices of a market, 15 per request. */
async function restMany(t: TestTrader, market: SandboxMarket, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 15) {
    const specs = Array.from({ length: Math.min(15, n - i) }, (_, j) => ({
      market,
      side: 'BUY' as const,
      price: units(market.tickSize * (1 + ((i + j) % 5))),
      size: units(market.minOrderSize),
      clientOrderId: `${tag}-${i + j}`,
    }));
    const answer = await t.post(...specs);
    expect(answer.body.every((r: any) => r.success)).toBe(true);
    ids.push(...answer.body.map((r: any) => r.orderID));
  }
  return ids;
}

async function walk(t: TestTrader, path: string): Promise<{ pages: any[]; items: any[] }> {
  const pages: any[] = [];
  let cursor = 'MA==';
  for (let i = 0; i < 20; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const page = (await t.l2('GET', `${path}${sep}next_cursor=${encodeURIComponent(cursor)}`)).body;
    pages.push(page);
    cursor = page.next_cursor;
    if (cursor === '' || cursor === 'LTE=') break;
  }
  return { pages, items: pages.flatMap((p) => p.data) };
}

describe('GET /data/orders', () => {
  it('pages the caller\'s open orders with the interface fields plus metadata; the last cursor is empty', async () => {
    const ids = await restMany(alice, m2, 105, 'a');
    const { pages, items } = await walk(alice, '/data/orders');
    expect(pages.map((p) => [p.count, p.next_cursor, p.limit])).toEqual([
      [100, 'MTAw', 100],
      [5, '', 100],
    ]);
    expect(items.map((o) => o.id)).toEqual(ids);
    const first = items[0];
    expect(Object.keys(first).sort()).toEqual(
      ['associateTrades', 'assetId', 'createdAt', 'id', 'makerAddress', 'market', 'metadata', 'originalSize', 'outcome', 'owner', 'price', 'side', 'sizeMatched', 'status', 'type'].sort(),
    );
    expect(first).toMatchObject({
      status: 'LIVE',
      market: m2.conditionId,
      assetId: m2.tokens[0].tokenId,
      owner: alice.apiKey,
      makerAddress: alice.address,
      side: 'BUY',
      type: 'GTC',
      originalSize: formatMicros(m2.minOrderSize),
      sizeMatched: '0',
      price: formatMicros(m2.tickSize),
      outcome: 'Yes',
      associateTrades: [],
      createdAt: new Date(NOW_MS).toISOString(),
      metadata: encodeClientOrderId('a-0'),
    });
    const decoded = decodeAccountOrdersPage(pages[1]);
    expect(decoded.done).toBe(true);
    expect(decodeAccountOrdersPage(pages[0]).items[0]?.metadata).toBe(encodeClientOrderId('a-0'));
    // bob sees none of them
    expect((await bob.l2('GET', '/data/orders')).body).toEqual({ data: [], next_cursor: '', limit: 100, count: 0 });
    // past the end
    expect((await alice.l2('GET', '/data/orders?next_cursor=LTE=')).body).toEqual({ data: [], next_cursor: '', limit: 100, count: 0 });
  });

  it('filters by id, market and asset_id', async () => {
    const [id] = await restMany(alice, m1, 1, 'f');
    expect((await alice.l2('GET', `/data/orders?id=${id}`)).body.data.map((o: any) => o.id)).toEqual([id]);
    expect((await alice.l2('GET', `/data/orders?market=${m1.conditionId}`)).body.data.map((o: any) => o.id)).toEqual([id]);
    expect((await alice.l2('GET', `/data/orders?asset_id=${m1.tokens[0].tokenId}`)).body.count).toBe(1);
    expect((await alice.l2('GET', `/data/orders?asset_id=${m1.tokens[1].tokenId}`)).body.count).toBe(0);
    expect((await alice.l2('GET', '/data/orders?next_cursor=%%%')).status).toBe(400);
  });

  it('GET /data/order/{id} answers the caller\'s order in any state, 404 for others and unknown ids', async () => {
    const [id] = await restMany(alice, m1, 1, 'one');
    const own = await alice.l2('GET', `/data/order/${id}`);
    expect(own.status).toBe(200);
    expect(decodeAccountOrder(own.body).metadata).toBe(encodeClientOrderId('one-0'));
    expect((await bob.l2('GET', `/data/order/${id}`)).status).toBe(404);
    expect((await alice.l2('GET', `/data/order/0x${'ab'.repeat(32)}`)).status).toBe(404);
    await alice.l2('DELETE', '/order', { orderID: id });
    expect((await alice.l2('GET', `/data/order/${id}`)).body.status).toBe('CANCELED');
    expect((await alice.l2('GET', `/data/order/${id}`, undefined, { mount: '/clob' })).body.id).toBe(id);
  });
});

describe('GET /data/trades', () => {
  it('lists trades as taker and as maker, walks with cursors to LTE=, and filters', async () => {
    const { bid } = top(sb, m1);
    const inside = bid + m1.tickSize;
    const size = units(m1.minOrderSize);
    const maker = bob.sign({ market: m1, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size: size * 110 });
    expect((await bob.l2('POST', '/orders', [bob.item(maker)])).body[0].status).toBe('live');
    const tradeIds: string[] = [];
    for (let i = 0; i < 105; i += 15) {
      const answer = await alice.post(...Array.from({ length: 15 }, () => ({ market: m1, side: 'BUY' as const, price: units(inside), size, orderType: 'FAK' as const })));
      for (const r of answer.body) tradeIds.push(...r.tradeIDs);
    }
    expect(tradeIds).toHaveLength(105);
    const mine = await walk(alice, `/data/trades?market=${m1.conditionId}`);
    expect(mine.pages.map((p) => [p.count, p.next_cursor])).toEqual([
      [100, 'MTAw'],
      [5, 'LTE='],
    ]);
    expect(mine.items.map((t) => t.id)).toEqual(tradeIds);
    expect(new Set(mine.items.map((t) => t.type))).toEqual(new Set(['TAKER']));
    expect(decodeAccountTradesPage(mine.pages[1]).done).toBe(true);
    const theirs = await walk(bob, '/clob/data/trades'.replace('/clob', ''));
    expect(theirs.items.map((t) => t.id)).toEqual(tradeIds);
    expect(new Set(theirs.items.map((t) => t.type))).toEqual(new Set(['MAKER']));
    expect(theirs.items[0].maker_orders[0].order_id).toBe(maker.orderHash);
    const viaClob = (await bob.l2('GET', `/data/trades?id=${tradeIds[7]}`, undefined, { mount: '/clob' })).body;
    expect(viaClob.data.map((t: any) => t.id)).toEqual([tradeIds[7]]);

    const q = async (query: string): Promise<number> => (await alice.l2('GET', `/data/trades?${query}`)).body.count;
    const nowSec = Math.floor(NOW_MS / 1000);
    expect(await q(`taker=${alice.address}&market=${m1.conditionId}`)).toBe(100);
    expect(await q(`taker=${bob.address}`)).toBe(0);
    expect(await q(`maker=${bob.address}&market=${m1.conditionId}`)).toBe(100);
    expect(await q(`before=${nowSec}`)).toBe(0);
    expect(await q(`before=${nowSec + 1}&market=${m1.conditionId}`)).toBe(100);
    expect(await q(`after=${nowSec}`)).toBe(0);
    expect(await q(`after=${nowSec - 1}&market=${m1.conditionId}`)).toBe(100);
    expect(await q(`market=${m2.conditionId}`)).toBe(0);
    expect((await alice.l2('GET', '/data/trades?before=yesterday')).status).toBe(400);
  });
});

describe('the cancel family', () => {
  beforeEach(async () => {
    await alice.l2('DELETE', '/cancel-all');
    await bob.l2('DELETE', '/cancel-all');
  });

  it('cancels one, several, by market or token, and all; reports what it could not cancel', async () => {
    const [a1, a2, a3] = await restMany(alice, m1, 3, 'c1');
    const [b1, b2] = await restMany(alice, m2, 2, 'c2');
    const no = alice.sign({ market: m2, outcome: 1, side: 'BUY', price: units(m2.tickSize), size: units(m2.minOrderSize) });
    expect((await alice.l2('POST', '/orders', [alice.item(no)])).body[0].orderID).toBe(no.orderHash);
    const [bobOrder] = await restMany(bob, m1, 1, 'bob');

    const one = await alice.l2('DELETE', '/order', { orderID: a1 });
    expect(decodeCancelResult(one.body)).toEqual({ canceled: [a1], notCanceled: {} });
    const again = await alice.l2('DELETE', '/order', { orderID: a1 });
    expect(again.body).toEqual({ canceled: [], not_canceled: { [a1 as string]: 'order not found or already canceled' } });
    const several = await alice.l2('DELETE', '/orders', [a2, bobOrder, 'nope']);
    expect(several.body).toEqual({
      canceled: [a2],
      not_canceled: { [bobOrder as string]: 'order not found or already canceled', nope: 'order not found or already canceled' },
    });
    const byToken = await alice.l2('DELETE', '/cancel-market-orders', { asset_id: m2.tokens[1].tokenId });
    expect(byToken.body).toEqual({ canceled: [no.orderHash], not_canceled: {} });
    const byMarket = await alice.l2('DELETE', '/cancel-market-orders', { market: m2.conditionId });
    expect(byMarket.body.canceled.sort()).toEqual([b1, b2].sort());
    const all = await alice.l2('DELETE', '/cancel-all');
    expect(all.body).toEqual({ canceled: [a3], not_canceled: {} });
    expect((await alice.l2('GET', '/data/orders')).body.count).toBe(0);
    expect((await bob.l2('GET', '/data/orders')).body.data.map((o: any) => o.id)).toEqual([bobOrder]);
    expect((await alice.l2('DELETE', '/orders', [])).status).toBe(400);
    expect((await alice.l2('DELETE', '/orders', Array.from({ length: 1001 }, (_, i) => `x${i}`))).status).toBe(400);
    expect((await alice.l2('DELETE', '/order', {})).status).toBe(400);
  });

  it('says "Order already matched" for a filled order', async () => {
    const { bid } = top(sb, m1);
    const inside = bid + m1.tickSize;
    const size = units(m1.minOrderSize);
    const maker = bob.sign({ market: m1, outcome: 1, side: 'BUY', price: units(1_000_000 - inside), size });
    await bob.l2('POST', '/orders', [bob.item(maker)]);
    await alice.post({ market: m1, side: 'BUY', price: units(inside), size, orderType: 'FOK' });
    const answer = await bob.l2('DELETE', '/order', { orderID: maker.orderHash });
    expect(answer.body).toEqual({ canceled: [], not_canceled: { [maker.orderHash]: 'Order already matched' } });
  });
});
