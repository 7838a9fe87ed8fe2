import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { stringify } from 'yaml';
import { ENGINE_METRICS } from '../../src/engine/engine-metrics.ts';
import { STATE_METRICS } from '../../src/app/run-metrics.ts';
import { startMetricsServer, type RunningMetricsServer } from '../../src/telemetry/metrics-server.ts';
import { baseConfig, DEFAULT_MM, REPO_ROOT, startE2E, TEST_PRIVATE_KEY, waitFor, type E2E } from '../engine/e2e/harness.ts';
import { expectNoIdLabels, parsePrometheus, valueOf } from './prometheus-text.ts';

/**
 * Issue 23 point 4 on a live run against the sandbox: GET /metrics over loopback parses as the
 * Prometheus text format (a real parser), its counters move while the run trades, health and
 * permission read as state gauges, and no label value is an order id or a wallet address. The
 * standalone server refuses a non-loopback address without a token (`clobot run` exits 2
 * before trading) and answers 401 to a scrape without the token it was given.
 */

let run: E2E | undefined;
let server: RunningMetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  await run?.close();
  server = undefined;
  run = undefined;
});

async function scrape(url: string, token?: string) {
  const res = await fetch(`${url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('e2e: /metrics of a live run', () => {
  it('parses as Prometheus text, its counters move during the run, and no label is an id or an address', async () => {
    run = await startE2E({ strategies: [DEFAULT_MM], prometheus: true });
    const e = run;
    const exporter = e.session.prometheus!;
    server = await startMetricsServer({ exporter, port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const first = await scrape(server.url);
    expect(first.status).toBe(200);
    expect(first.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const before = parsePrometheus(first.text);
    await waitFor('orders and fills moving', () => e.summary().ordersSubmitted >= 4 && e.summary().heartbeats.acknowledged >= 2, 30_000);
    // the health is normal once the heartbeat is acknowledged and data arrived
    await waitFor('a normal run', () => e.session.engine.health().health === 'normal', 20_000);
    const after = parsePrometheus((await scrape(server.url)).text);

    for (const name of [ENGINE_METRICS.submitted, 'clobot_http_requests_total', ENGINE_METRICS.heartbeatsAcknowledged, STATE_METRICS.venueResponses]) {
      expect(valueOf(after, name), name).toBeGreaterThan(valueOf(before, name));
    }
    expect(after.get(ENGINE_METRICS.tickToTrade)?.type).toBe('HISTOGRAM');
    expect(valueOf(after, ENGINE_METRICS.tickToTrade)).toBeGreaterThan(0);
    expect(valueOf(after, ENGINE_METRICS.heartbeatLatency)).toBeGreaterThan(0);
    expect(valueOf(after, STATE_METRICS.venueResponses, { route: 'postOrders', status: '200' })).toBeGreaterThan(0);
    expect(valueOf(after, STATE_METRICS.health, { state: 'normal' })).toBe(1);
    expect(valueOf(after, STATE_METRICS.health, { state: 'unknown' })).toBe(0);
    expect(valueOf(after, STATE_METRICS.permission, { state: 'allowed' })).toBe(1);
    expect(after.get(STATE_METRICS.rateBudgetUsed)?.metrics.length).toBeGreaterThan(0);
    expect(after.has(STATE_METRICS.pnl) && after.has(STATE_METRICS.exposure) && after.has(STATE_METRICS.cash)).toBe(true);
    expect(after.has('clobot_build_info') && after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    // every counter ends in _total, every name has the prefix or is prom-client's process set
    for (const f of after.values()) {
      expect(f.name.startsWith('clobot_') || f.name.startsWith('process_') || f.name.startsWith('nodejs_'), f.name).toBe(true);
      if (f.type === 'COUNTER') expect(f.name.endsWith('_total'), f.name).toBe(true);
    }
    expectNoIdLabels(after);

    // a halt shows in the gauges at the next scrape
    e.session.engine.command({ type: 'halt', name: 'manual', reason: 'metrics drill' });
    const halted = parsePrometheus((await scrape(server.url)).text);
    expect(valueOf(halted, STATE_METRICS.health, { state: 'halted' })).toBe(1);
    expect(valueOf(halted, STATE_METRICS.permission, { state: 'blocked' })).toBe(1);
    expect(valueOf(halted, STATE_METRICS.healthReasons, { kind: 'halt' })).toBe(1);
    expect(valueOf(halted, ENGINE_METRICS.halted, { halt: 'manual' })).toBe(1);
    expect((await fetch(`${server.url}/other`)).status).toBe(404);
  }, 90_000);

  it('a token is required when given; a non-loopback address without one is refused, and `clobot run` exits 2 before trading', async () => {
    const text = { contentType: 'text/plain; version=0.0.4; charset=utf-8', text: () => Promise.resolve('# HELP x y\n# TYPE x gauge\nx 1\n') };
    server = await startMetricsServer({ exporter: text, port: 0, token: 's3cret-token' });
    expect((await scrape(server.url)).status).toBe(401);
    expect((await scrape(server.url, 'wrong')).status).toBe(401);
    expect(await scrape(server.url, 's3cret-token')).toMatchObject({ status: 200, text: expect.stringContaining('x 1') });
    await expect(startMetricsServer({ exporter: text, port: 0, host: '0.0.0.0' })).rejects.toThrow(/not a loopback address: set CLOBOT_METRICS_TOKEN/);

    // the CLI: refused before any venue call (the venue URL is never reached)
    const dir = mkdtempSync(join(tmpdir(), 'clobot-metrics-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'metrics.yaml');
    writeFileSync(path, stringify(baseConfig('http://127.0.0.1:9', dir, [DEFAULT_MM])));
    const env: NodeJS.ProcessEnv = { ...process.env, CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY };
    delete env['CLOBOT_METRICS_TOKEN'];
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/clobot.mjs'), 'run', path, '--no-status', '--metrics-port', '0', '--metrics-host', '0.0.0.0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(stderr).toMatch(/--metrics-host 0\.0\.0\.0 is not a loopback address/);
    expect(stderr).not.toMatch(/unreachable|ECONNREFUSED/);
  }, 90_000);
});

describe('clobot run --metrics-port 0', () => {
  it('says on stderr where /metrics is (on a terminal the log goes to its file only), and it answers there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-metrics-port-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'paper.yaml');
    writeFileSync(
      path,
      stringify({
        mode: 'paper',
        venue: { embedded: { seed: 1, markets: 4, events: 2, flow: { enabled: false } } },
        data: { markets: { filter: { maxCount: 1 } } },
        strategies: [{ id: 'mm', module: DEFAULT_MM.module, params: DEFAULT_MM.params }],
        logging: { level: 'info', file: join(dir, 'run.log') },
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['CLOBOT_METRICS_TOKEN'];
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/clobot.mjs'), 'run', path, '--no-status', '--metrics-port', '0', '--duration', '60s'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = once(child, 'exit');
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
        const m = /^metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.once('exit', () => reject(new Error(`clobot run ended without saying where /metrics is: ${stderr}`)));
    });
    try {
      await waitFor('the run to serve /metrics', async () => (await fetch(url)).status === 200, 60_000);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  }, 90_000);
});
