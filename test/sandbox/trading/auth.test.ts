import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/server.ts';
import { decodeApiCredentials } from '../../../src/venue/decode.ts';
import { send, TestTrader } from './harness.ts';

/** L1 key derivation and the L2 checks on the authenticated routes. */

const NOW_MS = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = new SimulatedClock(NOW_MS);
let sb: RunningSandbox;
let alice: TestTrader;
let bob: TestTrader;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, seed: 3, markets: 30, events: 6, clock, limits: { enabled: false } });
  alice = new TestTrader(sb.url, 'interface', clock, 0x11);
  bob = new TestTrader(sb.url, 'interface', clock, 0x22);
  await alice.login();
  await bob.login();
});
afterAll(async () => {
  await sb.close();
});

describe('L1: POST /auth/api-key and GET /auth/derive-api-key', () => {
  it('derive the same credentials for the same address and nonce, other ones for another nonce', async () => {
    const created = await alice.createKey(0);
    const derived = await alice.deriveKey(0);
    expect(created.status).toBe(200);
    expect(derived.body).toEqual(created.body);
    expect(Object.keys(created.body).sort()).toEqual(['apiKey', 'passphrase', 'secret']);
    const creds = decodeApiCredentials(created.body);
    expect(creds.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Buffer.from(creds.secret.reveal(), 'base64url')).toHaveLength(32);
    expect(creds.secret.reveal()).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    expect(creds.passphrase.reveal()).toMatch(/^[0-9a-f]{64}$/);
    const other = await alice.deriveKey(1);
    expect(other.status).toBe(200);
    expect(other.body.apiKey).not.toBe(created.body.apiKey);
    expect((await bob.deriveKey(0)).body.apiKey).not.toBe(created.body.apiKey);
  });

  /** The credentials of key 0x11, nonce 0, from a fresh sandbox of seed 3 started with `extra`. */
  async function credentialsAfterStart(extra: Partial<SandboxOptions>): Promise<unknown> {
    const again = await startSandbox({ flow: { enabled: false }, seed: 3, markets: 30, events: 6, clock, limits: { enabled: false }, ...extra });
    try {
      const answer = await new TestTrader(again.url, 'interface', clock, 0x11).deriveKey(0);
      expect(answer.status).toBe(200);
      return answer.body;
    } finally {
      await again.close();
    }
  }

  it('differ at every start by default: the server secret is random, not computable from the seed', async () => {
    const first = await credentialsAfterStart({});
    const second = await credentialsAfterStart({});
    expect(second).not.toEqual(first);
    expect(first).not.toEqual((await alice.deriveKey(0)).body);
  });

  it('are the same after a restart with the same given server secret, or with the seed-derived one (deterministicKeys, for tests)', async () => {
    const serverSecret = 'ab'.repeat(32);
    expect(await credentialsAfterStart({ serverSecret })).toEqual(await credentialsAfterStart({ serverSecret }));
    const seeded = await credentialsAfterStart({ deterministicKeys: true });
    expect(await credentialsAfterStart({ deterministicKeys: true })).toEqual(seeded);
    expect(seeded).not.toEqual(await credentialsAfterStart({ serverSecret }));
    await expect(startSandbox({ serverSecret, deterministicKeys: true })).rejects.toThrow(/deterministicKeys: cannot be combined with serverSecret/);
  });

  it('answer 401 naming the check for a bad signature, a stale timestamp, a missing header', async () => {
    const headers = alice.l1Headers(0);
    const forged = { ...headers, SERVICE_SIGNATURE: bob.l1Headers(0)['SERVICE_SIGNATURE'] as string };
    const bad = await send(`${sb.url}/auth/api-key`, 'POST', forged);
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatch(/^L1 auth: SERVICE_SIGNATURE is not a ClobAuth signature of SERVICE_ADDRESS/);
    const stale = await send(`${sb.url}/auth/derive-api-key`, 'GET', alice.l1Headers(0, -31));
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatch(/SERVICE_TIMESTAMP is 31 s old, outside the 30 s window/);
    const { SERVICE_SIGNATURE: _, ...missing } = headers;
    const absent = await send(`${sb.url}/auth/api-key`, 'POST', missing);
    expect(absent.status).toBe(401);
    expect(absent.body.error).toBe('L1 auth: header SERVICE_SIGNATURE is missing');
    // the nonce is signed: the same signature with another nonce does not verify
    const renonced = await send(`${sb.url}/auth/api-key`, 'POST', { ...headers, SERVICE_NONCE: '7' });
    expect(renonced.status).toBe(401);
  });
});

