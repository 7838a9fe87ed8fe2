import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.ts';
import { isLoopbackHost } from '../../../src/sandbox/routes/admin-guard.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { call } from '../helpers.ts';

/**
 * Who may call the admin routes, over real HTTP on loopback: JSON posts only (a browser page can
 * send text/plain, a form or an empty post without a preflight; none of them passes), a loopback
 * Host only (DNS rebinding), and the admin token when one is set.
 */

interface Raw {
  status: number;
  body: unknown;
}

/** A request with headers fetch will not set (Host) or leaves out (no content type). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const all = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, headers: all, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ flow: { enabled: false }, markets: 10, events: 5 });
});
afterAll(async () => {
  await sb.close();
});

describe('admin routes take JSON bodies only', () => {
  it('refuse a text/plain, a form and a bare post with 415, and change nothing', async () => {
    await call(`${sb.url}/version`);
    const counted = sb.context.stats.snapshot().total;
    expect(counted).toBeGreaterThan(0);
    for (const [label, headers, body] of [
      ['text/plain', { 'content-type': 'text/plain' }, '{"rateLimitStorm": true}'],
      ['form', { 'content-type': 'application/x-www-form-urlencoded' }, 'rateLimitStorm=true'],
      ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      ['no content type, no body', {}, undefined],
    ] as const) {
      for (const path of ['/admin/stats/reset', '/admin/faults', '/admin/ws/drop']) {
        const answer = await raw(`${sb.url}${path}`, 'POST', headers, body);
        expect(answer.status, `${label} ${path}`).toBe(415);
        expect(answer.body).toEqual({ error: expect.stringContaining('content-type application/json') });
      }
    }
    expect(sb.context.stats.snapshot().total).toBe(counted);
    expect(sb.faults.settings.rateLimitStorm).toBe(false);
  });

  it('take a JSON post, also with an empty body or a charset', async () => {
    expect((await raw(`${sb.url}/admin/stats/reset`, 'POST', { 'content-type': 'application/json' })).status).toBe(200);
    expect(sb.context.stats.snapshot().total).toBe(0);
    const set = await raw(`${sb.url}/admin/faults`, 'POST', { 'content-type': 'Application/JSON; charset=utf-8' }, '{"latencyMs": 0}');
    expect(set.status).toBe(200);
    expect((await call(`${sb.url}/admin/ws/drop`, { json: {} })).body).toEqual({ dropped: 0 });
  });
});

describe('admin routes answer a loopback Host only', () => {
  it('refuse any other Host with 403 (a rebound name), reads and posts alike', async () => {
    for (const host of ['evil.example', 'evil.example:8765', '127.0.0.1.evil.example', 'localhost.evil.example', '10.0.0.1', '[::1].evil.example']) {
      const read = await raw(`${sb.url}/admin/faults`, 'GET', { host });
      expect(read.status, host).toBe(403);
      expect(read.body).toEqual({ error: expect.stringContaining('loopback Host') });
      const post = await raw(`${sb.url}/admin/faults`, 'POST', { host, 'content-type': 'application/json' }, '{"rateLimitStorm": true}');
      expect(post.status, host).toBe(403);
    }
    expect(sb.faults.settings.rateLimitStorm).toBe(false);
    // the public routes do not care
    expect((await raw(`${sb.url}/version`, 'GET', { host: 'evil.example' })).status).toBe(200);
  });

  it('pass localhost, 127.x.x.x and [::1], with or without a port', async () => {
    for (const host of ['localhost', `localhost:${sb.port}`, '127.0.0.1', `127.0.0.1:${sb.port}`, '127.1.2.3:80', '[::1]', `[::1]:${sb.port}`, 'LOCALHOST']) {
      expect((await raw(`${sb.url}/admin/faults`, 'GET', { host })).status, host).toBe(200);
    }
    expect(isLoopbackHost(undefined)).toBe(false);
    expect(isLoopbackHost('[::2]:80')).toBe(false);
    expect(isLoopbackHost('localhost:80:80')).toBe(false);
  });
});

describe('admin token', () => {
  const token = 'test-admin-token-0123456789';

  it('when set, every admin route needs authorization: Bearer <token> (401 otherwise); other routes do not', async () => {
    const guarded = await startSandbox({ flow: { enabled: false }, markets: 10, events: 5, adminToken: token });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789xx', `Basic ${token}`, token, `Bearer ${token}x`]) {
        const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
        const read = await raw(`${guarded.url}/admin/faults`, 'GET', headers);
        expect(read.status, authorization).toBe(401);
        expect(read.body).toEqual({ error: 'admin routes need the admin token: header authorization: Bearer <token>' });
        const post = await raw(`${guarded.url}/admin/faults`, 'POST', { ...headers, 'content-type': 'application/json' }, '{"errorRate": 1}');
        expect(post.status).toBe(401);
      }
      expect(guarded.faults.settings.errorRate).toBe(0);
      const ok = await raw(`${guarded.url}/admin/faults`, 'POST', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, '{"latencyMs": 1}');
      expect(ok.status).toBe(200);
      expect(guarded.faults.settings.latencyMs).toBe(1);
      expect((await raw(`${guarded.url}/admin/stats`, 'GET', { authorization: `bearer ${token}` })).status).toBe(200);
      expect((await call(`${guarded.url}/version`)).status).toBe(200);
      // a token does not replace the other checks
      expect((await raw(`${guarded.url}/admin/stats/reset`, 'POST', { authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, 'x')).status).toBe(415);
      expect((await raw(`${guarded.url}/admin/stats`, 'GET', { authorization: `Bearer ${token}`, host: 'evil.example' })).status).toBe(403);
    } finally {
      await guarded.close();
    }
  });

  it('must be 16 to 256 visible characters', async () => {
    for (const adminToken of ['short', 'has a space in it somewhere', 'x'.repeat(257)]) {
      await expect(startSandbox({ adminToken })).rejects.toThrow(ConfigError);
    }
  });
});
