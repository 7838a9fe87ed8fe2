import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, ConfigError, VenueRejectError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import { createApiKey } from '../../../src/venue/actions/create-api-key.ts';
import { deriveApiKey } from '../../../src/venue/actions/derive-api-key.ts';
import { getAccountOrders } from '../../../src/venue/actions/get-account-orders.ts';
import { getOrCreateApiKey } from '../../../src/venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../../src/venue/actions/get-order-book.ts';
import { postOrders } from '../../../src/venue/actions/post-orders.ts';
import { cancelOrder } from '../../../src/venue/actions/cancel-order.ts';
import { apiCredentials } from '../../../src/venue/auth/api-credentials.ts';
import { withL2Auth } from '../../../src/venue/auth/with-l2-auth.ts';
import type { VenueProfile } from '../../../src/venue/client.ts';
import { verifyL2Signature } from '../../../src/venue/signing/l2-auth.ts';
import { recoverClobAuthSigner } from '../../../src/venue/signing/recover.ts';
import { sendJson, startLoopback, type Loopback, type SeenRequest } from '../loopback-server.ts';
import {
  ADDRESS,
  API_KEY,
  API_PASSPHRASE,
  API_SECRET,
  authHeader,
  authHeaderNames,
  CREDS,
  KEY,
  OTHER_KEY,
  orderParams,
  signer,
  T0,
  TOKEN,
  venue,
} from './helpers.ts';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const EMPTY_PAGE = { data: [], next_cursor: '', limit: 100, count: 0 };
const BOOK = { market: '0x' + 'ab'.repeat(32), asset_id: TOKEN, timestamp: String(T0), hash: 'h', bids: [], asks: [] };

/** Answers what each route expects, so every request reaches the server and is recorded. */
async function accountVenue(): Promise<Loopback> {
  return startLoopback((req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/orders' && req.method === 'POST') return sendJson(res, 200, (JSON.parse(req.body) as unknown[]).map(() => ({ success: false, orderID: '', errorMsg: 'x' })));
    if (path === '/order' && req.method === 'DELETE') return sendJson(res, 200, { canceled: [], not_canceled: {} });
    if (path === '/data/orders') return sendJson(res, 200, EMPTY_PAGE);
    if (path === '/book') return sendJson(res, 200, BOOK);
    sendJson(res, 404, { error: 'not found' });
  });
}

function expectL2(req: SeenRequest, profile: VenueProfile, method: string, path: string): void {
  const prefix = profile === 'polymarket' ? 'POLY' : 'SERVICE';
  expect(authHeaderNames(req.headers)).toEqual(['ADDRESS', 'API_KEY', 'PASSPHRASE', 'SIGNATURE', 'TIMESTAMP'].map((n) => `${prefix}_${n}`));
  expect(authHeader(req.headers, profile, 'ADDRESS')).toBe(ADDRESS);
  expect(authHeader(req.headers, profile, 'API_KEY')).toBe(API_KEY);
  expect(authHeader(req.headers, profile, 'PASSPHRASE')).toBe(API_PASSPHRASE);
  expect(authHeader(req.headers, profile, 'TIMESTAMP')).toBe(String(Math.floor(T0 / 1000)));
  const signature = authHeader(req.headers, profile, 'SIGNATURE') as string;
  if (profile === 'interface') expect(signature).toMatch(/^[0-9a-f]{64}$/);
  else expect(signature).toMatch(/^[A-Za-z0-9_-]{43}=$/);
  const params = { secret: API_SECRET, timestamp: String(Math.floor(T0 / 1000)), method, path, body: req.body === '' ? undefined : req.body, signature, profile };
  expect(req.method).toBe(method);
  expect(verifyL2Signature(params)).toBe(true);
  // the MAC covers the exact bytes: one byte more in the body, or the query in the path, fails it
  expect(verifyL2Signature({ ...params, body: (req.body ?? '') + ' ' })).toBe(false);
  expect(verifyL2Signature({ ...params, path: req.url })).toBe(req.url === path);
}

describe.each<VenueProfile>(['interface', 'polymarket'])('L2 headers, profile %s', (profile) => {
  it('signs a batch post over the exact body bytes sent', async () => {
    server = await accountVenue();
    const client = withL2Auth(venue(server.url, profile), { address: ADDRESS, credentials: CREDS });
    const s = signer(profile);
    await postOrders(client, { owner: API_KEY, orders: [s.sign(orderParams(1)), s.sign(orderParams(2))] });
    const req = server.requests[0] as SeenRequest;
    expectL2(req, profile, 'POST', '/orders');
    expect(JSON.parse(req.body)).toHaveLength(2);
  });

  it('signs a DELETE with a body and a GET without one, the path taken without its query', async () => {
    server = await accountVenue();
    const client = withL2Auth(venue(server.url, profile), { address: ADDRESS, credentials: CREDS });
    await cancelOrder(client, '0x' + '12'.repeat(32));
    await getAccountOrders(client, { market: '0x' + 'ab'.repeat(32) });
    const [del, get] = server.requests as [SeenRequest, SeenRequest];
    expect(del.body).toBe(JSON.stringify({ orderID: '0x' + '12'.repeat(32) }));
    expectL2(del, profile, 'DELETE', '/order');
    expect(get.url).toContain('?');
    expect(get.body).toBe('');
    expectL2(get, profile, 'GET', '/data/orders');
  });

  it('public routes carry no auth headers', async () => {
    server = await accountVenue();
    const client = withL2Auth(venue(server.url, profile), { address: ADDRESS, credentials: CREDS });
    await getOrderBook(client, TOKEN);
    expect(authHeaderNames((server.requests[0] as SeenRequest).headers)).toEqual([]);
  });
});

