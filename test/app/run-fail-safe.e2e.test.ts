import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Secret } from '../../src/core/secret.ts';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getOrCreateApiKey } from '../../src/venue/actions/get-or-create-api-key.ts';
import { withL1Auth } from '../../src/venue/auth/with-l1-auth.ts';
import { LiveClock } from '../../src/core/clock.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';
import { baseConfig, churn, DEFAULT_SANDBOX, TEST_PRIVATE_KEY, waitFor, type StrategySpec } from '../engine/e2e/harness.ts';
import { ESCAPING_MESSAGE } from './strategies/escaping-throw.ts';

/**
 * `clobot run` as a user runs it, against a sandbox on loopback, when things go wrong
 * (issue 14 points 1, 2 and 5): every cancel refused at stop exits 3 listing the orders still
 * live; a store on a full disk fails closed (nothing live, exit 4, one line, no stack); a log
 * file that cannot be written costs one warning; a wrong API secret exits 2 naming it, never
 * printing it.
 */

let sandbox: RunningSandbox;
let dir: string;
const ADDRESS = privateKeyToAddress(Buffer.from(TEST_PRIVATE_KEY.slice(2), 'hex'));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'clobot-fail-safe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await sandbox?.close();
});

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Writes a run config (the e2e base with the churn quoter, `patch` merged per section). */
function writeConfig(name: string, patch: Record<string, Record<string, unknown>> = {}, strategies: readonly StrategySpec[] = [churn()]): string {
  const config = baseConfig(sandbox.url, dir, strategies);
  config['logging'] = { level: 'info', file: join(dir, `${name}.log`) };
  for (const [section, values] of Object.entries(patch)) config[section] = { ...(config[section] as Record<string, unknown>), ...values };
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, stringify(config));
  return path;
}

