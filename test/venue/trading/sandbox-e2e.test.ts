import { asyncScheduler, firstValueFrom, lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, OutcomeUnknownError, VenueRejectError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import type { VenueFill } from '../../../src/execution/execution-client.ts';
import { LiveExecutionClient } from '../../../src/execution/live-execution-client.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import type { OrderRequest } from '../../../src/core/intents.ts';
import { cancelMarketOrders } from '../../../src/venue/actions/cancel-market-orders.ts';
import { cancelOrder } from '../../../src/venue/actions/cancel-order.ts';
import { cancelOrders } from '../../../src/venue/actions/cancel-orders.ts';
import { getAccountOrder } from '../../../src/venue/actions/get-account-order.ts';
import { getAccountOrders } from '../../../src/venue/actions/get-account-orders.ts';
import { getAccountTrades } from '../../../src/venue/actions/get-account-trades.ts';
import { getOrCreateApiKey } from '../../../src/venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../../src/venue/actions/get-order-book.ts';
import { iterateAccountOrders } from '../../../src/venue/actions/iterate-account-orders.ts';
import { iterateAccountTrades } from '../../../src/venue/actions/iterate-account-trades.ts';
import { deriveApiKey } from '../../../src/venue/actions/derive-api-key.ts';
import { postHeartbeatV1 } from '../../../src/venue/actions/post-heartbeat-v1.ts';
import { postOrders } from '../../../src/venue/actions/post-orders.ts';
import { apiCredentials, type ApiCredentials } from '../../../src/venue/auth/api-credentials.ts';
import { l2BeforeSend, withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient, type VenueClient, type VenueProfile } from '../../../src/venue/client.ts';
import { decodeClientOrderId } from '../../../src/venue/signing/client-order-id.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import type { SignedOrder } from '../../../src/venue/signing/order-signer.ts';
import { ADDRESS, addressOf, KEY, OTHER_KEY, signer } from './helpers.ts';

/**
 * The authenticated trading path end to end against the sandbox over loopback: real keys, real
 * signatures, the sandbox's matching engine. Account A (KEY) trades; account B (OTHER_KEY) is the
 * counterparty that fills A's resting bid.
 */

const OTHER_ADDRESS = addressOf(OTHER_KEY);
const TICK = 10_000;

interface Setup {
  sandbox: RunningSandbox;
  venue: VenueClient;
  credsA: ApiCredentials;
  credsB: ApiCredentials;
  a: VenueClient;
  b: VenueClient;
  market: SandboxMarket;
  bestBid: number;
  bestAsk: number;
}

async function setUp(profile: VenueProfile): Promise<Setup> {
  // no synthetic flow: the books move only with these tests' orders
  const sandbox = await startSandbox({ seed: 7, markets: 30, profile, flow: { enabled: false } });
  const venue = createVenueClient({ baseUrl: sandbox.url, profile, retries: 0 });
  // a market on the 0.01 tick with room inside the spread
  let found: { market: SandboxMarket; bestBid: number; bestAsk: number } | undefined;
  for (const market of sandbox.world.markets) {
    if (!market.acceptingOrders || market.closed || !market.enableOrderBook || market.tickSize !== TICK || market.minOrderSize > 5_000_000) continue;
    const book = await getOrderBook(venue, market.tokens[0].tokenId);
    const bid = book.bids[0]?.price;
    const ask = book.asks[0]?.price;
    if (bid !== undefined && ask !== undefined && ask - bid >= 3 * TICK && bid >= 10 * TICK) {
      found = { market, bestBid: bid, bestAsk: ask };
      break;
    }
  }
  if (!found) throw new Error('no suitable market in the sandbox world');
  const credsA = await getOrCreateApiKey(venue, { privateKey: new Secret(KEY) });
  const credsB = await getOrCreateApiKey(venue, { privateKey: new Secret(OTHER_KEY) });
  return {
    sandbox,
    venue,
    credsA,
    credsB,
    a: withL2Auth(venue, { address: ADDRESS, credentials: credsA }),
    b: withL2Auth(venue, { address: OTHER_ADDRESS, credentials: credsB }),
    ...found,
  };
}

function params(s: Setup, i: number, over: Partial<OrderParams>): OrderParams {
  return {
    tokenId: s.market.tokens[0].tokenId,
    conditionId: s.market.conditionId,
    price: s.bestBid,
    size: 5_000_000,
    side: 'BUY',
    tick: TICK,
    negRisk: s.market.negRisk,
    orderType: 'GTC',
    salt: 10_000 + i,
    timestamp: Date.now(),
    clientOrderId: `e2e-${i}`,
    ...over,
  };
}

/** Waits until `cond` holds, re-checking every 10 ms; no count of its own (a loaded machine slows the loopback polls it waits on): the test's time limit bounds a miss. */
async function waitFor(cond: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 10));
}

