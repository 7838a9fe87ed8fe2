import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { ConfigError, OutcomeUnknownError, TransportError } from '../../src/core/errors.ts';
import type { PreparedOrder, VenueFill } from '../../src/execution/execution-client.ts';
import { LiveExecutionClient, type OrderMarketRules } from '../../src/execution/live-execution-client.ts';
import type { OrderRequest } from '../../src/core/intents.ts';
import { decodeClientOrderId } from '../../src/venue/signing/client-order-id.ts';
import { DEFAULT_EXCHANGE_ADDRESSES } from '../../src/venue/signing/eip712.ts';
import { createOrderSigner, type OrderSigner, type SignedOrder } from '../../src/venue/signing/order-signer.ts';
import { recoverOrderSigner } from '../../src/venue/signing/recover.ts';
import { sequentialSaltSource } from '../../src/venue/signing/salt.ts';
import { Secret } from '../../src/core/secret.ts';
import type { WireOrderSubmission } from '../../src/venue/wire/account.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { sendJson, startLoopback, type Loopback, type SeenRequest } from '../venue/loopback-server.ts';
import { ADDRESS, API_KEY, CONDITION, CREDS, KEY, signer, T0, TOKEN, venue } from '../venue/trading/helpers.ts';

const NEG_CONDITION = '0x' + 'cd'.repeat(32);
const NEG_TOKEN = '12345678901234567890';
const OTHER_KEY = '00000000-0000-0000-0000-000000000000';

const RULES: Record<string, OrderMarketRules> = {
  [TOKEN]: { conditionId: CONDITION, tickSize: 10_000, negRisk: false },
  [NEG_TOKEN]: { conditionId: NEG_CONDITION, tickSize: 1_000, negRisk: true },
};

let server: Loopback | undefined;
let live: LiveExecutionClient | undefined;
afterEach(async () => {
  live?.close();
  live = undefined;
  await server?.close();
  server = undefined;
});

function request(i: number, over: Partial<OrderRequest> = {}): OrderRequest {
  return {
    kind: 'place',
    strategyId: 's1',
    clientOrderId: `run1-${i}`,
    tokenId: TOKEN,
    conditionId: CONDITION,
    side: 'BUY',
    price: 520_000,
    size: 10_000_000,
    createdAt: T0,
    ...over,
  };
}

function makeLive(url: string, clock = new SimulatedClock(T0), timeoutMs = 10_000): LiveExecutionClient {
  live = new LiveExecutionClient({
    venue: venue(url, 'interface', { clock, retries: 0, timeoutMs }),
    credentials: CREDS,
    signer: signer(),
    markets: (tokenId) => RULES[tokenId],
    salts: sequentialSaltSource(100),
  });
  return live;
}

/** The order's hash recomputed from its wire JSON (what a venue does). */
function wireHash(item: WireSubmissionLike, negRisk = false): string {
  return recoverOrderSigner(item.order, negRisk ? DEFAULT_EXCHANGE_ADDRESSES.negRisk : DEFAULT_EXCHANGE_ADDRESSES.standard).orderHash;
}
type WireSubmissionLike = WireOrderSubmission;

/**
 * Waits until `cond` holds, re-checking every 2 ms. No count of its own: what it waits for is a
 * loopback round trip, which a loaded machine can hold up for seconds; the test's time limit
 * bounds a hang.
 */
async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 2));
}

