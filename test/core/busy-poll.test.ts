import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { keepEventLoopPolling } from '../../src/core/busy-poll.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The event loop's utilization (libuv's: the share of the time the loop was not blocked waiting
 * for events) while this thread waits `ms` on a timer, or until `until` resolves. A loop that
 * polls never blocks (near 1), a sleeping one nearly always does (near 0). Unlike the CPU time
 * received, this does not depend on how loaded the machine is: a descheduled thread that was not
 * blocked in the poll still counts as busy.
 */
async function utilizationWhile(until: Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await until;
  return performance.eventLoopUtilization(before).utilization;
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('keepEventLoopPolling', () => {
  it('keeps the thread running while it waits, timers still fire, and the thread sleeps again after stop', async () => {
    const asleep = await utilizationWhile(sleep(300));
    const stop = keepEventLoopPolling();
    // a 10 ms interval fires 20 times while the loop polls (counted, not timed: a loaded machine
    // gives this thread less CPU, and a timer that fires late still fires)
    let fired = 0;
    let t: NodeJS.Timeout | undefined;
    const twenty = new Promise<void>((resolve) => {
      t = setInterval(() => {
        if (++fired === 20) resolve();
      }, 10);
    });
    const polling = await utilizationWhile(twenty);
    clearInterval(t);
    stop();
    await sleep(20);
    const after = await utilizationWhile(sleep(300));
    // a polling loop never blocks; a sleeping one nearly always does (thresholds far from both)
    expect(asleep).toBeLessThan(0.2);
    expect(polling).toBeGreaterThan(0.8);
    expect(after).toBeLessThan(0.2);
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