describe('against the sandbox, profile interface', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp('interface');
  });
  afterAll(async () => {
    await s?.sandbox.close();
  });

  it('derives the same credentials for the same address and nonce, other ones for another nonce', async () => {
    const again = await deriveApiKey(s.venue, { privateKey: new Secret(KEY) });
    expect(again.apiKey).toBe(s.credsA.apiKey);
    expect(again.secret.reveal()).toBe(s.credsA.secret.reveal());
    const other = await deriveApiKey(s.venue, { privateKey: new Secret(KEY), nonce: 1 });
    expect(other.apiKey).not.toBe(s.credsA.apiKey);
    expect(s.credsB.apiKey).not.toBe(s.credsA.apiKey);
  });

  let restingBid: SignedOrder;
  let secondBid: SignedOrder;
  let lowerBids: SignedOrder[];
  let takerOrder: SignedOrder;

  it('a batch of 15 with valid and invalid items: one result per item, in order', async () => {
    const A = signer();
    const B = signer('interface', OTHER_KEY);
    const p = s.bestBid + TICK; // top of the book, below the ask
    restingBid = A.sign(params(s, 0, { price: p, size: 10_000_000, postOnly: true }));
    const belowMin = A.sign(params(s, 1, { size: 1_000_000 }));
    secondBid = A.sign(params(s, 2, { price: s.bestBid - TICK, postOnly: true }));
    const signedBad = A.sign(params(s, 3, {}));
    const badSignature: SignedOrder = { ...signedBad, order: { ...signedBad.order, signature: signedBad.order.signature.slice(0, -4) + (signedBad.order.signature.endsWith('1b') ? '001c' : '001b') } };
    const crossingPostOnly = A.sign(params(s, 4, { price: s.bestAsk, postOnly: true }));
    const sellWithoutTokens = A.sign(params(s, 5, { side: 'SELL', price: s.bestAsk + TICK }));
    const offTick = A.sign(params(s, 7, { price: s.bestBid - TICK + 1_000, tick: 1_000 }));
    const signedByB = B.sign(params(s, 8, {}));
    const fakNoMatch = A.sign(params(s, 9, { orderType: 'FAK', price: s.bestBid }));
    takerOrder = A.sign(params(s, 10, { price: s.bestAsk }));
    lowerBids = [11, 12, 13, 14].map((i) => A.sign(params(s, i, { price: s.bestBid - (i - 9) * TICK, postOnly: true })));
    const batch = [restingBid, belowMin, secondBid, badSignature, crossingPostOnly, sellWithoutTokens, secondBid, offTick, signedByB, fakNoMatch, takerOrder, ...lowerBids];
    expect(batch).toHaveLength(15);

    const results = await postOrders(s.a, { owner: s.credsA.apiKey, orders: batch });
    expect(results).toHaveLength(15);
    const summary = results.map((r) => (r.kind === 'accepted' ? `${r.status} ${r.orderId}` : r.errorMsg));
    expect(summary).toEqual([
      `LIVE ${restingBid.orderHash}`,
      'order is invalid. Size lower than the minimum',
      `LIVE ${secondBid.orderHash}`,
      'invalid signature',
      'invalid post-only order: order crosses book',
      'not enough balance / allowance',
      'order is invalid. Duplicated.',
      'order is invalid. Price breaks minimum tick size rules',
      'the order signer address has to be the address of the API KEY',
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
      `MATCHED ${takerOrder.orderHash}`,
      ...lowerBids.map((o) => `LIVE ${o.orderHash}`),
    ]);
    // the taker paid 5 × ask and got 5 tokens
    expect(results[10]).toMatchObject({ makingAmount: (5 * s.bestAsk), takingAmount: 5_000_000 });
  });

  it('open orders walk with their metadata; one order looks up by id', async () => {
    const open = [];
    for await (const o of iterateAccountOrders(s.a)) open.push(o);
    expect(open.map((o) => o.id).sort()).toEqual([restingBid, secondBid, ...lowerBids].map((o) => o.orderHash).sort());
    expect(open.every((o) => o.status === 'LIVE')).toBe(true);
    const top = open.find((o) => o.id === restingBid.orderHash);
    expect(top && decodeClientOrderId(top.metadata ?? '')).toBe('e2e-0');
    const one = await getAccountOrder(s.a, takerOrder.orderHash);
    expect(one).toMatchObject({ id: takerOrder.orderHash, status: 'MATCHED', sizeMatched: 5_000_000 });
    expect(await getAccountOrder(s.a, '0x' + '00'.repeat(32))).toBeUndefined();
    // B sees none of A's orders
    expect((await getAccountOrders(s.b)).items).toEqual([]);
  });

  it('a counterparty fills our resting bid: both fills appear in /data/trades, and fills$ maps them from our side', async () => {
    // B buys NO at 1 - p: a YES ask at p, which takes our bid at p (a mint)
    const B = signer('interface', OTHER_KEY);
    const p = s.bestBid + TICK;
    const take = B.sign({ ...params(s, 100, { side: 'BUY', price: 1_000_000 - p, size: 10_000_000 }), tokenId: s.market.tokens[1].tokenId, clientOrderId: 'b-1' });
    const [result] = await postOrders(s.b, { owner: s.credsB.apiKey, orders: [take] });
    expect(result).toMatchObject({ kind: 'accepted', status: 'MATCHED' });

    const trades = [];
    for await (const t of iterateAccountTrades(s.a)) trades.push(t);
    expect(trades).toHaveLength(2);
    const asTaker = trades.find((t) => t.takerOrderId === takerOrder.orderHash);
    const asMaker = trades.find((t) => t.makerOrders.some((m) => m.orderId === restingBid.orderHash));
    expect(asTaker).toMatchObject({ traderSide: 'TAKER', side: 'BUY', size: 5_000_000, price: s.bestAsk, status: 'MATCHED' });
    expect(asMaker).toMatchObject({ traderSide: 'MAKER', takerOrderId: take.orderHash });

    const live = new LiveExecutionClient({
      venue: s.venue,
      credentials: s.credsA,
      signer: signer(),
      markets: () => ({ conditionId: s.market.conditionId, tickSize: TICK, negRisk: s.market.negRisk }),
      fills: { pollIntervalMs: 50, sinceMs: Date.now() - 60_000 },
    });
    const fills: VenueFill[] = [];
    const sub = live.fills$.subscribe((f) => fills.push(f));
    await waitFor(() => fills.length >= 2);
    sub.unsubscribe();
    live.close();
    const byLiquidity = Object.fromEntries(fills.map((f) => [f.liquidity, f]));
    expect(byLiquidity['TAKER']).toMatchObject({ orderId: takerOrder.orderHash, tokenId: s.market.tokens[0].tokenId, side: 'BUY', price: s.bestAsk, size: 5_000_000 });
    expect(byLiquidity['MAKER']).toMatchObject({ orderId: restingBid.orderHash, tokenId: s.market.tokens[0].tokenId, side: 'BUY', price: p, size: 10_000_000 });
    expect(fills).toHaveLength(2);
  });

  it('cancels: one, several, a market; a filled order is not cancelled', async () => {
    const one = await cancelOrder(s.a, lowerBids[0]!.orderHash);
    expect(one.canceled).toEqual([lowerBids[0]!.orderHash]);
    const several = await cancelOrders(s.a, [lowerBids[1]!.orderHash, restingBid.orderHash]);
    expect(several.canceled).toEqual([lowerBids[1]!.orderHash]);
    expect(Object.keys(several.notCanceled)).toEqual([restingBid.orderHash]);
    const market = await cancelMarketOrders(s.a, { market: s.market.conditionId });
    expect([...market.canceled].sort()).toEqual([secondBid.orderHash, lowerBids[2]!.orderHash, lowerBids[3]!.orderHash].sort());
    expect((await getAccountOrders(s.a)).items).toEqual([]);
  });

  it('more than a page of trades walks with cursors to LTE=', async () => {
    const A = signer();
    let tradeIds: string[] = [];
    for (let batch = 0; batch < 7; batch++) {
      const takers = Array.from({ length: 15 }, (_, i) => A.sign(params(s, 1_000 + batch * 15 + i, { price: s.bestAsk + 2 * TICK, orderType: 'FAK' })));
      const results = await postOrders(s.a, { owner: s.credsA.apiKey, orders: takers });
      for (const r of results) {
        expect(r.kind).toBe('accepted');
        if (r.kind === 'accepted') tradeIds = tradeIds.concat(r.tradeIds);
      }
    }
    const total = tradeIds.length + 2; // and the two trades of the tests above
    expect(total).toBeGreaterThan(100);
    const first = await getAccountTrades(s.a);
    expect(first).toMatchObject({ done: false, nextCursor: Buffer.from('100').toString('base64') });
    expect(first.items).toHaveLength(100);
    const second = await getAccountTrades(s.a, {}, first.nextCursor);
    expect(second).toMatchObject({ done: true, nextCursor: 'LTE=' });
    const walked = [];
    for await (const t of iterateAccountTrades(s.a)) walked.push(t.id);
    expect(walked).toHaveLength(total);
    expect(new Set(walked).size).toBe(total);
    for (const id of tradeIds) expect(walked).toContain(id);
  });

  describe('every L2 auth failure is a 401', () => {
    const cases: [string, () => VenueClient][] = [
      [
        'bad HMAC',
        () => {
          const hook = l2BeforeSend(s.venue, { address: ADDRESS, credentials: s.credsA });
          return s.venue.withBeforeSend(async (...args) => {
            const h = { ...(await hook(...args)) };
            const sig = h['SERVICE_SIGNATURE'] as string;
            h['SERVICE_SIGNATURE'] = (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1);
            return h;
          });
        },
      ],
      [
        'stale timestamp',
        () =>
          withL2Auth(createVenueClient({ baseUrl: s.sandbox.url, retries: 0, clock: { now: () => Date.now() - 120_000, scheduler: asyncScheduler } }), {
            address: ADDRESS,
            credentials: s.credsA,
          }),
      ],
      ['wrong passphrase', () => withL2Auth(s.venue, { address: ADDRESS, credentials: apiCredentials(s.credsA.apiKey, s.credsA.secret.reveal(), 'ab'.repeat(32)) })],
      [
        'missing header',
        () => {
          const hook = l2BeforeSend(s.venue, { address: ADDRESS, credentials: s.credsA });
          return s.venue.withBeforeSend(async (...args) => {
            const h = { ...(await hook(...args)) };
            delete h['SERVICE_PASSPHRASE'];
            return h;
          });
        },
      ],
      ['wrong key for the address', () => withL2Auth(s.venue, { address: OTHER_ADDRESS, credentials: s.credsA })],
      ['unknown API key', () => withL2Auth(s.venue, { address: ADDRESS, credentials: apiCredentials('00000000-0000-4000-8000-000000000000', s.credsA.secret.reveal(), s.credsA.passphrase.reveal()) })],
    ];
    it.each(cases)('%s', async (_name, make) => {
      const err = await getAccountOrders(make()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect((err as AuthError).message).toContain('401');
      // and an order post is refused the same way, taking nothing
      const signed = signer().sign(params(s, 500, { price: s.bestBid - 5 * TICK }));
      await expect(postOrders(make(), { owner: s.credsA.apiKey, orders: [signed] })).rejects.toBeInstanceOf(AuthError);
      expect(await getAccountOrder(s.a, signed.orderHash)).toBeUndefined();
    });
  });

  it('the live execution edge end to end: prepare, submit, open orders by client id, cancel all', async () => {
    const live = new LiveExecutionClient({
      venue: s.venue,
      credentials: s.credsA,
      signer: signer(),
      markets: (tokenId) => (tokenId === s.market.tokens[0].tokenId ? { conditionId: s.market.conditionId, tickSize: TICK, negRisk: s.market.negRisk } : undefined),
    });
    try {
      const request = (i: number, price: number): OrderRequest => ({
        kind: 'place',
        strategyId: 's',
        clientOrderId: `live-${i}`,
        tokenId: s.market.tokens[0].tokenId,
        conditionId: s.market.conditionId,
        side: 'BUY',
        price,
        size: 5_000_000,
        postOnly: true,
        createdAt: Date.now(),
      });
      const prepared = await firstValueFrom(live.prepare([request(1, s.bestBid - 2 * TICK), request(2, s.bestBid - 3 * TICK), request(3, s.bestBid - 2 * TICK + 1)]));
      const results = await lastValueFrom(live.submit(prepared));
      expect(results.map((r) => r.ok)).toEqual([true, true, false]);
      expect(results[0]).toMatchObject({ orderId: prepared[0]!.orderId, status: 'LIVE', making: 0, taking: 0 });
      const open = await lastValueFrom(live.openOrders());
      expect(open.map((o) => o.clientOrderId).sort()).toEqual(['live-1', 'live-2']);
      expect(await lastValueFrom(live.order(prepared[1]!.orderId))).toMatchObject({ clientOrderId: 'live-2', status: 'LIVE', price: s.bestBid - 3 * TICK });
      const cancelled = await lastValueFrom(live.cancelAll());
      expect([...cancelled.canceled].sort()).toEqual([prepared[0]!.orderId, prepared[1]!.orderId].sort());
      expect(await lastValueFrom(live.openOrders())).toEqual([]);
      expect(await lastValueFrom(live.heartbeat(''))).toMatch(/\S/);
    } finally {
      live.close();
    }
  });

  it('a post dropped after the venue took it is outcome-unknown; the hashes find the orders', async () => {
    const A = signer();
    const orders = [0, 1].map((i) => A.sign(params(s, 2_000 + i, { price: s.bestBid - (i + 2) * TICK, postOnly: true })));
    s.sandbox.faults.set({ dropAfterAccept: 1 });
    let err: unknown;
    try {
      err = await postOrders(s.a, { owner: s.credsA.apiKey, orders }).catch((e: unknown) => e);
    } finally {
      s.sandbox.faults.set({ dropAfterAccept: 0 });
    }
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).orderHashes).toEqual(orders.map((o) => o.orderHash));
    for (const hash of (err as OutcomeUnknownError).orderHashes) {
      expect(await getAccountOrder(s.a, hash)).toMatchObject({ id: hash, status: 'LIVE' });
    }
    expect((await cancelOrders(s.a, orders.map((o) => o.orderHash))).canceled).toHaveLength(2);
  });

  // last: a started chain arms the sandbox's dead-man switch on A's orders
  it('heartbeats chain; a stale id gets a 400 carrying the expected id, which works', async () => {
    const first = await postHeartbeatV1(s.a, '');
    const second = await postHeartbeatV1(s.a, first);
    expect(second).not.toBe(first);
    const err = await postHeartbeatV1(s.a, first).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRejectError);
    expect((err as VenueRejectError).status).toBe(400);
    const expected = ((err as VenueRejectError).body as { heartbeat_id: string }).heartbeat_id;
    expect(typeof expected).toBe('string');
    const next = await postHeartbeatV1(s.a, expected);
    expect(typeof next).toBe('string');
  });
});

