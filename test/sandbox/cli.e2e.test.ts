import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LiveClock } from '../../src/core/clock.ts';
import { startSandbox } from '../../src/sandbox/server.ts';
import { ADMIN_TOKEN_ENV, SERVER_SECRET_ENV } from '../../src/cli/commands/sandbox.ts';
import { firstLine } from '../child-lines.ts';
import { call } from './helpers.ts';
import { TestTrader } from './trading/harness.ts';

/** `clobot sandbox` as a user runs it: a real process, its stdout line, signals and exit codes. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['bin/clobot.mjs', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function listening(r: Run): Promise<string> {
  const line = await firstLine(r.child, r.stdout);
  expect(line, r.stderr()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
  return line.slice('listening on '.length);
}

describe('clobot sandbox', () => {
  it('prints the listening line, serves, and exits 0 on SIGTERM', async () => {
    const r = run(['sandbox', '--port', '0']);
    try {
      const url = await listening(r);
      expect(Number(new URL(url).port)).toBeGreaterThan(0);
      expect((await call(`${url}/version`)).body).toEqual({ version: 2 });
      r.child.kill('SIGTERM');
      expect(await r.exit).toEqual({ code: 0, signal: null });
      expect(r.stdout()).toBe(`listening on ${url}\n`);
    } finally {
      r.child.kill('SIGKILL');
    }
  });

  it('takes the world, profile, fault and WS cap flags, and exits 0 on SIGINT', async () => {
    const r = run(['sandbox', '--port', '0', '--seed', '5', '--markets', '20', '--events', '4', '--profile', 'polymarket', '--latency-ms', '3', '--error-rate', '0', '--ws-max-connections-per-caller', '1']);
    try {
      const url = await listening(r);
      const markets = await call(`${url}/markets`);
      expect(markets.body.count).toBe(20);
      expect((await call(`${url}/events?limit=100`)).body).toHaveLength(4);
      expect((await call(`${url}/admin/faults`)).body).toMatchObject({ latencyMs: 3, errorRate: 0 });
      const fill = (await call<{ asset: string }[]>(`${url}/trades?limit=1&takerOnly=false`)).body[0]!;
      expect(fill.asset).toMatch(/^\d+$/); // polymarket profile: the token id
      const wsUrl = `${url.replace(/^http/, 'ws')}/ws/market`;
      const first = new WebSocket(wsUrl);
      await new Promise((resolve) => first.once('open', resolve));
      const second = new WebSocket(wsUrl);
      const closed = await new Promise<[number, string]>((resolve) => second.once('close', (code, reason) => resolve([code, reason.toString()])));
      expect(closed).toEqual([1008, 'too many connections from 127.0.0.1: 1 open (max 1)']);
      first.terminate();
      r.child.kill('SIGINT');
      expect(await r.exit).toEqual({ code: 0, signal: null });
    } finally {
      r.child.kill('SIGKILL');
    }
  });

  it.each([
    [['--port', 'abc'], '--port'],
    [['--port', '70000'], '--port'],
    [['--seed', '-1'], '--seed'],
    [['--markets', '0'], '--markets'],
    [['--ws-max-connections-per-caller', '0'], '--ws-max-connections-per-caller'],
    [['--profile', 'kalshi'], '--profile'],
    [['--error-rate', '1.5'], '--error-rate'],
    [['--latency-ms', 'soon'], '--latency-ms'],
    [['--colour'], '--colour'],
    [['--server-secret', 'not-hex-but-private'], '--server-secret'],
    [['--server-secret', 'abcd'], '--server-secret'],
    [['--server-secret', 'ab'.repeat(16), '--deterministic-keys'], '--deterministic-keys'],
    [['--admin-token', 'short-private'], '--admin-token'],
  ])('refuses %j with one line naming it and exit code 2', async (args, flag) => {
    const r = run(['sandbox', ...args]);
    const { code } = await r.exit;
    expect(code).toBe(2);
    expect(r.stdout()).toBe('');
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(flag);
    // a refused secret is not echoed
    for (const secret of ['not-hex-but-private', 'short-private']) expect(r.stderr()).not.toContain(secret);
  });

  /** The credentials of key 0x44, nonce 0, from a sandbox started with `args` and `env`. */
  async function credentialsOf(args: string[], env: Record<string, string> = {}): Promise<unknown> {
    const r = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--no-flow', ...args], env);
    try {
      const url = await listening(r);
      const answer = await new TestTrader(url, 'interface', new LiveClock(), 0x44).deriveKey(0);
      expect(answer.status).toBe(200);
      return answer.body;
    } finally {
      r.child.kill('SIGKILL');
      await r.exit;
    }
  }

  it('credentials: random at every start; the same for the same --server-secret (flag or env) and with --deterministic-keys', async () => {
    const secret = '0123456789abcdef'.repeat(4);
    const byFlag = await credentialsOf(['--server-secret', secret]);
    expect(await credentialsOf([], { [SERVER_SECRET_ENV]: secret })).toEqual(byFlag);
    const random = await credentialsOf([]);
    expect(random).not.toEqual(byFlag);
    // the seed-derived secret: the same as an in-process sandbox of the same seed with deterministicKeys
    const seeded = await startSandbox({ markets: 10, events: 3, flow: { enabled: false }, deterministicKeys: true });
    try {
      const inProcess = (await new TestTrader(seeded.url, 'interface', new LiveClock(), 0x44).deriveKey(0)).body;
      expect(await credentialsOf(['--deterministic-keys'])).toEqual(inProcess);
      expect(inProcess).not.toEqual(random);
    } finally {
      await seeded.close();
    }
  }, 60_000);

  it('--admin-token (or its env variable) guards the admin routes, and --help says how to send it', async () => {
    const token = 'cli-admin-token-0123456789';
    const r = run(['sandbox', '--port', '0', '--markets', '10', '--events', '3', '--no-flow'], { [ADMIN_TOKEN_ENV]: token });
    try {
      const url = await listening(r);
      expect((await call(`${url}/admin/faults`)).status).toBe(401);
      expect((await call(`${url}/admin/faults`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await call(`${url}/version`)).status).toBe(200);
      expect(r.stderr()).not.toContain(token);
    } finally {
      r.child.kill('SIGKILL');
      await r.exit;
    }
    const help = run(['sandbox', '--help']);
    expect(await help.exit).toEqual({ code: 0, signal: null });
    expect(help.stdout()).toContain('--admin-token <token>');
    expect(help.stdout()).toContain('authorization: Bearer <token>');
    expect(help.stdout()).toContain('--server-secret <hex>');
    expect(help.stdout()).toContain('--deterministic-keys');
  }, 60_000);
});
