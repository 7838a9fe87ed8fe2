import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keepEventLoopPolling } from '../../src/core/busy-poll.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** CPU time this process spends while it waits `ms` on a timer. */
async function cpuWhileWaiting(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('keepEventLoopPolling', () => {
  it('keeps the thread running while it waits, timers still fire on time, and the thread sleeps again after stop', async () => {
    const asleep = await cpuWhileWaiting(300);
    const stop = keepEventLoopPolling();
    let fired = 0;
    const t = setInterval(() => fired++, 10);
    const polling = await cpuWhileWaiting(300);
    clearInterval(t);
    stop();
    await new Promise((r) => setTimeout(r, 20));
    const after = await cpuWhileWaiting(300);
    // a polling loop uses its core; a sleeping one nearly nothing (thresholds far from both)
    expect(asleep).toBeLessThan(60);
    expect(polling).toBeGreaterThan(100);
    expect(after).toBeLessThan(60);
    expect(fired).toBeGreaterThanOrEqual(20);
  });

  it('once stopped, it does not keep the process alive', () => {
    const code = `import { keepEventLoopPolling } from './src/core/busy-poll.ts';
      const stop = keepEventLoopPolling();
      setTimeout(() => { stop(); console.log('stopped'); }, 50);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
    expect({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, signal: null, stdout: 'stopped\n', stderr: '' });
  });
});
