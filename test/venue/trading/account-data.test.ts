import { afterEach, describe, expect, it } from 'vitest';
import { DecodeError, ParameterError, VenueRejectError } from '../../../src/core/errors.ts';
import { getAccountOrder } from '../../../src/venue/actions/get-account-order.ts';
import { getAccountTrades } from '../../../src/venue/actions/get-account-trades.ts';
import { iterateAccountOrders } from '../../../src/venue/actions/iterate-account-orders.ts';
import { iterateAccountTrades } from '../../../src/venue/actions/iterate-account-trades.ts';
import { postHeartbeat } from '../../../src/venue/actions/post-heartbeat.ts';
import { postHeartbeatV1 } from '../../../src/venue/actions/post-heartbeat-v1.ts';
import { withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import type { VenueClient, VenueProfile } from '../../../src/venue/client.ts';
import { sendJson, startLoopback, type Loopback, type SeenRequest } from '../loopback-server.ts';
import { ADDRESS, CONDITION, CREDS, TOKEN, venue } from './helpers.ts';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function authed(url: string, profile: VenueProfile = 'interface'): VenueClient {
  return withL2Auth(venue(url, profile, { retries: 2 }), { address: ADDRESS, credentials: CREDS });
}

function wireOrder(i: number): Record<string, unknown> {
  return {
    id: `0x${String(i).padStart(64, '0')}`,
    status: 'ORDER_STATUS_LIVE',
    market: CONDITION,
    originalSize: '10',
    outcome: 'Yes',
    makerAddress: ADDRESS,
    owner: CREDS.apiKey,
    price: '0.52',
    side: 'BUY',
    sizeMatched: '2.5',
    assetId: TOKEN,
    type: 'GTC',
    createdAt: '1767225600',
    associateTrades: null,
    metadata: '0x' + Buffer.from(`t-${i}`).toString('hex').padEnd(64, '0'),
  };
}

function wireTrade(i: number): Record<string, unknown> {
  return {
    id: `trade-${i}`,
    taker_order_id: '0x01',
    market: CONDITION,
    asset_id: TOKEN,
    side: 'BUY',
    size: '5',
    fee_rate_bps: '0',
    price: '0.52',
    status: 'TRADE_STATUS_MATCHED',
    match_time: String(1_767_225_600 + i),
    last_update: String(1_767_225_600 + i),
    outcome: 'Yes',
    bucket_index: 0,
    owner: CREDS.apiKey,
    maker_address: ADDRESS,
    transaction_hash: '0x',
    type: 'TAKER',
    maker_orders: [],
  };
}

/** Pages of `per` items from `items`; cursors are base64 offsets; `end` marks the last page. */
function pager(items: Record<string, unknown>[], per: number, end: string) {
  return (url: string): unknown => {
    const q = new URL(url, 'http://x').searchParams;
    const offset = Number(Buffer.from(q.get('next_cursor') ?? 'MA==', 'base64').toString());
    const data = items.slice(offset, offset + per);
    const next = offset + per >= items.length ? end : Buffer.from(String(offset + per)).toString('base64');
    return { data, next_cursor: next, limit: per, count: data.length };
  };
}

describe('cursor walks', () => {
  it.each<[VenueProfile, string]>([
    ['interface', ''],
    ['polymarket', 'LTE='],
  ])('/data/orders in profile %s ends on the cursor %j', async (profile, end) => {
    const all = Array.from({ length: 7 }, (_, i) => wireOrder(i));
    const page = pager(all, 3, end);
    server = await startLoopback((req, res) => sendJson(res, 200, page(req.url)));
    const seen = [];
    for await (const o of iterateAccountOrders(authed(server.url, profile), { market: CONDITION })) seen.push(o);
    expect(seen.map((o) => o.id)).toEqual(all.map((o) => o['id']));
    expect(server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('next_cursor'))).toEqual(['MA==', 'Mw==', 'Ng==']);
    expect(new URL((server.requests[0] as SeenRequest).url, 'http://x').searchParams.get('market')).toBe(CONDITION);
    expect(seen[0]).toMatchObject({ status: 'LIVE', price: 520_000, originalSize: 10_000_000, sizeMatched: 2_500_000, metadata: all[0]?.['metadata'] });
  });

  it('/data/trades ends on LTE= and passes its filters', async () => {
    const all = Array.from({ length: 5 }, (_, i) => wireTrade(i));
    const page = pager(all, 2, 'LTE=');
    server = await startLoopback((req, res) => sendJson(res, 200, page(req.url)));
    const seen = [];
    for await (const t of iterateAccountTrades(authed(server.url), { market: CONDITION, after: 1_767_225_000, maker: ADDRESS })) seen.push(t);
    expect(seen.map((t) => t.id)).toEqual(all.map((t) => t['id']));
    expect(server.requests).toHaveLength(3);
    const q = new URL((server.requests[0] as SeenRequest).url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({ market: CONDITION, after: '1767225000', maker: ADDRESS, next_cursor: 'MA==' });
    expect(seen[1]).toMatchObject({ status: 'MATCHED', size: 5_000_000, matchTime: 1_767_225_601_000, traderSide: 'TAKER' });
  });

  it('a cursor the venue already returned is a DecodeError, not an endless walk', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { data: [wireTrade(1)], next_cursor: 'Mw==' }));
    const walk = async (): Promise<void> => {
      for await (const _ of iterateAccountTrades(authed(server!.url))) void _;
    };
    await expect(walk()).rejects.toBeInstanceOf(DecodeError);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a negative before/after before sending', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { data: [], next_cursor: 'LTE=' }));
    await expect(getAccountTrades(authed(server.url), { before: -1 })).rejects.toBeInstanceOf(ParameterError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('GET /data/order/{id}', () => {
  it('decodes one order, and is undefined on a 404 or an empty answer', async () => {
    server = await startLoopback((req, res) => {
      if (req.url.endsWith('/0x01')) return sendJson(res, 200, wireOrder(1));
      if (req.url.endsWith('/0x02')) return sendJson(res, 200, null);
      sendJson(res, 404, { error: 'order not found' });
    });
    const client = authed(server.url);
    expect(await getAccountOrder(client, '0x01')).toMatchObject({ id: wireOrder(1)['id'], assetId: TOKEN, side: 'BUY' });
    expect(await getAccountOrder(client, '0x02')).toBeUndefined();
    expect(await getAccountOrder(client, '0x03')).toBeUndefined();
    expect(server.requests.map((r) => r.url)).toEqual(['/data/order/0x01', '/data/order/0x02', '/data/order/0x03']);
  });
});

describe('heartbeats', () => {
  it('chains ids; a 400 Invalid Heartbeat ID is a VenueRejectError carrying the expected id', async () => {
    const ids = ['hb-1', 'hb-2'];
    server = await startLoopback((req, res) => {
      if (req.url === '/heartbeats') return sendJson(res, 200, { status: 'ok' });
      const prev = (JSON.parse(req.body) as { heartbeat_id: string }).heartbeat_id;
      if (prev === '') return sendJson(res, 200, { heartbeat_id: ids[0] });
      if (prev === ids[0]) return sendJson(res, 200, { heartbeat_id: ids[1] });
      sendJson(res, 400, { error: 'Invalid Heartbeat ID', heartbeat_id: ids[1] });
    });
    const client = authed(server.url);
    const first = await postHeartbeatV1(client, '');
    expect(first).toBe('hb-1');
    expect(await postHeartbeatV1(client, first)).toBe('hb-2');
    const err = await postHeartbeatV1(client, 'stale').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VenueRejectError);
    expect((err as VenueRejectError).status).toBe(400);
    expect((err as VenueRejectError).venueMessage).toBe('Invalid Heartbeat ID');
    expect((err as VenueRejectError).body).toEqual({ error: 'Invalid Heartbeat ID', heartbeat_id: 'hb-2' });
    expect(await postHeartbeat(client)).toBe('ok');
    expect(server.requests.map((r) => [r.url, r.body])).toEqual([
      ['/v1/heartbeats', '{"heartbeat_id":""}'],
      ['/v1/heartbeats', '{"heartbeat_id":"hb-1"}'],
      ['/v1/heartbeats', '{"heartbeat_id":"stale"}'],
      ['/heartbeats', ''],
    ]);
  });
});
