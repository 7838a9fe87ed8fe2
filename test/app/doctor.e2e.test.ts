import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/app/doctor/run-doctor.ts';
import type { DoctorLine, DoctorReport } from '../../src/app/doctor/doctor-line.ts';
import { loadCheckedConfig } from '../../src/config/load-config.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { iterateMarkets } from '../../src/venue/actions/iterate-markets.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { clobotProcess } from '../cli/clobot-process.ts';

/**
 * `clobot doctor` against a sandbox on loopback: a good live config passes every check (exit 0);
 * a wrong API key, a venue clock 30 s off ours, a market the venue does not list and a store
 * that cannot be created each fail their own line, exit 2.
 */

const KEY = '0x' + '4f'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'clobot-doctor-'));
let sandbox: RunningSandbox;
let slugs: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 11, markets: 4, events: 2, flow: { enabled: false, intensity: 1 } });
  slugs = [];
  for await (const m of iterateMarkets(createVenueClient({ baseUrl: sandbox.url }))) slugs.push(m.marketSlug);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function liveConfig(name: string, opts: { slugs: string[]; store?: string }): string {
  const path = join(dir, name);
  const lines = [
    'mode: live',
    'venue:',
    `  baseUrl: ${sandbox.url}`,
    'data:',
    `  markets: { slugs: [${opts.slugs.join(', ')}] }`,
    'strategies:',
    '  - id: mm',
    `    module: ${resolve('strategies/market-maker.ts')}`,
    '    params: { size: 10 }',
    'store:',
    `  path: ${opts.store ?? join(dir, `${name}.db`)}`,
    '',
  ];
  writeFileSync(path, lines.join('\n'));
  return path;
}

async function doctor(path: string, env: Record<string, string> = {}): Promise<DoctorReport> {
  const config = await loadCheckedConfig(path, { CLOBOT_PRIVATE_KEY: KEY, ...env });
  return runDoctor({ config, venueUrl: undefined, logger: pino({ level: 'silent' }), heartbeat: false });
}

function line(report: DoctorReport, check: string): DoctorLine {
  const found = report.lines.find((l) => l.check === check);
  if (!found) throw new Error(`no ${check} line in ${JSON.stringify(report.lines)}`);
  return found;
}

