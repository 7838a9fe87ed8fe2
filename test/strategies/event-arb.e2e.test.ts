import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { BasketEvent } from '../../src/core/basket-events.ts';
import { createLogger } from '../../src/core/log.ts';
import type { SandboxEvent } from '../../src/sandbox/world/model.ts';
import { sandboxRig, until, type SandboxRig } from '../app/run-helpers.ts';

/**
 * Issue 21, done-when: event-arb live against the sandbox over loopback. The sandbox's neg-risk
 * episodes (POST /admin/episodes) offer an event's YES set below 1: the strategy buys every
 * outcome in ONE basket; an episode whose one outcome's depth is withdrawn at our first order
 * (a forced partial fill) ends unwound within its cap, no leg left naked; an augmented event
 * offered just as cheap is never traded.
 */

const TEST_PRIVATE_KEY = '0x' + '5e'.repeat(32);
const MODULE = join(process.cwd(), 'strategies/event-arb.ts');
let rig: SandboxRig;

beforeAll(async () => {
  // no flow: the books move only with the episodes and our orders
  rig = await sandboxRig({ seed: 3, markets: 60, events: 16, flow: { enabled: false } }, 'clobot-event-arb-');
});
afterAll(async () => {
  await rig?.close();
});

function config(): string {
  const path = join(rig.dir, 'event-arb.yaml');
  const run = {
    mode: 'live',
    venue: { baseUrl: rig.sandbox.url },
    account: { signatureType: 0 },
    data: { transport: 'poll', pollIntervalMs: 200, markets: { filter: { active: true, acceptingOrders: true, maxCount: 100 } } },
    strategies: [{ id: 'arb', module: MODULE, params: { margin: 0.01, maxSets: 20, eventCap: 200, buyNoSets: false, exitAt: 0, cooldownMs: 600_000, maxUnwindLoss: 20 } }],
    risk: { maxNegRiskEventExposure: 300, haltFile: join(rig.dir, 'HALT') },
    logging: { level: 'silent' },
  };
  writeFileSync(path, stringify(run));
  return path;
}

const tokensOf = (e: SandboxEvent): Set<string> => new Set(e.markets.flatMap((m) => [m.tokens[0].tokenId, m.tokens[1].tokenId]));

describe('event-arb against the sandbox', () => {
  it('buys every outcome of a mispriced event in one basket, unwinds a forced partial within its cap, never trades an augmented event', async () => {
    const open = rig.sandbox.world.events.filter((e) => e.negRisk && !e.closed && e.markets.length >= 2 && e.markets.length <= 15);
    const [plain, fragile] = open.filter((e) => !e.negRiskAugmented);
    const augmented = open.find((e) => e.negRiskAugmented);
    expect(plain && fragile && augmented).toBeTruthy();

    const session = await startRunSession({ config: loadConfig(config(), { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }), logger: createLogger({ level: 'silent' }) });
    const baskets: BasketEvent[] = [];
    session.engine.bus.subscribe((e) => {
      if (e.type === 'basket') baskets.push(e.event);
    });
    try {
      const tracked = new Set(session.tokens.map((t) => t.tokenId));
      for (const e of [plain!, fragile!, augmented!]) expect([...tokensOf(e)].every((t) => tracked.has(t))).toBe(true);
      await until('books of every market', () => session.tokens.every((t) => session.engine.cache.get(t.tokenId)?.book !== undefined), 20_000);

      // gaps of 0.2: some sandbox markets charge 10 % taker fees on min(p, 1 - p), which a thin gap does not cover
      // the augmented event first: its listed set below 1 is no arbitrage
      await rig.admin('/admin/episodes', { event: augmented!.id, direction: 'cheap', gap: 0.2, durationMs: 120_000 });
      await rig.admin('/admin/episodes', { event: plain!.id, direction: 'cheap', gap: 0.2, durationMs: 120_000 });
      await until('the plain event basket', () => baskets.length >= 1, 20_000);
      const completed = baskets[0]!;
      expect(completed.type).toBe('BasketCompleted');
      const plainYes = plain!.markets.map((m) => m.tokens[0].tokenId);
      expect(completed.legs.map((l) => l.tokenId).sort()).toEqual([...plainYes].sort());
      expect(completed.legs.every((l) => l.filled === l.size)).toBe(true);

      // a forced partial fill: one outcome's depth goes as our first leg reaches the event
      await rig.admin('/admin/episodes', { event: fragile!.id, direction: 'cheap', gap: 0.2, durationMs: 120_000, withdraw: true });
      await until('the fragile event basket', () => baskets.length >= 2, 20_000);
      const unwound = baskets[1]!;
      expect(unwound.type).toBe('BasketUnwound');
      if (unwound.type !== 'BasketUnwound') return;
      expect(unwound.legs.filter((l) => l.filled === 0)).toHaveLength(1);
      expect(unwound.flat).toBe(true);
      expect(unwound.loss).toBeLessThanOrEqual(unwound.maxUnwindLoss);
      // no naked leg: the strategy holds nothing of the fragile event, and a whole set of the plain one
      for (const t of tokensOf(fragile!)) expect(session.engine.ledger.position('arb', t).size).toBe(0);
      const sets = plainYes.map((t) => session.engine.ledger.position('arb', t).size);
      expect(new Set(sets).size).toBe(1);

      // a little longer: the augmented event's cheap set is still there, and never traded
      await new Promise((r) => setTimeout(r, 1_500));
      const augmentedTokens = tokensOf(augmented!);
      expect([...session.engine.tracker.all()].some((o) => augmentedTokens.has(o.request.tokenId))).toBe(false);
      expect(baskets).toHaveLength(2);
    } finally {
      await session.stop();
    }
  }, 90_000);
});