describe('prepare', () => {
  it('signs with the injected salt and clock: the id is the order hash, the client order id rides in metadata', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 500, {}));
    const client = makeLive(server.url);
    const prepared = await firstValueFrom(
      client.prepare([request(1), request(2, { tokenId: NEG_TOKEN, conditionId: NEG_CONDITION, side: 'SELL', price: 481_000, orderType: 'GTD', expiresAt: T0 + 3_600_500 })]),
    );
    const reference = signer();
    const expected = [
      reference.sign({ tokenId: TOKEN, conditionId: CONDITION, price: 520_000, size: 10_000_000, side: 'BUY', tick: 10_000, negRisk: false, orderType: 'GTC', clientOrderId: 'run1-1', salt: 100, timestamp: T0 }),
      reference.sign({
        tokenId: NEG_TOKEN,
        conditionId: NEG_CONDITION,
        price: 481_000,
        size: 10_000_000,
        side: 'SELL',
        tick: 1_000,
        negRisk: true,
        orderType: 'GTD',
        expiration: Math.floor((T0 + 3_600_500) / 1000),
        clientOrderId: 'run1-2',
        salt: 101,
        timestamp: T0,
      }),
    ];
    expect(prepared.map((p) => p.orderId)).toEqual(expected.map((s) => s.orderHash));
    const payloads = prepared.map((p) => (p.payload as { kind: 'signed'; signed: SignedOrder }).signed);
    expect(payloads.map((s) => decodeClientOrderId(s.order.metadata))).toEqual(['run1-1', 'run1-2']);
    // the neg-risk order hashes under the neg-risk exchange, as a venue recomputes it
    expect(recoverOrderSigner(payloads[1]!.order, DEFAULT_EXCHANGE_ADDRESSES.negRisk)).toEqual({ orderHash: expected[1]!.orderHash, recovered: ADDRESS });
    expect(server.requests).toHaveLength(0);
  });

  it('an order that cannot be built gets an unbuilt id and a reason; the others are signed', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 500, {}));
    const client = makeLive(server.url);
    const prepared = await firstValueFrom(client.prepare([request(1, { price: 523_000 - 500 }), request(2), request(3, { tokenId: '999' })]));
    expect(prepared[0]!.orderId).toBe('unbuilt:run1-1');
    expect((prepared[0]!.payload as { reason: string }).reason).toContain('tick');
    expect(prepared[1]!.orderId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(prepared[2]!.orderId).toBe('unbuilt:run1-3');
    expect((prepared[2]!.payload as { reason: string }).reason).toContain('no market rules');
  });

  it('is cold: nothing is signed until subscribed', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 500, {}));
    const client = makeLive(server.url);
    const obs = client.prepare([request(1)]);
    const first = await firstValueFrom(obs);
    const second = await firstValueFrom(obs);
    // each subscription signs anew with the next salt
    expect(first[0]!.orderId).not.toBe(second[0]!.orderId);
  });
});

describe('prepare with a signing helper thread', () => {
  it('signs a batch across threads with the same hashes and signatures; a bad order is unbuilt alone', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 500, {}));
    const helped = createOrderSigner({ privateKey: new Secret(KEY), signerAddress: ADDRESS, signatureType: 0 }, { profile: 'interface', signingHelpers: 1 });
    try {
      const make = (s: OrderSigner): LiveExecutionClient =>
        new LiveExecutionClient({
          venue: venue(server!.url, 'interface', { clock: new SimulatedClock(T0) }),
          credentials: CREDS,
          signer: s,
          markets: (tokenId) => RULES[tokenId],
          salts: sequentialSaltSource(100),
        });
      const requests = Array.from({ length: 15 }, (_, i) => request(i, { price: 500_000 + i * 10_000 }));
      const parallel = make(helped);
      const inThread = make(signer());
      // the helper starts in the background (its thread can take seconds to load on a loaded
      // machine): keep signing until it has taken a share, as long as the test's time limit allows
      let a: readonly PreparedOrder[] = [];
      while (helped.signingCounters.byHelpers === 0) {
        a = await firstValueFrom(make(helped).prepare(requests));
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(helped.signingCounters.byHelpers).toBeGreaterThan(0);
      const b = await firstValueFrom(inThread.prepare(requests));
      const wire = (p: PreparedOrder): unknown => (p.payload as { signed: SignedOrder }).signed;
      expect(a.map((p) => p.orderId)).toEqual(b.map((p) => p.orderId));
      expect(a.map(wire)).toEqual(b.map(wire));
      expect(a.every((p) => /^0x[0-9a-f]{64}$/.test(p.orderId))).toBe(true);
      // an off-tick order is refused by the builder; only that order ends up unbuilt
      const withBad = requests.map((r, i) => (i === 3 ? { ...r, price: 500_500 } : r));
      const c = await firstValueFrom(parallel.prepare(withBad));
      expect(c.map((p) => p.orderId.startsWith('unbuilt:'))).toEqual(requests.map((_, i) => i === 3));
      expect((c[3]!.payload as { reason: string }).reason).toMatch(/tick/);
      parallel.close();
      inThread.close();
    } finally {
      helped.close();
    }
  });
});

