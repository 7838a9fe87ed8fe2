import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { churn, DEFAULT_MM, liveAtVenue, startE2E, waitFor, type E2E } from './harness.ts';

/**
 * Issue 14 point 3: the halt file is read before anything is sent. A run started with the file
 * present sends no order at all (the sandbox receives none) and says it is halted; once the file
 * is removed, trading starts.
 */

let run: E2E | undefined;
let dir: string | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('e2e: halt file present at start', () => {
  it('sends nothing while the file exists, then trades once it is removed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clobot-halt-'));
    const haltFile = join(dir, 'HALT');
    writeFileSync(haltFile, 'maintenance\n');
    run = await startE2E({ strategies: [DEFAULT_MM, churn()], config: { risk: { haltFile } } });
    const e = run;
    // halted from the first moment, before any market data reached a strategy
    expect(e.session.engine.halted).toBe(`halt file ${haltFile} exists`);

    // the strategies ask for orders; every one is denied by the halt, none reaches the venue
    await waitFor('orders denied by the halt', () => e.orderEvents('OrderDenied').filter((d) => d.code === 'TRADING_HALTED').length >= 10, 20_000);
    expect(e.orderEvents('OrderDenied').every((d) => d.code === 'TRADING_HALTED' && d.reason.includes('halt file'))).toBe(true);
    expect(await e.adminOrders()).toEqual([]);
    const routes = (await e.adminStats()).routes;
    expect((routes['postOrders'] ?? 0) + (routes['postOrder'] ?? 0)).toBe(0);
    const halted = e.summary();
    expect(halted.ordersSubmitted).toBe(0);
    expect(halted.ordersDenied['TRADING_HALTED']).toBeGreaterThanOrEqual(10);

    // the file goes: the next look resumes trading
    rmSync(haltFile);
    await waitFor('orders resting at the venue after the halt file went', async () => (await liveAtVenue(e)).length > 0, 20_000);
    expect(e.session.engine.halted).toBeUndefined();
    await e.stop();
    expect(await liveAtVenue(e)).toEqual([]);
  }, 60_000);
});
