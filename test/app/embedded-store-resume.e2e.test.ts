import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { StoreError } from '../../src/core/errors.ts';
import { createLogger } from '../../src/core/log.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { REPO_ROOT, waitFor } from '../engine/e2e/harness.ts';

/**
 * A live run on the embedded sandbox with `--store`, stopped and started again with the same
 * store: the new sandbox starts empty, so the store's orders, positions and cash are not at it.
 * Resumed, the strategies sold shares the account did not hold (27 venue rejects in 5 s, then the
 * kill switch and hundreds of denials). The second start is refused with one StoreError naming
 * the store (exit 2), nothing sent, and the store left as it was.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const dir = mkdtempSync(join(tmpdir(), 'clobot-embedded-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a live store on the embedded sandbox', () => {
  it('is refused when a second run on a new embedded sandbox would resume it', async () => {
    const storePath = join(dir, 'live.sqlite');
    const path = join(dir, 'live.yaml');
    writeFileSync(
      path,
      stringify({
        mode: 'live',
        venue: { embedded: { seed: 1, markets: 6, events: 2, flow: { enabled: false } } },
        data: { pollIntervalMs: 200, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } },
        strategies: [{ id: 'tq', module: STRATEGY, params: { tag: 'embedded-store', size: 5 } }],
        store: { path: storePath },
        logging: { level: 'silent' },
      }),
    );
    const logger = createLogger({ level: 'silent' });
    const first = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger });
    try {
      await waitFor('the first run to buy', () => first.engine.summary().fills > 0, 30_000);
    } finally {
      await first.stop();
    }
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
});
