import { afterEach, describe, expect, it } from 'vitest';
import { isOutcomeUnknown, OutcomeUnknownError, ParameterError, RateLimitError, VenueRejectError } from '../../../src/core/errors.ts';
import { cancelAll } from '../../../src/venue/actions/cancel-all.ts';
import { cancelMarketOrders } from '../../../src/venue/actions/cancel-market-orders.ts';
import { cancelOrder } from '../../../src/venue/actions/cancel-order.ts';
import { cancelOrders } from '../../../src/venue/actions/cancel-orders.ts';
import { postOrder } from '../../../src/venue/actions/post-order.ts';
import { postOrders } from '../../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import type { VenueClient } from '../../../src/venue/client.ts';
import type { SignedOrder } from '../../../src/venue/signing/order-signer.ts';
import { sendJson, startLoopback, type Loopback, type SeenRequest } from '../loopback-server.ts';
import { ADDRESS, API_KEY, CONDITION, CREDS, orderParams, signer, TOKEN, venue } from './helpers.ts';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function authed(url: string, timeoutMs?: number): VenueClient {
  return withL2Auth(venue(url, 'interface', { timeoutMs, retries: 3 }), { address: ADDRESS, credentials: CREDS });
}

function orders(n: number): SignedOrder[] {
  const s = signer();
  return Array.from({ length: n }, (_, i) => s.sign(orderParams(i)));
}

