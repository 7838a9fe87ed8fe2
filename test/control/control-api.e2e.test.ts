import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ControlServer } from '../../src/control/control-server.ts';
import type { ControlMessage } from '../../src/control/control-state.ts';
import { LiveSource } from '../../src/control/live-source.ts';
import { LogLines } from '../../src/control/log-lines.ts';
import { HEALTHS, PERMISSIONS } from '../../src/engine/health.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { REPO_ROOT, startE2E, TEST_PRIVATE_KEY, waitFor, type E2E } from '../engine/e2e/harness.ts';
import { paramsHeard } from './strategies/control-probe.ts';

/**
 * Issue 23 point 2, the control API over loopback against a live run on the sandbox (a real
 * store): no token or a wrong one is 401 with nothing done; a halt stops new orders from the next
 * tick on; a params change reaches the strategy and a bad one is refused naming the key; flatten
 * sells every position within its band, verifies none is left, and the run's stop is verified;
 * every action is in the store's journal; the message WebSocket pushes what happens.
 */

const PROBE = resolve(REPO_ROOT, 'test/control/strategies/control-probe.ts');
const TOKEN = 'test-control-token-0123456789abcdef';
const TAG = 'control-api';

let e2e: E2E;
let server: ControlServer;
let source: LiveSource;
const messages: ControlMessage[] = [];
let socket: WebSocket;

async function call(method: 'GET' | 'POST', path: string, options: { token?: string | null; body?: unknown } = {}): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (method === 'POST') headers['content-type'] = 'application/json';
  const res = await fetch(server.url + path, { method, headers, body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}

function commandRows(): { type: string; ok: boolean; phase?: string; message: string }[] {
  const reader = StoreReader.open(resolve(e2e.dir, 'run.sqlite'));
  try {
    return [...reader.journalOfType('Command')].map((row) => {
      const e = row.event as { command: { type: string }; result: { ok: boolean; phase?: string; message: string } };
      return { type: e.command.type, ok: e.result.ok, phase: e.result.phase, message: e.result.message };
    });
  } finally {
    reader.close();
  }
}

function orderPosts(stats: { routes: Record<string, number> }): number {
  return (stats.routes['postOrders'] ?? 0) + (stats.routes['postOrder'] ?? 0);
}

beforeAll(async () => {
  e2e = await startE2E({
    strategies: [{ id: 'probe', module: PROBE, params: { tag: TAG }, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } }],
    config: { store: { path: 'run.sqlite' } },
  });
  server = await ControlServer.start({ host: '127.0.0.1', port: 0, token: TOKEN });
  source = new LiveSource({ engine: e2e.session.engine, mode: 'live', runId: e2e.session.runId, name: 'control-api', storePath: resolve(e2e.dir, 'run.sqlite'), logs: new LogLines() });
  server.attach(source);
  socket = new WebSocket(server.url.replace('http', 'ws') + '/api/messages', ['clobot.v1', `bearer.${TOKEN}`]);
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as ControlMessage));
  await new Promise((ok, fail) => {
    socket.once('open', ok);
    socket.once('error', fail);
  });
}, 60_000);

afterAll(async () => {
  socket?.close();
  source?.close();
  await server?.close();
  await e2e?.close();
});