describe('submit', () => {
  it('posts the signed orders only and maps each result, in order, to a SubmitResult', async () => {
    server = await startLoopback((req, res) => {
      const items = JSON.parse(req.body) as WireSubmissionLike[];
      sendJson(
        res,
        200,
        items.map((item) =>
          item.order.side === 'SELL'
            ? { success: false, orderID: '', errorMsg: 'not enough balance / allowance' }
            : { success: true, orderID: wireHash(item), status: 'matched', makingAmount: '5.2', takingAmount: '10', errorMsg: '' },
        ),
      );
    });
    const client = makeLive(server.url);
    const prepared = await firstValueFrom(client.prepare([request(1), request(2, { price: 1 }), request(3, { side: 'SELL' }), request(4)]));
    const results = await lastValueFrom(client.submit(prepared));
    const req = server.requests[0] as SeenRequest;
    expect(req.url).toBe('/orders');
    const sent = JSON.parse(req.body) as WireSubmissionLike[];
    expect(sent).toHaveLength(3);
    expect(sent.map((s) => s.owner)).toEqual([API_KEY, API_KEY, API_KEY]);
    expect(results).toEqual([
      { ok: true, orderId: prepared[0]!.orderId, status: 'MATCHED', making: 5_200_000, taking: 10_000_000 },
      { ok: false, orderId: 'unbuilt:run1-2', errorMsg: expect.stringContaining('price') },
      { ok: false, orderId: prepared[2]!.orderId, errorMsg: 'not enough balance / allowance' },
      { ok: true, orderId: prepared[3]!.orderId, status: 'MATCHED', making: 5_200_000, taking: 10_000_000 },
    ]);
  });

  it('close() withdraws a post still waiting for rate budget: it fails as never sent, and nothing leaves after', async () => {
    server = await startLoopback((req, res) => {
      const items = JSON.parse(req.body) as WireSubmissionLike[];
      sendJson(res, 200, items.map((item) => ({ success: true, orderID: wireHash(item), status: 'live', makingAmount: '0', takingAmount: '0', errorMsg: '' })));
    });
    // one order per ten minutes of a clock that never moves: the second post waits for ever
    const limits = { routeOverrides: { postOrders: [{ name: 'test-one-order', limit: 1, windowMs: 600_000 }] } };
    live = new LiveExecutionClient({
      venue: createVenueClient({ baseUrl: server.url, profile: 'interface', clock: new SimulatedClock(T0), retries: 0, limits }),
      credentials: CREDS,
      signer: signer(),
      markets: (tokenId) => RULES[tokenId],
      salts: sequentialSaltSource(100),
    });
    const client = live;
    const first = await firstValueFrom(client.prepare([request(1)]));
    expect(await lastValueFrom(client.submit(first))).toMatchObject([{ ok: true }]);
    const second = await firstValueFrom(client.prepare([request(2)]));
    const waiting = lastValueFrom(client.submit(second));
    client.close();
    const err = await waiting.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).requestSent).toBe(false);
    expect((err as Error).message).toMatch(/aborted while waiting for rate budget/);
    expect(server.requests).toHaveLength(1);
  });

  it('a batch of unbuilt orders sends nothing', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 500, {}));
    const client = makeLive(server.url);
    const prepared = await firstValueFrom(client.prepare([request(1, { tokenId: '1' })]));
    expect(await lastValueFrom(client.submit(prepared))).toEqual([{ ok: false, orderId: 'unbuilt:run1-1', errorMsg: expect.any(String) }]);
    expect(server.requests).toHaveLength(0);
  });

  it('a stalled post errors with OutcomeUnknownError carrying the hashes of what was sent', async () => {
    server = await startLoopback(() => undefined);
    const client = makeLive(server.url, new SimulatedClock(T0), 300);
    const prepared = await firstValueFrom(client.prepare([request(1), request(2, { tokenId: '1' }), request(3)]));
    const err = await lastValueFrom(client.submit(prepared)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).orderHashes).toEqual([prepared[0]!.orderId, prepared[2]!.orderId]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('cancels, open orders, lookups, heartbeats', () => {
  const wireOrder = (i: number, status = 'LIVE'): Record<string, unknown> => ({
    id: `0x${String(i).padStart(64, '0')}`,
    status,
    market: CONDITION,
    originalSize: '10',
    outcome: 'Yes',
    makerAddress: ADDRESS,
    owner: API_KEY,
    price: '0.52',
    side: 'BUY',
    sizeMatched: '0',
    assetId: TOKEN,
    type: 'GTC',
    createdAt: '1767225600',
    associateTrades: [],
    ...(i % 2 === 0 ? { metadata: '0x' + Buffer.from(`run1-${i}`).toString('hex').padEnd(64, '0') } : {}),
  });

  it('cancel uses DELETE /order for one id and DELETE /orders for several; unbuilt ids are never sent', async () => {
    server = await startLoopback((req, res) => {
      const body = JSON.parse(req.body) as unknown;
      const ids = Array.isArray(body) ? (body as string[]) : [(body as { orderID: string }).orderID];
      sendJson(res, 200, { canceled: ids.slice(0, 1), not_canceled: Object.fromEntries(ids.slice(1).map((id) => [id, 'Order already matched'])) });
    });
    const client = makeLive(server.url);
    expect(await lastValueFrom(client.cancel(['0xa']))).toEqual({ canceled: ['0xa'], notCanceled: {} });
    expect(await lastValueFrom(client.cancel(['0xb', '0xc', 'unbuilt:x']))).toEqual({
      canceled: ['0xb'],
      notCanceled: { 'unbuilt:x': 'never sent', '0xc': 'Order already matched' },
    });
    expect(await lastValueFrom(client.cancel([]))).toEqual({ canceled: [], notCanceled: {} });
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', '/order', '{"orderID":"0xa"}'],
      ['DELETE', '/orders', '["0xb","0xc"]'],
    ]);
  });

  it('cancelAll cancels everything, or one market / token', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { canceled: ['0x1'], not_canceled: {} }));
    const client = makeLive(server.url);
    await lastValueFrom(client.cancelAll());
    await lastValueFrom(client.cancelAll({ conditionId: CONDITION }));
    await lastValueFrom(client.cancelAll({ tokenId: TOKEN }));
    expect(server.requests.map((r) => [r.url, r.body])).toEqual([
      ['/cancel-all', ''],
      ['/cancel-market-orders', JSON.stringify({ market: CONDITION })],
      ['/cancel-market-orders', JSON.stringify({ asset_id: TOKEN })],
    ]);
  });

  it('openOrders walks every page; the client order id comes from metadata', async () => {
    server = await startLoopback((req, res) => {
      const cursor = new URL(req.url, 'http://x').searchParams.get('next_cursor');
      if (cursor === 'MA==') return sendJson(res, 200, { data: [wireOrder(1), wireOrder(2)], next_cursor: 'Mg==', limit: 2, count: 2 });
      sendJson(res, 200, { data: [wireOrder(4)], next_cursor: '', limit: 2, count: 1 });
    });
    const orders = await lastValueFrom(makeLive(server.url).openOrders());
    expect(orders.map((o) => o.clientOrderId)).toEqual([undefined, 'run1-2', 'run1-4']);
    expect(orders[0]).toEqual({
      orderId: wireOrder(1)['id'],
      status: 'LIVE',
      tokenId: TOKEN,
      conditionId: CONDITION,
      side: 'BUY',
      price: 520_000,
      originalSize: 10_000_000,
      sizeMatched: 0,
      clientOrderId: undefined,
    });
    expect(server.requests).toHaveLength(2);
  });

  it('order(id) looks one order up; unknown is undefined, an unbuilt id asks nothing', async () => {
    server = await startLoopback((req, res) => {
      if (req.url === `/data/order/${String(wireOrder(2)['id'])}`) return sendJson(res, 200, wireOrder(2, 'MATCHED'));
      sendJson(res, 404, { error: 'not found' });
    });
    const client = makeLive(server.url);
    expect(await lastValueFrom(client.order(String(wireOrder(2)['id'])))).toMatchObject({ status: 'MATCHED', clientOrderId: 'run1-2' });
    expect(await lastValueFrom(client.order('0xdead'))).toBeUndefined();
    expect(await lastValueFrom(client.order('unbuilt:run1-9'))).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('heartbeat chains through POST /v1/heartbeats with L2 headers', async () => {
    server = await startLoopback((req, res) => sendJson(res, 200, { heartbeat_id: `after-${(JSON.parse(req.body) as { heartbeat_id: string }).heartbeat_id}` }));
    const client = makeLive(server.url);
    expect(await lastValueFrom(client.heartbeat('abc'))).toBe('after-abc');
    expect((server.requests[0] as SeenRequest).headers['service_api_key']).toBe(API_KEY);
  });
});

