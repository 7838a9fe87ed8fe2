import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { baseConfig, churn, DEFAULT_SANDBOX, TEST_PRIVATE_KEY, waitFor } from '../engine/e2e/harness.ts';

/**
 * Issue 14 point 3, the manual halt: a SIGUSR2 that reaches `clobot run` while it is still
 * starting halts it before its first order (it used to kill the process: SIGUSR2's default),
 * and the next SIGUSR2 lifts the halt.
 */

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clobot-manual-halt-'));
  sandbox = await startSandbox({ ...DEFAULT_SANDBOX, port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function orderPosts(): Promise<number> {
  const stats = (await (await fetch(`${sandbox.url}/admin/stats`)).json()) as { routes: Record<string, number> };
  return (stats.routes['postOrders'] ?? 0) + (stats.routes['postOrder'] ?? 0);
}

describe('clobot run: SIGUSR2 while starting', () => {
  it('starts halted and sends nothing, then trades once a second SIGUSR2 lifts the halt', async () => {
    const config = baseConfig(sandbox.url, dir, [churn()]);
    config['logging'] = { level: 'info', file: join(dir, 'run.log') };
    const path = join(dir, 'run.yaml');
    writeFileSync(path, stringify(config));
    const summaryPath = join(dir, 'summary.json');
    const posts = await orderPosts();

    const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', path, '--no-status', '--summary', summaryPath], {
      env: { ...process.env, CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = once(child, 'exit');

    // the first line says the run is starting: nothing has been sent yet
    await waitFor('the run starting', () => stdout.includes('"run starting"'), 30_000);
    child.kill('SIGUSR2');
    await waitFor('the run started', () => stdout.includes('"run started"'), 30_000);
    // the strategy asks for orders on every book: all are denied (the summary counts them), none reaches the venue
    await new Promise((r) => setTimeout(r, 4_000));
    expect(await orderPosts()).toBe(posts);

    child.kill('SIGUSR2');
    await waitFor('an order post after the halt was lifted', async () => (await orderPosts()) > posts, 20_000);
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
    expect(summary.ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);
    expect(summary.ordersSubmitted).toBeGreaterThan(0);
  }, 90_000);
});
