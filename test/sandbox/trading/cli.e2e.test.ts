import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { firstLine } from '../../child-lines.ts';
import { send } from './harness.ts';

/** `clobot sandbox` with the trading flags, as a user runs it. */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('clobot sandbox trading flags', () => {
  it('sets the trading faults, the starting balance and the heartbeat timeout', async () => {
    const child = spawn(process.execPath, [
      'bin/clobot.mjs', 'sandbox', '--port', '0', '--markets', '20', '--events', '4', '--no-flow',
      '--stall-ms', '7', '--drop-after-accept', '0.25', '--mode', 'post-only', '--ignore-heartbeats',
      '--starting-balance', '500', '--heartbeat-timeout-ms', '2500',
    ], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const line = await firstLine(child, () => out);
      expect(line, err).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.slice('listening on '.length);
      const faults = (await send(`${url}/admin/faults`, 'GET', {})).body;
      expect(faults).toMatchObject({ stallMs: 7, dropAfterAccept: 0.25, mode: 'post-only', ignoreHeartbeats: true });
      const trading = (await send(`${url}/admin/trading`, 'GET', {})).body;
      expect(trading).toMatchObject({ startingBalance: '500', heartbeatTimeoutMs: 2500, profile: 'interface' });
      const fresh = (await send(`${url}/admin/balances?address=0x00000000000000000000000000000000000000F1`, 'GET', {})).body;
      expect(fresh.collateral).toBe('500');
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses a bad mode with a usage error', async () => {
    const child = spawn(process.execPath, ['bin/clobot.mjs', 'sandbox', '--mode', 'sleepy'], { cwd: ROOT });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).not.toBe(0);
    expect(err).toMatch(/--mode/);
  });
});