describe('against the sandbox, profile polymarket', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp('polymarket');
  });
  afterAll(async () => {
    await s?.sandbox.close();
  });

  it('POLY_ headers and base64url signatures are accepted; orders post, list to LTE=, cancel', async () => {
    const A = signer('polymarket');
    const orders = [0, 1].map((i) => A.sign(params(s, i, { price: s.bestBid - (i + 1) * TICK, postOnly: true, conditionId: undefined })));
    const results = await postOrders(s.a, { owner: s.credsA.apiKey, orders });
    expect(results.map((r) => r.kind)).toEqual(['accepted', 'accepted']);
    const page = await getAccountOrders(s.a);
    expect(page.nextCursor).toBe('LTE=');
    expect(page.done).toBe(true);
    expect(page.items.map((o) => decodeClientOrderId(o.metadata ?? '')).sort()).toEqual(['e2e-0', 'e2e-1']);
    const cancelled = await cancelOrders(s.a, orders.map((o) => o.orderHash));
    expect([...cancelled.canceled].sort()).toEqual(orders.map((o) => o.orderHash).sort());
    const hb = await postHeartbeatV1(s.a, '');
    expect(hb).toMatch(/\S/);
  });

  it('a bad signature in this profile is a 401 too', async () => {
    const hook = l2BeforeSend(s.venue, { address: ADDRESS, credentials: s.credsA });
    const client = s.venue.withBeforeSend(async (...args) => {
      const h = { ...(await hook(...args)) };
      h['POLY_SIGNATURE'] = (h['POLY_SIGNATURE'] as string).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
      return h;
    });
    await expect(getAccountOrders(client)).rejects.toBeInstanceOf(AuthError);
  });
});