describe('POST /orders', () => {
  it('refuses 0 and 16 orders with a ParameterError before sending', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, []));
    const client = authed(server.url);
    for (const n of [0, 16]) {
      const err = await postOrders(client, { owner: API_KEY, orders: orders(n) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ParameterError);
      expect((err as ParameterError).message).toContain(`was ${n}`);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('sends the items in order with owner and orderType, and decodes one typed result per item', async () => {
    const signed = orders(15);
    server = await startLoopback((req, res) => {
      const items = JSON.parse(req.body) as { order: { metadata: string } }[];
      sendJson(
        res,
        200,
        items.map((_, i) =>
          i % 3 === 0
            ? { success: true, orderID: (signed[i] as SignedOrder).orderHash, status: i === 3 ? 'matched' : 'live', makingAmount: i === 3 ? '5.2' : '', takingAmount: i === 3 ? '10' : '', errorMsg: '' }
            : i % 3 === 1
              ? { success: false, orderID: '', errorMsg: `order is invalid. Size lower than the minimum (${i})` }
              : { success: true, orderID: '', errorMsg: 'not enough balance / allowance' },
        ),
      );
    });
    const results = await postOrders(authed(server.url), { owner: API_KEY, orders: signed });
    const req = server.requests[0] as SeenRequest;
    const sent = JSON.parse(req.body) as { order: { signature: string; conditionId: string }; orderType: string; owner: string }[];
    expect(sent).toHaveLength(15);
    sent.forEach((item, i) => {
      expect(item.owner).toBe(API_KEY);
      expect(item.orderType).toBe('GTC');
      expect(item.order.signature).toBe((signed[i] as SignedOrder).order.signature);
      expect(item.order.conditionId).toBe(CONDITION);
    });
    expect(results).toHaveLength(15);
    results.forEach((r, i) => {
      if (i % 3 === 0) {
        expect(r).toMatchObject({ kind: 'accepted', orderId: (signed[i] as SignedOrder).orderHash, status: i === 3 ? 'MATCHED' : 'LIVE' });
      } else if (i % 3 === 1) {
        expect(r).toEqual({ kind: 'failed', errorMsg: `order is invalid. Size lower than the minimum (${i})`, orderId: undefined, status: undefined });
      } else {
        expect(r).toMatchObject({ kind: 'failed', errorMsg: 'not enough balance / allowance' });
      }
    });
    expect(results[3]).toMatchObject({ makingAmount: 5_200_000, takingAmount: 10_000_000 });
    expect(results[0]).toMatchObject({ makingAmount: 0, takingAmount: 0 });
  });

  it('a stalled post is outcome-unknown with the hashes of the orders sent, and is not retried', async () => {
    server = await startLoopback(() => {
      /* never answers */
    });
    const signed = orders(3);
    const err = await postOrders(authed(server.url, 300), { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).orderHashes).toEqual(signed.map((s) => s.orderHash));
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a dropped connection after sending is outcome-unknown, not retried', async () => {
    server = await startLoopback((_req, res) => {
      res.socket?.destroy();
    });
    const signed = orders(2);
    const err = await postOrders(authed(server.url), { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).orderHashes).toEqual(signed.map((s) => s.orderHash));
    expect(server.requests).toHaveLength(1);
  });

  it('a 500 is outcome-unknown; a 503 (paused) and a 400 are definite refusals; a 429 is a RateLimitError', async () => {
    let status = 500;
    server = await startLoopback((_req, res) => sendJson(res, status, { error: `status ${status}` }, status === 429 ? { 'retry-after': '0' } : {}));
    const signed = orders(1);
    const client = authed(server.url);
    const e500 = await postOrders(client, { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(e500).toBeInstanceOf(OutcomeUnknownError);
    status = 503;
    const e503 = await postOrders(client, { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(e503).toBeInstanceOf(VenueRejectError);
    expect(isOutcomeUnknown(e503)).toBe(false);
    status = 400;
    const e400 = await postOrders(client, { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(e400).toBeInstanceOf(VenueRejectError);
    expect((e400 as VenueRejectError).status).toBe(400);
    status = 429;
    const e429 = await postOrders(client, { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(e429).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(4);
    expect(client.transport.counters.http429).toBe(1);
  });

  it('a 200 whose body cannot be read, or with the wrong number of results, is outcome-unknown', async () => {
    let body = '<html>oops</html>';
    server = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(body);
    });
    const signed = orders(2);
    const garbled = await postOrders(authed(server.url), { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(garbled).toBeInstanceOf(OutcomeUnknownError);
    body = JSON.stringify([{ success: true, orderID: (signed[0] as SignedOrder).orderHash }]);
    const short = await postOrders(authed(server.url), { owner: API_KEY, orders: signed }).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(OutcomeUnknownError);
    expect((short as OutcomeUnknownError).orderHashes).toHaveLength(2);
  });
});

describe('POST /order', () => {
  it('posts one submission and decodes its result; a timeout is outcome-unknown with the hash', async () => {
    let answer = true;
    server = await startLoopback((_req, res) => {
      if (!answer) return;
      sendJson(res, 200, { success: true, orderID: '0xabc', status: 'live', makingAmount: '', takingAmount: '', errorMsg: '' });
    });
    const signed = signer().sign(orderParams(1, { postOnly: true }));
    await expect(postOrder(authed(server.url), { owner: API_KEY, order: signed })).resolves.toMatchObject({ kind: 'accepted', orderId: '0xabc', status: 'LIVE' });
    const first = server.requests[0] as SeenRequest;
    expect(first.url).toBe('/order');
    expect(JSON.parse(first.body)).toEqual({ order: signed.order, orderType: 'GTC', owner: API_KEY, postOnly: true });
    answer = false;
    const err = await postOrder(authed(server.url, 300), { owner: API_KEY, order: signed }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).orderHashes).toEqual([signed.orderHash]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('cancels', () => {
  const ANSWER = { canceled: ['0x01'], not_canceled: { '0x02': 'Order already matched' } };

  it('send the documented bodies and decode canceled / not_canceled', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, ANSWER));
    const client = authed(server.url);
    const expected = { canceled: ['0x01'], notCanceled: { '0x02': 'Order already matched' } };
    expect(await cancelOrder(client, '0x01')).toEqual(expected);
    expect(await cancelOrders(client, ['0x01', '0x02'])).toEqual(expected);
    expect(await cancelAll(client)).toEqual(expected);
    expect(await cancelMarketOrders(client, { market: CONDITION })).toEqual(expected);
    expect(await cancelMarketOrders(client, { assetId: TOKEN })).toEqual(expected);
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['DELETE', '/order', '{"orderID":"0x01"}'],
      ['DELETE', '/orders', '["0x01","0x02"]'],
      ['DELETE', '/cancel-all', ''],
      ['DELETE', '/cancel-market-orders', JSON.stringify({ market: CONDITION })],
      ['DELETE', '/cancel-market-orders', JSON.stringify({ asset_id: TOKEN })],
    ]);
  });

  it('refuse an empty or oversized id list, and a market cancel with no scope, before sending', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, ANSWER));
    const client = authed(server.url);
    await expect(cancelOrders(client, [])).rejects.toBeInstanceOf(ParameterError);
    await expect(cancelOrders(client, Array.from({ length: 1001 }, (_, i) => `0x${i}`))).rejects.toBeInstanceOf(ParameterError);
    await expect(cancelOrders(client, ['0x01', ''])).rejects.toBeInstanceOf(ParameterError);
    await expect(cancelOrder(client, '')).rejects.toBeInstanceOf(ParameterError);
    await expect(cancelMarketOrders(client, {})).rejects.toBeInstanceOf(ParameterError);
    expect(server.requests).toHaveLength(0);
  });

  it('accept 1000 ids in one request', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { canceled: [], not_canceled: null }));
    const result = await cancelOrders(authed(server.url), Array.from({ length: 1000 }, (_, i) => `0x${i}`));
    expect(result).toEqual({ canceled: [], notCanceled: {} });
    expect(JSON.parse((server.requests[0] as SeenRequest).body)).toHaveLength(1000);
  });
});