/** Starts `clobot run`; `during` runs while it trades (it sees our orders at the venue first). */
async function clobotRun(args: string[], env: Record<string, string> = {}, during?: (child: ChildProcess) => Promise<void> | void): Promise<Ran> {
  const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', ...args, '--no-status'], {
    // no stack unless a test asks for one
    env: { ...process.env, CLOBOT_DEBUG: '', CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = once(child, 'exit');
  if (during) {
    await waitFor('orders resting at the venue', async () => (await liveAtVenue()).length > 0, 30_000);
    await during(child);
  }
  const [code] = (await exited) as [number | null];
  return { status: code, stdout, stderr };
}

/** Hashes of the orders resting at the sandbox. */
async function liveAtVenue(): Promise<string[]> {
  const res = await fetch(`${sandbox.url}/admin/orders`);
  const orders = (await res.json()) as { status: string; hash: string | null }[];
  return orders.filter((o) => o.status === 'LIVE').map((o) => o.hash ?? '');
}

describe('clobot run fails safe', () => {
  it('exits 3 listing the orders still live when the venue refuses every cancel at stop', async () => {
    sandbox = await startSandbox(DEFAULT_SANDBOX);
    const summaryPath = join(dir, 'refused.json');
    const config = writeConfig('refused', { execution: { stopDeadlineMs: 2_000 } });
    const ran = await clobotRun([config, '--duration', '600s', '--summary', summaryPath], {}, async (child) => {
      sandbox.faults.set({ errorRate: 1, routes: ['cancelAll', 'cancelOrders', 'cancelOrder'] });
      await waitFor('a few orders resting', async () => (await liveAtVenue()).length >= 2);
      child.kill('SIGTERM');
    });
    expect(ran.status).toBe(3);
    const live = await liveAtVenue();
    expect(live.length).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
    expect(summary.stop?.verified).toBe(false);
    expect(summary.stop?.live.map((o) => o.orderId).sort()).toEqual([...live].sort());
    const lines = ran.stderr.trim().split('\n');
    const last = lines[lines.length - 1] as string;
    expect(last).toMatch(new RegExp(`^clobot: .*${live.length} order\\(s\\) still live at the venue after the stop: `));
    for (const id of live) expect(last).toContain(id);
    expect(readFileSync(join(dir, 'refused.log'), 'utf8')).toContain('"msg":"orders still live at the venue after the stop"');
  }, 120_000);

  it.skipIf(!canMountTmpfs())('fails closed when the store\'s disk fills: nothing live, exit 4, one line and no stack', async () => {
    sandbox = await startSandbox(DEFAULT_SANDBOX);
    const small = join(dir, 'small');
    mkdirSync(small);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small]).status).toBe(0);
    try {
      const summaryPath = join(dir, 'full.json');
      const ran = await clobotRun([writeConfig('full'), '--store', join(small, 'run.db'), '--duration', '600s', '--summary', summaryPath], {}, () => {
        // the rest of the disk taken: the store's next write fails with SQLITE_FULL
        try {
          writeFileSync(join(small, 'filler'), Buffer.alloc(4 * 1024 * 1024));
        } catch (err) {
          expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
        }
      });
      expect(ran.status).toBe(4);
      expect(await liveAtVenue()).toEqual([]);
      expect(ran.stderr).not.toMatch(/^\s+at /m);
      const lines = ran.stderr.trim().split('\n');
      expect(lines[lines.length - 1]).toMatch(/^clobot: .*failed closed: store write failed: .*(full|disk)/i);
      const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
      expect(summary.stop).toEqual({ verified: true, rounds: expect.any(Number) as number, live: [] });
      expect(summary.alerts?.[0]).toMatch(/^store write failed: /);
      expect(readFileSync(join(dir, 'full.log'), 'utf8')).toContain('"msg":"fatal fault: trading halted, stopping"');
    } finally {
      spawnSync('umount', [small]);
    }
  }, 120_000);

  it('fails closed on an exception that escapes to the process: nothing live, exit 4, one line', async () => {
    sandbox = await startSandbox(DEFAULT_SANDBOX);
    const strategy: StrategySpec = { id: 'escaping', module: join(import.meta.dirname, 'strategies/escaping-throw.ts'), markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } };
    const summaryPath = join(dir, 'escaping.json');
    const ran = await clobotRun([writeConfig('escaping', {}, [strategy]), '--duration', '600s', '--summary', summaryPath]);
    expect(ran.status).toBe(4);
    expect(await liveAtVenue()).toEqual([]);
    expect(ran.stderr).not.toMatch(/^\s+at /m);
    const lines = ran.stderr.trim().split('\n');
    expect(lines[lines.length - 1]).toBe(`clobot: RunEndError: failed closed: unexpected exception: ${ESCAPING_MESSAGE}; trading stopped, no order of ours live at the venue`);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
    expect(summary.ordersAccepted).toBeGreaterThan(0);
    expect(summary.stop?.verified).toBe(true);
    expect(summary.alerts).toEqual([`unexpected exception: ${ESCAPING_MESSAGE}`]);
  }, 120_000);

  it('runs with one warning on stderr when the log file cannot be written (a folder, under /proc)', async () => {
    sandbox = await startSandbox(DEFAULT_SANDBOX);
    for (const [name, file] of [
      ['folder', dir],
      ['proc', '/proc/1/nope/run.log'],
    ] as const) {
      const config = writeConfig(name);
      writeFileSync(config, readFileSync(config, 'utf8').replace(join(dir, `${name}.log`), file));
      const ran = await clobotRun([config, '--duration', '2s']);
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stderr.match(/^warning: log file .* cannot be written .*; logging to stderr$/gm)?.length).toBe(1);
      expect(ran.stderr).toContain('"msg":"run stopped"');
    }
  }, 120_000);

  it('exits 2 naming the API secret the venue refused at start, never printing it, sending no order', async () => {
    sandbox = await startSandbox(DEFAULT_SANDBOX);
    const client = createVenueClient({ baseUrl: sandbox.url, profile: 'interface', clock: new LiveClock() });
    const auth = { privateKey: new Secret(TEST_PRIVATE_KEY), address: ADDRESS, chainId: 137 };
    const creds = await getOrCreateApiKey(withL1Auth(client, auth), auth);
    const wrongSecret = Buffer.alloc(32, 7).toString('base64url');
    expect(wrongSecret).not.toBe(creds.secret.reveal());
    const ran = await clobotRun([writeConfig('secret'), '--duration', '30s'], {
      CLOBOT_API_KEY: creds.apiKey,
      CLOBOT_API_SECRET: wrongSecret,
      CLOBOT_API_PASSPHRASE: creds.passphrase.reveal(),
    });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/^clobot: the venue refused the API secret \(CLOBOT_API_SECRET\): /m);
    const output = ran.stdout + ran.stderr + readFileSync(join(dir, 'secret.log'), 'utf8');
    for (const secret of [wrongSecret, creds.passphrase.reveal(), creds.secret.reveal()]) expect(output).not.toContain(secret);
    const stats = (await (await fetch(`${sandbox.url}/admin/stats`)).json()) as { routes: Record<string, number> };
    expect(stats.routes['postOrders'] ?? 0).toBe(0);
  }, 120_000);
});

/** True when this process may mount a small tmpfs (root on Linux). */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'clobot-tmpfs-probe-'));
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status === 0;
  if (ok) spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return ok;
}
