import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MM, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 28 (low): `logging.level: trace` (and debug) add lines: a line per order batch with its
 * timings at debug, a line per venue request at trace; at info neither is written.
 */

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
  delete process.env['CLOBOT_E2E_LOG'];
});

const lines = (e: E2E): { msg?: string; level?: number; route?: string; status?: number; orders?: number; tickToTradeMs?: number }[] =>
  readFileSync(join(e.dir, 'run.log'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { msg?: string });

describe('e2e: log levels below info', () => {
  it('trace logs each venue request and debug each order batch; info logs neither', async () => {
    process.env['CLOBOT_E2E_LOG'] = 'trace';
    run = await startE2E({ strategies: [DEFAULT_MM] });
    const e = run;
    await waitFor('an order batch and venue requests in the log', () => {
      const all = lines(e);
      return all.some((l) => l.msg === 'order batch') && all.some((l) => l.msg === 'venue request' && l.route === 'postOrders');
    }, 30_000);
    const all = lines(e);
    const request = all.find((l) => l.msg === 'venue request' && l.route === 'postOrders')!;
    expect(request).toMatchObject({ level: 10, status: 200 });
    const batch = all.find((l) => l.msg === 'order batch')!;
    expect(batch.level).toBe(20);
    expect(batch.orders).toBeGreaterThan(0);
    expect(batch.tickToTradeMs).toBeGreaterThanOrEqual(0);
    await e.stop();
    await run.close();

    process.env['CLOBOT_E2E_LOG'] = 'info';
    run = await startE2E({ strategies: [DEFAULT_MM] });
    const quiet = run;
    await waitFor('orders at the venue', () => quiet.summary().ordersSubmitted > 0, 30_000);
    await quiet.stop();
    expect(lines(quiet).filter((l) => l.msg === 'order batch' || l.msg === 'venue request')).toEqual([]);
  }, 90_000);
});