describe('clobot doctor', () => {
  it('passes a good live config: every check ok, a table, exit 0', async () => {
    const path = liveConfig('good.yaml', { slugs: slugs.slice(0, 2) });
    const r = await clobotProcess(['doctor', path], { CLOBOT_PRIVATE_KEY: KEY });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const check of ['config', 'venue', 'clock', 'signing', 'credentials', 'balance', 'heartbeat', 'markets', 'rateBudget', 'store']) {
      expect(r.stdout).toMatch(new RegExp(`^${check}\\s+ok\\s`, 'm'));
    }
    expect(r.stdout).toMatch(/2 market\(s\) found, all accepting orders/);
    expect(r.stdout).not.toContain(KEY.slice(2, 18));
    const json = await clobotProcess(['doctor', path, '--json'], { CLOBOT_PRIVATE_KEY: KEY });
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { exitCode: number; checks: DoctorLine[] };
    expect(parsed.exitCode).toBe(0);
    expect(parsed.checks.find((c) => c.check === 'signing')?.figures?.['ordersPerSecond']).toBeGreaterThan(0);
  }, 60_000);

  it('a wrong API key: the credentials line names the variable, never the value; balance and heartbeat skipped; exit 2', async () => {
    const path = liveConfig('wrong-key.yaml', { slugs: slugs.slice(0, 1) });
    const wrong = { CLOBOT_API_KEY: '11111111-2222-4333-8444-555555555555', CLOBOT_API_SECRET: Buffer.alloc(32, 7).toString('base64'), CLOBOT_API_PASSPHRASE: 'nothing' };
    const report = await doctor(path, wrong);
    expect(report.exitCode).toBe(2);
    const credentials = line(report, 'credentials');
    expect(credentials.status).toBe('fail');
    expect(credentials.detail).toMatch(/^L2: the venue refused the API key \(CLOBOT_API_KEY\)/);
    expect(JSON.stringify(report)).not.toContain(wrong.CLOBOT_API_SECRET);
    expect(line(report, 'balance').status).toBe('skip');
    expect(line(report, 'heartbeat').status).toBe('skip');
  });

  it('a venue clock 30 s ahead of ours: the clock line fails with the skew, exit 2', async () => {
    const path = liveConfig('skew.yaml', { slugs: slugs.slice(0, 1) });
    sandbox.faults.set({ clockSkewMs: 30_000 });
    try {
      const report = await doctor(path);
      expect(report.exitCode).toBe(2);
      const clock = line(report, 'clock');
      expect(clock.status).toBe('fail');
      expect(clock.detail).toMatch(/^venue ahead by (29|30|31)\.\d s/);
      expect(clock.figures?.['skewMs']).toBeGreaterThan(28_000);
    } finally {
      sandbox.faults.set({ clockSkewMs: 0 });
    }
    // a skew within the warning band warns, exit 1
    sandbox.faults.set({ clockSkewMs: -5_000 });
    try {
      const report = await doctor(path);
      expect(line(report, 'clock').status).toBe('warn');
      expect(line(report, 'clock').detail).toMatch(/^venue behind by/);
      expect(report.exitCode).toBe(1);
    } finally {
      sandbox.faults.set({ clockSkewMs: 0 });
    }
  });

  it('a market the venue does not list: the markets line names the entry and where it is written, exit 2', async () => {
    const path = liveConfig('unknown.yaml', { slugs: [slugs[0]!, 'no-such-market'] });
    const report = await doctor(path);
    expect(report.exitCode).toBe(2);
    expect(line(report, 'markets')).toMatchObject({ status: 'fail', detail: "data.markets.slugs: 'no-such-market' is not a market of the venue (404)" });
  });

  it('a store that cannot be created: a folder that does not exist fails the store line, exit 2', async () => {
    const path = liveConfig('no-folder.yaml', { slugs: slugs.slice(0, 1), store: join(dir, 'missing', 'run.db') });
    const report = await doctor(path);
    expect(report.exitCode).toBe(2);
    expect(line(report, 'store')).toMatchObject({ status: 'fail', detail: `${join(dir, 'missing', 'run.db')}: cannot be created: the folder ${join(dir, 'missing')} does not exist` });
  });

  it('the embedded sandbox: no store is fine (it starts empty each time); a store of an earlier live run fails (the run refuses it)', async () => {
    const embedded = (name: string, store: string | undefined) => {
      const path = join(dir, name);
      const lines = ['mode: live', 'venue:', '  embedded: { seed: 1, markets: 4, events: 2, flow: { enabled: false } }', 'data:', '  markets: { filter: { maxCount: 1 } }', 'strategies:', '  - id: mm', `    module: ${resolve('strategies/market-maker.ts')}`];
      writeFileSync(path, [...lines, ...(store === undefined ? [] : ['store:', `  path: ${store}`]), ''].join('\n'));
      return path;
    };
    const bare = await doctor(embedded('embedded-bare.yaml', undefined), {});
    expect(line(bare, 'store')).toMatchObject({ status: 'ok', detail: expect.stringContaining('the embedded sandbox starts empty each time') as unknown });
    const storePath = join(dir, 'embedded-earlier.db');
    const store = RunStore.open(storePath, { create: true });
    store.reserveIds(1);
    store.saveOrder({ request: { kind: 'place', tokenId: '1', side: 'BUY', price: 500_000, size: 10_000_000, orderType: 'GTC', tag: 'x', strategyId: 'mm', clientOrderId: `${store.runId}${'1'.padStart(24, '0')}`, conditionId: '0x01', createdAt: 1 }, status: 'CANCELED', orderId: '0x01', filled: 0 }, 2);
    store.close();
    const earlier = await doctor(embedded('embedded-earlier.yaml', storePath), {});
    expect(line(earlier, 'store')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`${storePath}: holds an earlier live run`) as unknown });
    expect(earlier.exitCode).toBe(2);
  });
});

// A read-only mount made in a private user and mount namespace (`unshare -rm`), as root or not;
// where the kernel refuses namespaces the test cannot be run.
const canMount = spawnSync('unshare', ['-rm', 'true']).status === 0;

describe.skipIf(!canMount)('clobot doctor: a store on a read-only mount', () => {
  it('fails the store line saying the file system is read-only, exit 2', async () => {
    const path = liveConfig('ro.yaml', { slugs: slugs.slice(0, 1) });
    const script = [
      'd=$(mktemp -d)',
      'mount -t tmpfs -o ro tmpfs "$d" || exit 98',
      `"$1" bin/clobot.mjs doctor "$2" --set store.path="$d/run.db"`,
      'echo "exit $?"',
      'umount "$d" && rmdir "$d"',
    ].join('\n');
    // not spawnSync: the sandbox answers the doctor from this process
    const child = spawn('unshare', ['-rm', 'sh', '-c', script, 'sh', process.execPath, path], { env: { ...process.env, CLOBOT_PRIVATE_KEY: KEY, CLOBOT_DEBUG: '' } });
    const r = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (r.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (r.stderr += d.toString()));
    await once(child, 'close');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^store\s+FAIL\s+\/tmp\/\S+\/run\.db: cannot be created: the folder is on a read-only file system/m);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('exit 2');
  }, 60_000);
});