describe('L2 checks', () => {
  const path = '/data/orders';

  it('admit a correctly signed request, at the root and under /clob (signed without the prefix)', async () => {
    expect((await alice.l2('GET', path)).status).toBe(200);
    expect((await alice.l2('GET', `${path}?next_cursor=MA==`)).status).toBe(200);
    expect((await alice.l2('GET', path, undefined, { mount: '/clob' })).status).toBe(200);
    const signedWithPrefix = await send(`${sb.url}/clob${path}`, 'GET', alice.l2Headers('GET', `/clob${path}`, undefined));
    expect(signedWithPrefix.status).toBe(401);
  });

  it('answer 401 naming the failed check, never echoing a secret', async () => {
    const cases: [string, (h: Record<string, string>) => void, RegExp][] = [
      ['bad HMAC', (h) => (h['SERVICE_SIGNATURE'] = (h['SERVICE_SIGNATURE'] as string).replace(/^./, (c) => (c === '0' ? '1' : '0'))), /^L2 auth: SERVICE_SIGNATURE is not the HMAC/],
      ['stale timestamp', (h) => (h['SERVICE_TIMESTAMP'] = String(Number(h['SERVICE_TIMESTAMP']) - 31)), /^L2 auth: SERVICE_TIMESTAMP is 31 s old/],
      ['future timestamp', (h) => (h['SERVICE_TIMESTAMP'] = String(Number(h['SERVICE_TIMESTAMP']) + 45)), /^L2 auth: SERVICE_TIMESTAMP is 45 s ahead/],
      ['wrong passphrase', (h) => (h['SERVICE_PASSPHRASE'] = bob.creds.passphrase), /^L2 auth: SERVICE_PASSPHRASE does not match the API key$/],
      ['missing header', (h) => delete h['SERVICE_PASSPHRASE'], /^L2 auth: header SERVICE_PASSPHRASE is missing$/],
      ['API key of another address', (h) => (h['SERVICE_API_KEY'] = bob.apiKey), /^L2 auth: the API key does not belong to SERVICE_ADDRESS$/],
      ['unknown API key', (h) => (h['SERVICE_API_KEY'] = '00000000-0000-4000-8000-000000000000'), /^L2 auth: unknown API key in SERVICE_API_KEY$/],
    ];
    for (const [name, tamper, message] of cases) {
      const answer = await alice.l2('GET', path, undefined, { tamper });
      expect(answer.status, name).toBe(401);
      expect(answer.body.error, name).toMatch(message);
      expect(Object.keys(answer.body), name).toEqual(['error']);
      expect(answer.text).not.toContain(alice.creds.secret);
      expect(answer.text).not.toContain(alice.creds.passphrase);
      expect(answer.text).not.toContain(bob.creds.passphrase);
    }
  });

  it('covers the body and the method: a body or method other than the signed one fails', async () => {
    const signedFor = JSON.stringify({ orderID: '0x01' });
    const headers = alice.l2Headers('DELETE', '/order', signedFor);
    const other = await send(`${sb.url}/order`, 'DELETE', headers, JSON.stringify({ orderID: '0x02' }));
    expect(other.status).toBe(401);
    const same = await send(`${sb.url}/order`, 'DELETE', headers, signedFor);
    expect(same.status).toBe(200);
    expect(same.body).toEqual({ canceled: [], not_canceled: { '0x01': 'order not found or already canceled' } });
    const wrongMethod = await send(`${sb.url}/heartbeats`, 'POST', alice.l2Headers('GET', '/heartbeats', undefined));
    expect(wrongMethod.status).toBe(401);
  });

  it('guards every order, cancel, heartbeat and account-data route', async () => {
    const routes: [string, string][] = [
      ['POST', '/orders'], ['POST', '/order'], ['DELETE', '/order'], ['DELETE', '/orders'], ['DELETE', '/cancel-all'],
      ['DELETE', '/cancel-market-orders'], ['GET', '/data/orders'], ['GET', '/data/order/0x01'], ['POST', '/v1/heartbeats'],
      ['POST', '/heartbeats'], ['GET', '/clob/data/trades'],
    ];
    for (const [method, route] of routes) {
      const answer = await send(`${sb.url}${route}`, method, {});
      expect(answer.status, `${method} ${route}`).toBe(401);
      expect(answer.body.error).toBe('L2 auth: header SERVICE_ADDRESS is missing');
    }
    // at the root, /data/trades without an API-key header is the public analytics route
    expect((await send(`${sb.url}/data/trades?limit=1`, 'GET', {})).status).toBe(200);
    expect((await alice.l2('GET', '/data/trades')).status).toBe(200);
  });
});
