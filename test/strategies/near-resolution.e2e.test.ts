import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { FillEvent, LifecycleEvent } from '../../src/core/events.ts';
import { createLogger } from '../../src/core/log.ts';
import type { NearEndView } from '../../src/sandbox/flow/near-end-episodes.ts';
import { sandboxRig, until, type SandboxRig } from '../app/run-helpers.ts';
import { baseConfig } from '../engine/e2e/harness.ts';

/**
 * near-resolution live against the sandbox over loopback with two near-end episodes: a market
 * whose favourite drifts toward certainty and resolves to it (the strategy buys it in its band,
 * holds it, and the engine settles it at 1), and one whose favourite collapses once the strategy
 * holds it (`POST /admin/near-end/collapse`: the strategy sells at the bid under its stop, and
 * holds nothing at the resolution).
 */

const TEST_PRIVATE_KEY = '0x' + '7b'.repeat(32);
const MODULE = join(process.cwd(), 'strategies/near-resolution.ts');
let rig: SandboxRig;

beforeAll(async () => {
  rig = await sandboxRig({ seed: 5, markets: 16, events: 6, flow: { enabled: true, intensity: 2 }, resolution: { resolveAfterMs: 1_000 } }, 'clobot-near-resolution-');
});
afterAll(async () => {
  await rig?.close();
});

describe('near-resolution against the sandbox', () => {
  it('buys the favourite near its end date and holds it to settlement; sells a favourite that breaks down', async () => {
    // two episodes before the run starts (a run reads the end dates when it lists its markets)
    const holds = (await rig.admin('/admin/near-end', { favourite: 0, approachMs: 45_000, startPrice: 0.91, endPrice: 0.97, breakdown: false })) as unknown as NearEndView;
    const breaks = (await rig.admin('/admin/near-end', { favourite: 1, approachMs: 45_000, startPrice: 0.91, endPrice: 0.97, breakdown: false })) as unknown as NearEndView;
    const market = (v: NearEndView) => rig.sandbox.world.marketByConditionId(v.conditionId)!;
    const path = join(rig.dir, 'near-resolution.yaml');
    // the e2e harness's live config, on the two markets, closes and resolutions read every 500 ms
    const config = baseConfig(rig.sandbox.url, rig.dir, [{ id: 'nr', module: MODULE, params: { windowMs: 60_000, minTimeLeftMs: 1_000, size: 10, maxPerMarket: 20, maxTotal: 40, stopPrice: 0.8, entryGapMs: 2_000, maxSpread: 0.05 } }]);
    config['data'] = { transport: 'ws', marketStatusMs: 500, markets: { conditionIds: [holds.conditionId, breaks.conditionId] } };
    config['logging'] = { level: 'silent' };
    writeFileSync(path, stringify(config));
    const session = await startRunSession({ config: loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }), logger: createLogger({ level: 'silent' }) });
    const fills: FillEvent[] = [];
    const lifecycle: LifecycleEvent[] = [];
    session.engine.bus.subscribe((e) => {
      if (e.type === 'fill') fills.push(e.fill);
      if (e.type === 'lifecycle') lifecycle.push(e.event);
    });
    const favourite = market(holds).tokens[0].tokenId;
    const collapsing = market(breaks).tokens[1].tokenId;
    try {
      // the run reads each market's end date from the venue
      expect(session.engine.cache.get(favourite)?.rules.endDate).toBe(holds.endDate);
      // once the strategy holds the second favourite, it breaks down (the sandbox's breakdown, on demand)
      await until('a buy of the second favourite', () => fills.some((f) => f.tokenId === collapsing && f.side === 'BUY'), 40_000);
      await rig.admin('/admin/near-end/collapse', { market: breaks.conditionId });
      const resolved = (id: string) => lifecycle.some((e) => e.type === 'MarketResolved' && e.conditionId === id);
      await until('both markets resolved', () => resolved(holds.conditionId) && resolved(breaks.conditionId), 90_000);

      const orders = [...session.engine.tracker.all()];
      // the favourite: bought within the band, never sold, settled at 1 by the resolution
      const bought = orders.filter((o) => o.request.tokenId === favourite && o.request.ref === 'nr-entry' && o.filled > 0);
      expect(bought.length).toBeGreaterThan(0);
      expect(bought.every((o) => o.request.side === 'BUY' && o.request.price >= 900_000 && o.request.price <= 980_000)).toBe(true);
      expect(orders.some((o) => o.request.tokenId === favourite && o.request.side === 'SELL')).toBe(false);
      const held = session.engine.ledger.position('nr', favourite);
      expect(held.size).toBe(0);
      expect(held.realizedPnl).toBeGreaterThan(0);
      // the breakdown: bought, then sold under the stop before the end
      expect(fills.some((f) => f.tokenId === collapsing && f.side === 'BUY')).toBe(true);
      const stops = fills.filter((f) => f.tokenId === collapsing && f.side === 'SELL');
      expect(stops.length).toBeGreaterThan(0);
      expect(stops.every((f) => f.price < 800_000)).toBe(true);
      expect(session.engine.ledger.position('nr', collapsing).size).toBe(0);
    } finally {
      await session.stop();
    }
  }, 115_000);
});
