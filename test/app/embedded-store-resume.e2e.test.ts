import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { StoreError } from '../../src/core/errors.ts';
import { createLogger } from '../../src/core/log.ts';
import { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { REPO_ROOT, waitFor } from '../engine/e2e/harness.ts';

/**
 * A run on the embedded sandbox given a store, stopped and started again with the same store.
 * Live: the new sandbox starts empty, so the store's orders, positions and cash are not at it;
 * resumed, the strategies sold shares the account did not hold (27 venue rejects in 5 s, then the
 * kill switch and hundreds of denials). The second start is refused with one StoreError naming
 * the store (exit 2), nothing sent, the store left as it was. Paper: the venue is simulated in
 * the process; it started empty too, so every SELL of a held position was refused "not enough
 * balance / allowance" (15 in 15 s of the init project's quoter). Its account now holds what the
 * store says the run holds.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const dir = mkdtempSync(join(tmpdir(), 'clobot-embedded-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logger = createLogger({ level: 'silent' });

/** A config of `mode` on the embedded sandbox (no flow) with a store; the strategy buys 5 once, then rests a bid. */
function configFile(mode: 'live' | 'paper'): { path: string; storePath: string } {
  const path = join(dir, `${mode}.yaml`);
  const storePath = join(dir, `${mode}.sqlite`);
  writeFileSync(
    path,
    stringify({
      mode,
      venue: { embedded: { seed: 1, markets: 6, events: 2, flow: { enabled: false } } },
      data: { pollIntervalMs: 200, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } },
      strategies: [{ id: 'tq', module: STRATEGY, params: { tag: `embedded-store-${mode}`, size: 5 } }],
      store: { path: storePath },
      ...(mode === 'paper' ? { paper: { balance: 1000 } } : {}),
      logging: { level: 'silent' },
    }),
  );
  return { path, storePath };
}

/** A first life that buys, stopped. */
async function firstLife(path: string): Promise<void> {
  const first = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger });
  try {
    await waitFor('the first run to buy', () => first.engine.summary().fills > 0, 30_000);
  } finally {
    await first.stop();
  }
}

describe('a store on the embedded sandbox', () => {
  it('live: is refused when a second run on a new embedded sandbox would resume it', async () => {
    const { path, storePath } = configFile('live');
    await firstLife(path);
    const before = RunStore.open(storePath);
    const stored = { orders: before.load().orders.length, fills: before.load().fills.length };
    before.close();
    expect(stored.fills).toBeGreaterThan(0);

    const refused = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger }).then(
      async (second) => {
        await second.stop();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StoreError);
    expect((refused as StoreError).code).toBe('OTHER_VENUE');
    expect((refused as StoreError).message).toContain(storePath);
    expect((refused as StoreError).message).toContain('embedded sandbox');

    // the store is as the first run left it, and closed (no lock held)
    const after = RunStore.open(storePath);
    expect({ orders: after.load().orders.length, fills: after.load().fills.length }).toEqual(stored);
    after.close();
  }, 90_000);

  it('paper: resumed, the simulated venue holds the positions and cash the store holds', async () => {
    const { path } = configFile('paper');
    await firstLife(path);
    const second = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger });
    try {
      expect(second.resumed).toBe(true);
      const portfolio = second.engine.portfolio;
      const held = [...portfolio.tokenIds()].filter((t) => (portfolio.size(t) ?? 0) > 0);
      expect(held).toHaveLength(1);
      const venue = second.execution as SimulatedExecutionClient;
      expect(venue.position(held[0]!)).toBe(portfolio.size(held[0]!));
      expect(venue.collateral).toBe(portfolio.balance());
      expect(portfolio.balance()).toBeLessThan(1000_000_000);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