describe('control API: the token', () => {
  it('no token or a wrong one: 401, nothing done, nothing journaled, nothing read', async () => {
    for (const token of [null, 'wrong-token-0123456789abcdef-xxxxxx', TOKEN.slice(0, -1), '']) {
      for (const [method, path] of [['POST', '/api/halt'], ['POST', '/api/flatten'], ['POST', '/api/cancel-all'], ['POST', '/api/strategies/probe/stop'], ['GET', '/api/state'], ['GET', '/api/positions']] as const) {
        const res = await call(method, path, { token, body: { reason: 'intruder' } });
        expect(res.status, `${method} ${path} with ${token === null ? 'no token' : 'a wrong token'}`).toBe(401);
        expect(res.text).not.toContain('probe');
      }
    }
    expect(e2e.session.engine.halts).toEqual([]);
    expect(e2e.session.engine.strategyState('probe')).toBe('RUNNING');
    expect(commandRows()).toEqual([]);
    // the WebSocket too
    const refused = new WebSocket(server.url.replace('http', 'ws') + '/api/messages', ['clobot.v1', 'bearer.wrong-token-0123456789abcdef']);
    const status = await new Promise<number>((ok) => refused.on('unexpected-response', (_req, res) => ok(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });

  it('reads with the token; the answers carry no secret; the OpenAPI document lists every route', async () => {
    const state = await call('GET', '/api/state');
    expect(state.status).toBe(200);
    expect(state.body.source).toBe('live');
    // the engine's health model: trading, so no halt among its reasons
    expect(HEALTHS).toContain(state.body.health.health);
    expect(PERMISSIONS).toContain(state.body.health.permission);
    expect(state.body.health.reasons.filter((r: { kind: string }) => r.kind === 'halt')).toEqual([]);
    expect(state.body.strategies.map((s: { id: string }) => s.id)).toEqual(['probe']);
    expect(state.body.strategies[0].updatable).toEqual(['quoteTicks']);
    for (const path of ['/api/health', '/api/positions', '/api/orders', '/api/fills', '/api/pnl', '/api/strategies', '/api/denials', '/api/logs']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.text).not.toContain(TOKEN);
      expect(res.text.toLowerCase()).not.toContain(TEST_PRIVATE_KEY.slice(2));
    }
    expect(state.text).not.toContain(TOKEN);
    expect(state.text.toLowerCase()).not.toContain(TEST_PRIVATE_KEY.slice(2));
    const doc = (await (await fetch(server.url + '/openapi.json')).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/api/state', '/api/halt', '/api/resume', '/api/cancel-all', '/api/flatten', '/api/strategies/{id}/stop', '/api/strategies/{id}/params', '/api/messages']) expect(doc.paths[path], path).toBeDefined();
    expect(doc.paths['/api/halt']!['post']).toBeDefined();
  });
});

describe('control API: actions', () => {
  it('a params change reaches the strategy; a bad value and a key not updatable are refused naming the key', async () => {
    const ok = await call('POST', '/api/strategies/probe/params', { body: { params: { quoteTicks: 7 } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, command: 'updateParams', changed: ['quoteTicks'] });
    expect(paramsHeard(TAG)).toEqual([7]);
    const bad = await call('POST', '/api/strategies/probe/params', { body: { params: { quoteTicks: 0 } } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/^strategies\.probe\.params\.quoteTicks: /);
    const fixed = await call('POST', '/api/strategies/probe/params', { body: { params: { size: 20 } } });
    expect(fixed.status).toBe(422);
    expect(fixed.body.message).toMatch(/^strategies\.probe\.params\.size: not updatable/);
    const unknown = await call('POST', '/api/strategies/nobody/params', { body: { params: { quoteTicks: 3 } } });
    expect(unknown.body).toMatchObject({ ok: false, message: "no strategy 'nobody'" });
    // refused ones changed nothing
    expect(paramsHeard(TAG)).toEqual([7]);
    const strategies = await call('GET', '/api/strategies');
    expect(strategies.body[0].params).toMatchObject({ quoteTicks: 7, size: 10 });
    const notJson = await fetch(server.url + '/api/halt', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(e2e.session.engine.halts).toEqual([]);
  });

  it('halt: no order is made from the next tick on, none reaches the venue after; resume trades again', async () => {
    const engine = e2e.session.engine;
    await waitFor('the probe quoting', () => e2e.records().some((r) => r.request.strategyId === 'probe' && r.request.orderType === 'GTC'));
    const answer = await call('POST', '/api/halt', { body: { reason: 'test' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, command: 'halt', halts: ['manual'] });
    expect(answer.body.message).toContain('manual halt on (control API: test)');
    const haltAt = engine.clock.now();
    const deniedAfter = () => e2e.orderEvents('OrderDenied', 'probe').filter((d) => d.tsInit >= haltAt && d.code === 'TRADING_HALTED');
    // the next tick's quote is denied, and so is every one after it
    await waitFor('a denial after the halt', () => deniedAfter().length >= 1);
    const postsAtFirstDenial = orderPosts(await e2e.adminStats());
    await waitFor('three more ticks denied', () => deniedAfter().length >= 4, 30_000);
    expect(e2e.records().filter((r) => r.request.createdAt >= haltAt)).toEqual([]);
    expect(orderPosts(await e2e.adminStats())).toBe(postsAtFirstDenial);
    const state = await call('GET', '/api/state');
    expect(state.body.halts.map((h: { name: string }) => h.name)).toEqual(['manual']);
    // health says so, with the reason's line, and the WebSocket pushed the change
    expect(state.body.health).toMatchObject({ health: 'halted', permission: 'blocked' });
    expect(state.body.health.reasons).toContainEqual(expect.objectContaining({ kind: 'halt', name: 'manual', text: expect.stringContaining('control API: test') }));
    expect(messages.some((m) => m.type === 'health' && m.health.health === 'halted')).toBe(true);
    expect(state.body.denials['TRADING_HALTED']).toBeGreaterThan(0);

    const resumed = await call('POST', '/api/resume');
    expect(resumed.body).toMatchObject({ ok: true, command: 'resume', halts: [] });
    await waitFor('an order after the resume', () => e2e.records().some((r) => r.request.createdAt > haltAt && r.request.strategyId === 'probe'));
  }, 60_000);

  it('flatten: halts, sells every position within its band, verifies none is left; the WebSocket saw the fills', async () => {
    const engine = e2e.session.engine;
    const held = () => engine.ledger.positions('probe').filter((p) => p.size > 0);
    await waitFor('a position to flatten', () => held().length > 0, 30_000);
    const before = new Set(e2e.records().map((r) => r.request.clientOrderId));
    const answer = await call('POST', '/api/flatten', { body: { bandCents: 10 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.ok).toBe(true);
    expect(answer.body.started).toMatchObject({ ok: true, phase: 'started', halts: ['manual'] });
    expect(answer.body.verified).toMatchObject({ ok: true, phase: 'verified', left: [] });
    expect(held()).toEqual([]);
    expect(engine.portfolio.positions().filter((p) => p.size > 0)).toEqual([]);
    // its orders: reduce-only SELL FAKs, each filled no lower than its limit (the band's floor)
    const sells = e2e.records().filter((r) => !before.has(r.request.clientOrderId));
    expect(sells.length).toBeGreaterThan(0);
    for (const r of sells) expect(r.request).toMatchObject({ side: 'SELL', orderType: 'FAK', reduceOnly: true, tag: 'flatten' });
    const sellIds = new Set(sells.map((r) => r.request.clientOrderId));
    const fills = e2e.events.flatMap((e) => (e.type === 'fill' && sellIds.has(e.fill.clientOrderId) ? [e.fill] : []));
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) expect(f.price).toBeGreaterThanOrEqual(e2e.records().find((r) => r.request.clientOrderId === f.clientOrderId)!.request.price);
    // pushed over the message WebSocket as they happened
    await waitFor('the flatten fills on the WebSocket', () => fills.every((f) => messages.some((m) => m.type === 'fill' && m.fill.tradeId === f.tradeId)));
    expect(messages.some((m) => m.type === 'command' && (m.result as { phase?: string }).phase === 'verified')).toBe(true);
    // while it ran the permission read reduceOnly (its SELLs pass the halt), then blocked (the halt stays)
    const permissions = messages.flatMap((m) => (m.type === 'health' ? [m.health.permission] : []));
    const during = permissions.indexOf('reduceOnly');
    expect(during, permissions.join()).toBeGreaterThanOrEqual(0);
    // trading, then reduceOnly straight away (never blocked while it ran), then blocked
    const steps = permissions.slice(during - 1).filter((p, i, all) => i === 0 || p !== all[i - 1]);
    expect(steps.slice(0, 3), permissions.join()).toEqual(['allowed', 'reduceOnly', 'blocked']);
    expect(messages.some((m) => m.type === 'health' && m.health.reasons.some((r) => (r as { kind: string; text: string }).kind === 'flattening' && (r as { text: string }).text.includes('10 cent(s)')))).toBe(true);
    const after = await call('GET', '/api/health');
    expect(after.body.health).toMatchObject({ health: 'halted', permission: 'blocked' });
    // trading stays halted: the strategy's quotes are denied
    expect(engine.halts.map((h) => h.name)).toEqual(['manual']);
    const again = await call('POST', '/api/flatten', { body: { bandCents: 200 } });
    expect(again.status).toBe(422);
    expect(again.body.message).toMatch(/^bandCents: /);
  }, 90_000);

  it('stop a strategy, then every action is in the journal; the run stops verified', async () => {
    const stopped = await call('POST', '/api/strategies/probe/stop');
    expect(stopped.body).toMatchObject({ ok: true, command: 'stopStrategy' });
    expect(e2e.session.engine.strategyState('probe')).not.toBe('RUNNING');
    const rows = commandRows();
    const kinds = rows.map((r) => `${r.type}:${r.ok}${r.phase ? `:${r.phase}` : ''}`);
    expect(kinds).toEqual([
      'updateParams:true',
      'updateParams:false',
      'updateParams:false',
      'updateParams:false',
      'halt:true',
      'resume:true',
      'flatten:true:started',
      'flatten:true:verified',
      'flatten:false',
      'stopStrategy:true',
    ]);
    expect(rows.find((r) => r.type === 'updateParams' && !r.ok)?.message).toMatch(/strategies\.probe\.params\.quoteTicks/);
    const summary = await e2e.stop();
    expect(summary.stop?.verified).toBe(true);
    expect(messages[0]?.type).toBe('hello');
  }, 60_000);
});
