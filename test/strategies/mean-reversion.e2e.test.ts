import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { FillEvent } from '../../src/core/events.ts';
import { createLogger } from '../../src/core/log.ts';
import { sandboxRig, until, type SandboxRig } from '../app/run-helpers.ts';

/**
 * mean-reversion live against the sandbox over loopback, its synthetic flow moving the books: the
 * strategy buys a token whose mid fell under its recent mean and sells it back (reverted, stopped
 * or timed out); nothing is left open in the end but what it holds between the two.
 */

const TEST_PRIVATE_KEY = '0x' + '6a'.repeat(32);
const MODULE = join(process.cwd(), 'strategies/mean-reversion.ts');
let rig: SandboxRig;

beforeAll(async () => {
  rig = await sandboxRig({ seed: 7, markets: 20, flow: { enabled: true, intensity: 6 } }, 'clobot-mean-reversion-');
});
afterAll(async () => {
  await rig?.close();
});

describe('mean-reversion against the sandbox', () => {
  it('enters on a dip of the z-score and exits, with fills at the venue', async () => {
    const path = join(rig.dir, 'mean-reversion.yaml');
    // a short window and a low bar: the flow's wobbles are enough for an entry within seconds
    const params = { window: 10, sampleMs: 200, entryZ: 1.2, exitZ: 0, stopLoss: 0.03, maxHoldMs: 4_000, size: 5, maxSpread: 0.1, minStdev: 0.001, cooldownMs: 0 };
    writeFileSync(
      path,
      stringify({
        mode: 'live',
        venue: { baseUrl: rig.sandbox.url },
        account: { signatureType: 0 },
        data: { transport: 'poll', pollIntervalMs: 100, markets: { filter: { active: true, acceptingOrders: true, maxCount: 12 } } },
        strategies: [{ id: 'mr', module: MODULE, params }],
        risk: { maxOrderNotional: 50, haltFile: join(rig.dir, 'HALT') },
        logging: { level: 'silent' },
      }),
    );
    const session = await startRunSession({ config: loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }), logger: createLogger({ level: 'silent' }) });
    const fills: FillEvent[] = [];
    session.engine.bus.subscribe((e) => {
      if (e.type === 'fill') fills.push(e.fill);
    });
    try {
      await until('an entry filled and sold back', () => fills.some((f) => f.side === 'BUY') && fills.some((f) => f.side === 'SELL'), 90_000);
      const orders = [...session.engine.tracker.all()];
      const entry = orders.find((o) => o.request.ref === 'mr-entry' && o.filled > 0)!;
      expect(entry.request.side).toBe('BUY');
      expect(entry.request.orderType).toBe('FAK');
      const exit = orders.find((o) => o.request.ref?.startsWith('mr-exit-') && o.filled > 0)!;
      expect(exit.request.side).toBe('SELL');
      // the sale was of what an entry bought: never more than held
      expect(session.engine.ledger.position('mr', exit.request.tokenId).size).toBeGreaterThanOrEqual(0);
    } finally {
      await session.stop();
    }
  }, 110_000);
});