describe('fills$', () => {
  const ORDER_T = '0x' + 'a1'.repeat(32); // our taker order
  const ORDER_M = '0x' + 'b2'.repeat(32); // our maker order
  const ORDER_X = '0x' + 'c3'.repeat(32); // someone else's
  const SEC = Math.floor(T0 / 1000);

  function maker(orderId: string, owner: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { order_id: orderId, maker_address: ADDRESS, owner, matched_amount: '3', fee_rate_bps: '0', price: '0.48', asset_id: TOKEN, outcome: 'Yes', side: 'SELL', ...extra };
  }

  function trade(id: string, status: string, over: Record<string, unknown>): Record<string, unknown> {
    return {
      id,
      taker_order_id: ORDER_X,
      market: CONDITION,
      asset_id: TOKEN,
      side: 'BUY',
      size: '5',
      fee_rate_bps: '0',
      price: '0.48',
      status,
      match_time: String(SEC + 5),
      last_update: String(SEC + 5),
      outcome: 'Yes',
      bucket_index: 0,
      owner: API_KEY,
      maker_address: ADDRESS,
      transaction_hash: '0x',
      type: 'TAKER',
      maker_orders: [],
      ...over,
    };
  }

  // we took liquidity: the trade's side, price, size; the taker fee at 100 bps
  const A = (status: string) => trade('A', status, { taker_order_id: ORDER_T, fee_rate_bps: '100', maker_orders: [maker(ORDER_X, OTHER_KEY)] });
  // Polymarket style: the account was the maker; our entry has a side of its own
  const B = trade('B', 'MATCHED', { type: 'MAKER', match_time: String(SEC + 20), maker_orders: [maker(ORDER_X, OTHER_KEY), maker(ORDER_M, API_KEY, { matched_amount: '2', side: 'SELL', fee_rate_bps: '50' })] });
  // sandbox style: the taker is someone else (owner), our maker entry names no side (opposite of the taker's)
  const C = trade('C', 'MATCHED', { id: 'C', owner: OTHER_KEY, side: 'SELL', price: '0.5', maker_orders: [maker(ORDER_M, API_KEY, { side: undefined, matched_amount: '1.5', price: '0.5' })] });

  it('polls on the clock, emits our fills from our side once, again on a status change, and stops on close', async () => {
    const script = [[A('MATCHED'), B], [A('MATCHED'), B, C], [A('CONFIRMED'), B, C]];
    server = await startLoopback((req, res) => {
      const data = script[Math.min(server!.requests.length - 1, script.length - 1)] ?? [];
      sendJson(res, 200, { data, next_cursor: 'LTE=', limit: 100, count: data.length });
    });
    const clock = new SimulatedClock(T0);
    const client = makeLive(server.url, clock);
    const fills: VenueFill[] = [];
    let completed = false;
    client.fills$.subscribe({ next: (f) => fills.push(f), complete: () => (completed = true) });

    clock.advanceBy(0); // first poll at once
    await waitFor(() => fills.length === 2);
    expect(fills[0]).toEqual({
      tradeId: 'A',
      orderId: ORDER_T,
      tokenId: TOKEN,
      side: 'BUY',
      price: 480_000,
      size: 5_000_000,
      fee: 24_000, // 100 bps × min(0.48, 0.52) × 5
      liquidity: 'TAKER',
      status: 'MATCHED',
      tsEvent: (SEC + 5) * 1000,
      tsInit: T0,
    });
    expect(fills[1]).toMatchObject({ tradeId: 'B', orderId: ORDER_M, side: 'SELL', price: 480_000, size: 2_000_000, fee: 4_800, liquidity: 'MAKER' });
    const q1 = new URL((server.requests[0] as SeenRequest).url, 'http://x').searchParams;
    expect(q1.get('after')).toBe(String(SEC - 10));
    expect(q1.get('next_cursor')).toBe('MA==');

    clock.advanceBy(1000);
    await waitFor(() => server!.requests.length === 2 && fills.length === 3);
    expect(fills[2]).toMatchObject({ tradeId: 'C', orderId: ORDER_M, side: 'BUY', price: 500_000, size: 1_500_000, liquidity: 'MAKER' });
    // the window follows the newest match seen (B at +20 s) minus the margin, but never past the
    // oldest trade still settling (A, MATCHED at +5 s): its next status must still be seen
    expect(new URL((server.requests[1] as SeenRequest).url, 'http://x').searchParams.get('after')).toBe(String(SEC - 5));

    clock.advanceBy(1000);
    await waitFor(() => server!.requests.length === 3 && fills.length === 4);
    expect(fills[3]).toMatchObject({ tradeId: 'A', orderId: ORDER_T, status: 'CONFIRMED', liquidity: 'TAKER' });

    client.close();
    expect(completed).toBe(true);
    clock.advanceBy(5000);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.requests).toHaveLength(3);
    expect(client.counters.fillPolls).toEqual({ polls: 3, incomplete: 0, skipped: 0, errors: 0, emitted: 4 });
  });

  it('a poll with a page missing is not the whole: its window stays, the missed trades come next poll, each look told on fillsSnapshot$', async () => {
    // newest first, as a venue may list them: page 1 the newest trade, page 2 an older one
    const newest = trade('N', 'CONFIRMED', { taker_order_id: ORDER_T, match_time: String(SEC + 50), maker_orders: [maker(ORDER_X, OTHER_KEY)] });
    const older = trade('O', 'CONFIRMED', { taker_order_id: ORDER_T, match_time: String(SEC + 5), maker_orders: [maker(ORDER_X, OTHER_KEY)] });
    let failSecondPage = true;
    server = await startLoopback((req, res) => {
      const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('next_cursor');
      if (cursor === 'MA==') return sendJson(res, 200, { data: [newest], next_cursor: 'MQ==' });
      if (failSecondPage) return sendJson(res, 500, { error: 'page lost' });
      sendJson(res, 200, { data: [older], next_cursor: 'LTE=' });
    });
    const clock = new SimulatedClock(T0);
    const client = makeLive(server.url, clock);
    const fills: VenueFill[] = [];
    const snapshots: { complete: boolean }[] = [];
    client.fills$.subscribe((f) => fills.push(f));
    client.fillsSnapshot$.subscribe((s) => snapshots.push(s));
    clock.advanceBy(0);
    await waitFor(() => snapshots.length === 1);
    // the page that arrived is booked; the look is refused as the whole
    expect(fills.map((f) => f.tradeId)).toEqual(['N']);
    expect(snapshots[0]).toMatchObject({ complete: false, reason: expect.stringMatching(/^a page failed: /) });
    expect(client.counters.fillPolls).toMatchObject({ polls: 1, incomplete: 1, errors: 1 });

    failSecondPage = false;
    clock.advanceBy(1000);
    await waitFor(() => snapshots.length === 2);
    // the window did not move past the trade of the missing page (it would ask after N - 10 s)
    const afters = server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('after'));
    expect(afters).toEqual([String(SEC - 10), String(SEC - 10), String(SEC - 10), String(SEC - 10)]);
    expect(fills.map((f) => f.tradeId)).toEqual(['N', 'O']);
    expect(snapshots[1]).toMatchObject({ complete: true });
    // once complete, the window follows the newest trade
    clock.advanceBy(1000);
    await waitFor(() => snapshots.length === 3);
    expect(new URL(server.requests[4]!.url, 'http://x').searchParams.get('after')).toBe(String(SEC + 40));
    client.close();
  });

  it('a self-cross gives both our taker and our maker fill; a failed poll is counted and polling goes on', async () => {
    const selfCross = trade('S', 'MATCHED', { taker_order_id: ORDER_T, maker_orders: [maker(ORDER_M, API_KEY)] });
    server = await startLoopback((_req, res) => {
      if (server!.requests.length === 1) return sendJson(res, 500, { error: 'boom' });
      sendJson(res, 200, { data: [selfCross], next_cursor: 'LTE=' });
    });
    const clock = new SimulatedClock(T0);
    const client = makeLive(server.url, clock);
    const fills: VenueFill[] = [];
    client.fills$.subscribe((f) => fills.push(f));
    clock.advanceBy(0);
    await waitFor(() => client.counters.fillPolls.errors === 1);
    clock.advanceBy(1000);
    await waitFor(() => fills.length === 2);
    expect(fills.map((f) => [f.orderId, f.liquidity, f.side])).toEqual([
      [ORDER_T, 'TAKER', 'BUY'],
      [ORDER_M, 'MAKER', 'SELL'],
    ]);
  });

  it('skips a poll rather than queue when the /data/trades budget is short', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { data: [], next_cursor: 'LTE=' }));
    const clock = new SimulatedClock(T0);
    const client = makeLive(server.url, clock);
    // use the route's budget up (150 per 10 s) with permits held by someone else
    const permits = [];
    for (let i = 0; i < 140; i++) permits.push(client.venue.budget.tryAcquire('getAccountTrades'));
    client.fills$.subscribe();
    clock.advanceBy(0);
    expect(client.counters.fillPolls.skipped).toBe(1);
    for (const p of permits) p?.release();
    clock.advanceBy(11_000);
    await waitFor(() => server!.requests.length === 1);
    expect(client.counters.fillPolls).toMatchObject({ polls: 1, errors: 0 });
  });
});

describe('construction', () => {
  it('refuses a signer of another wire profile than the venue client', () => {
    expect(
      () =>
        new LiveExecutionClient({
          venue: venue('http://127.0.0.1:9', 'polymarket'),
          credentials: CREDS,
          signer: signer('interface'),
          markets: () => undefined,
        }),
    ).toThrow(ConfigError);
  });
});

describe('counters', () => {
  it('count HTTP attempts and 429s of the venue client', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 429, { error: 'slow down' }));
    const client = makeLive(server.url);
    await lastValueFrom(client.heartbeat('')).catch(() => undefined);
    expect(client.http429()).toBe(1);
    expect(client.counters.http429).toBe(1);
    expect(client.counters.httpAttempts).toBe(1);
  });
});