describe('L1 key routes', () => {
  const L1_ANSWER = { apiKey: API_KEY, secret: API_SECRET, passphrase: API_PASSPHRASE };

  it('derive sends the four L1 headers: a ClobAuth signature of the address at the clock time and nonce', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, L1_ANSWER));
    const creds = await deriveApiKey(venue(server.url), { privateKey: new Secret(KEY), nonce: 7 });
    const req = server.requests[0] as SeenRequest;
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/auth/derive-api-key');
    expect(authHeaderNames(req.headers)).toEqual(['SERVICE_ADDRESS', 'SERVICE_NONCE', 'SERVICE_SIGNATURE', 'SERVICE_TIMESTAMP']);
    const fields = {
      address: authHeader(req.headers, 'interface', 'ADDRESS') as string,
      timestamp: authHeader(req.headers, 'interface', 'TIMESTAMP') as string,
      nonce: authHeader(req.headers, 'interface', 'NONCE') as string,
      signature: authHeader(req.headers, 'interface', 'SIGNATURE') as string,
    };
    expect(fields).toMatchObject({ address: ADDRESS, timestamp: String(T0 / 1000), nonce: '7' });
    expect(fields.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(recoverClobAuthSigner(fields)).toBe(ADDRESS);
    expect(recoverClobAuthSigner({ ...fields, nonce: '0' })).not.toBe(ADDRESS);
    expect(creds.apiKey).toBe(API_KEY);
    expect(creds.secret.reveal()).toBe(API_SECRET);
    expect(creds.passphrase.reveal()).toBe(API_PASSPHRASE);
  });

  it('create posts with POLY_ headers in the polymarket profile, nonce 0 by default', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, L1_ANSWER));
    await createApiKey(venue(server.url, 'polymarket'), { privateKey: new Secret(KEY) });
    const req = server.requests[0] as SeenRequest;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/auth/api-key');
    expect(authHeaderNames(req.headers)).toEqual(['POLY_ADDRESS', 'POLY_NONCE', 'POLY_SIGNATURE', 'POLY_TIMESTAMP']);
    expect(authHeader(req.headers, 'polymarket', 'NONCE')).toBe('0');
  });

  it('getOrCreateApiKey derives, and creates when the venue has none for the nonce', async () => {
    server = await startLoopback((req, res) => {
      if (req.method === 'GET') return sendJson(res, 400, { error: 'Could not derive api key!' });
      sendJson(res, 200, L1_ANSWER);
    });
    const creds = await getOrCreateApiKey(venue(server.url), { privateKey: new Secret(KEY) });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /auth/derive-api-key', 'POST /auth/api-key']);
    expect(creds.apiKey).toBe(API_KEY);
  });

  it('getOrCreateApiKey does not create after a 401', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 401, { error: 'Unauthorized' }));
    await expect(getOrCreateApiKey(venue(server.url), { privateKey: new Secret(KEY) })).rejects.toBeInstanceOf(AuthError);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an address that is not the key\'s before sending', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, L1_ANSWER));
    await expect(deriveApiKey(venue(server.url), { privateKey: new Secret(OTHER_KEY), address: ADDRESS })).rejects.toBeInstanceOf(ConfigError);
    expect(server.requests).toHaveLength(0);
  });

  it('a malformed answer is a DecodeError that does not show the credentials', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, { apiKey: API_KEY, secret: API_SECRET, passphrase: 42 }));
    const err = await deriveApiKey(venue(server.url), { privateKey: new Secret(KEY) }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('DecodeError');
    expect((err as Error).message).toContain('api-key.passphrase');
    expect((err as Error).message).not.toContain(API_SECRET);
  });
});

describe('credentials', () => {
  it('never print their secret or passphrase', () => {
    const creds = apiCredentials(API_KEY, API_SECRET, API_PASSPHRASE);
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- the test: a Secret in a template prints ***
    for (const text of [JSON.stringify(creds), inspect(creds, { depth: 5 }), `${creds.secret} ${creds.passphrase}`, String(creds.secret)]) {
      expect(text).not.toContain(API_SECRET);
      expect(text).not.toContain(API_PASSPHRASE);
    }
  });

  it('refuse a secret that is not base64 without showing it', () => {
    const err = (() => {
      try {
        apiCredentials(API_KEY, 'not base64!*', API_PASSPHRASE);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).not.toContain('not base64!*');
  });

  it('a 400 on a derive is a VenueRejectError', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 400, { error: 'bad nonce' }));
    await expect(deriveApiKey(venue(server.url), { privateKey: new Secret(KEY) })).rejects.toBeInstanceOf(VenueRejectError);
  });
});
