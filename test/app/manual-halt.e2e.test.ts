import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { baseConfig, churn, DEFAULT_SANDBOX, TEST_PRIVATE_KEY, waitFor } from '../engine/e2e/harness.ts';

/**
 * Issue 14 point 3, the manual halt: a SIGUSR2 that reaches `clobot run` while it is still
 * starting halts it before its first order (it used to kill the process: SIGUSR2's default),
 * and the next SIGUSR2 lifts the halt. Issue 20 point 4: SIGUSR2 and the halt file are two
 * clients of the engine's commands, each with its own named halt: removing the halt file does
 * not lift a SIGUSR2 halt.
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


/** `clobot run <config> <args>` as a child process, its output gathered as it comes. */
function clobotRun(config: Record<string, unknown>, name: string, args: readonly string[]) {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, stringify(config));
  const child = spawn(process.execPath, ['bin/clobot.mjs', 'run', path, '--no-status', ...args], {
    env: { ...process.env, CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => (out.stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out.stderr += b.toString()));
  const exited = once(child, 'exit');
  /** SIGINT, a clean exit (0, no error), and the summary it wrote. */
  const stop = async (summaryPath: string): Promise<EngineSummary> => {
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(out.stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    return JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
  };
  return { child, out, stop };
}

describe('clobot run: SIGUSR2 while starting', () => {
  it('starts halted and sends nothing, then trades once a second SIGUSR2 lifts the halt', async () => {
    const config = baseConfig(sandbox.url, dir, [churn()]);
    config['logging'] = { level: 'info', file: join(dir, 'run.log') };
    const summaryPath = join(dir, 'summary.json');
    const posts = await orderPosts();
    const { child, out, stop } = clobotRun(config, 'run', ['--summary', summaryPath]);

    // the first line says the run is starting: nothing has been sent yet
    await waitFor('the run starting', () => out.stdout.includes('"run starting"'), 30_000);
    child.kill('SIGUSR2');
    await waitFor('the run started', () => out.stdout.includes('"run started"'), 30_000);
    // the strategy asks for orders on every book: all are denied (the summary counts them), none reaches the venue
    await new Promise((r) => setTimeout(r, 4_000));
    expect(await orderPosts()).toBe(posts);

    child.kill('SIGUSR2');
    await waitFor('an order post after the halt was lifted', async () => (await orderPosts()) > posts, 20_000);
    const summary = await stop(summaryPath);
    expect(summary.ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);
    expect(summary.ordersSubmitted).toBeGreaterThan(0);
  }, 90_000);
});

/** Whether the process catches SIGUSR2 (Linux: bit 11 of SigCgt in /proc/<pid>/status), or undefined off Linux. */
function catchesUsr2(pid: number): boolean | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('SigCgt:'));
    return line === undefined ? undefined : (BigInt(`0x${line.slice(7).trim()}`) & 0x800n) !== 0n;
  } catch {
    return undefined;
  }
}

describe('clobot run: SIGUSR2 before the sources have loaded', () => {
  it.skipIf(process.platform !== 'linux')('is counted from the first instruction: the run starts halted instead of dying', async () => {
    const config = baseConfig(sandbox.url, dir, [churn()]);
    config['logging'] = { level: 'info', file: join(dir, 'early.log') };
    const summaryPath = join(dir, 'early-summary.json');
    const posts = await orderPosts();
    const { child, out, stop } = clobotRun(config, 'early', ['--summary', summaryPath]);
    // the moment bin/clobot.mjs listens, long before the run's own listener (no line is out yet)
    await waitFor('the early SIGUSR2 listener', () => catchesUsr2(child.pid!) === true, 30_000);
    const early = !out.stdout.includes('"run starting"');
    child.kill('SIGUSR2');
    await waitFor('the run started halted', () => out.stdout.includes('"run started"') && out.stdout.includes('"trading halted"'), 30_000);
    expect(child.exitCode).toBeNull();
    expect(await orderPosts()).toBe(posts);
    await stop(summaryPath);
    // the signal came before the run's own listener existed (else this test proves nothing new)
    expect(early).toBe(true);
  }, 90_000);
});

describe('clobot run: a SIGUSR2 halt and the halt file', () => {
  it('removing the halt file lifts only its own halt: the SIGUSR2 halt stays on until the next SIGUSR2', async () => {
    const config = baseConfig(sandbox.url, dir, [churn()]);
    const haltFile = join(dir, 'HALT-2');
    config['logging'] = { level: 'info', file: join(dir, 'run-2.log') };
    (config['risk'] as Record<string, unknown>)['haltFile'] = haltFile;
    const storePath = join(dir, 'halts.sqlite');
    const summaryPath = join(dir, 'summary-2.json');
    const { child, out, stop } = clobotRun(config, 'run-2', ['--store', storePath, '--summary', summaryPath]);
    const logged = (msg: string, halt: string) => out.stdout.split('\n').some((line) => line.includes(`"msg":"${msg}"`) && line.includes(`"halt":"${halt}"`));

    await waitFor('the run started', () => out.stdout.includes('"run started"'), 30_000);
    const start = await orderPosts();
    await waitFor('orders posted', async () => (await orderPosts()) > start, 20_000);

    child.kill('SIGUSR2');
    await waitFor('the signal halt', () => logged('trading halted', 'signal'), 10_000);
    writeFileSync(haltFile, 'maintenance\n');
    await waitFor('the file halt', () => logged('trading halted', 'file'), 10_000);
    rmSync(haltFile);
    await waitFor('the file halt lifted, the run still halted', () => logged('halt lifted, still halted', 'file'), 10_000);
    expect(existsSync(haltFile)).toBe(false);
    // still halted by the signal: the strategy asks on every book and nothing reaches the venue
    const halted = await orderPosts();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await orderPosts()).toBe(halted);
    expect(logged('trading resumed', 'file')).toBe(false);

    child.kill('SIGUSR2');
    await waitFor('trading resumed', () => logged('trading resumed', 'signal'), 10_000);
    await waitFor('an order post after the signal halt was lifted', async () => (await orderPosts()) > halted, 20_000);
    const summary = await stop(summaryPath);
    expect(summary.ordersDenied['TRADING_HALTED']).toBeGreaterThan(0);

    // the store journaled each command with what it did, in order
    const store = RunStore.open(storePath);
    try {
      const commands = [...store.journalEvents()].flatMap((row) => (row.event.type === 'command' ? [row.event] : []));
      expect(commands.map((c) => [c.command.type, 'name' in c.command ? c.command.name : undefined, c.result.halts])).toEqual([
        ['halt', 'signal', ['signal']],
        ['halt', 'file', ['signal', 'file']],
        ['resume', 'file', ['signal']],
        ['resume', 'signal', []],
      ]);
    } finally {
      store.close();
    }
  }, 120_000);
});
