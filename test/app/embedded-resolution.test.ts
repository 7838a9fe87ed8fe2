import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { createLogger } from '../../src/core/log.ts';
import { REPO_ROOT, waitFor } from '../engine/e2e/harness.ts';
import { heardLifecycle } from './strategies/take-then-quote.ts';

/**
 * `venue.embedded.resolution` in a paper run: the embedded sandbox schedules the first N open
 * markets to close and resolve (seeded end dates and winners), and the run, reading each market's
 * status every `data.marketStatusMs`, settles them: the paper position it bought settles at its
 * payout, and the strategy hears each market close and resolve. A bad setting names its key.
 */

const STRATEGY = resolve(REPO_ROOT, 'test/app/strategies/take-then-quote.ts');
const M = 1_000_000;
/** Statuses of an order that is done. */
const DONE = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED']);
const dir = mkdtempSync(join(tmpdir(), 'clobot-embedded-resolution-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(resolution: Record<string, unknown>): Record<string, unknown> {
  return {
    mode: 'paper',
    venue: { embedded: { seed: 1, markets: 20, events: 6, flow: { enabled: false }, resolution } },
    data: { pollIntervalMs: 200, marketStatusMs: 200, markets: { filter: { active: true, acceptingOrders: true, maxCount: 2 } } },
    strategies: [{ id: 'tq', module: STRATEGY, params: { tag: 'embedded', size: 10 } }],
    logging: { level: 'silent' },
    paper: { balance: 1000 },
  };
}

describe('venue.embedded.resolution', () => {
  it('resolves the first markets of a paper run against the embedded sandbox, which settles them', async () => {
    const path = join(dir, 'paper.yaml');
    // the seeded end dates fall minutes away: the test ends the markets (the admin close, as the
    // end date would) once the paper purchase is done, so the purchase (held for its market's
    // matching delay, up to 3 s in this world) never races the close, however slow the run's start
    writeFileSync(path, stringify(config({ markets: 2, withinMs: 600_000, resolveAfterMs: 500 })));
    const session = await startRunSession({ config: loadConfig(path, {}, { cwd: dir }), logger: createLogger({ level: 'silent' }) });
    try {
      const engine = session.engine;
      const sandbox = session.sandbox!;
      const scheduled = sandbox.context.resolutions.scheduled();
      expect(scheduled.map((m) => m.conditionId)).toEqual(session.markets.map((m) => m.conditionId));
      for (const m of scheduled) expect(m.endDate).toBeGreaterThan(Date.now() + 60_000);
      await waitFor('the paper purchase done', () => [...engine.tracker.all()].some((r) => r.request.orderType === 'FAK' && DONE.has(r.status)), 30_000);
      for (const m of scheduled) {
        const res = await fetch(`${sandbox.url}/admin/markets/close`, { method: 'POST', body: JSON.stringify({ conditionId: m.conditionId }), headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(200);
      }
      await waitFor('both markets settled', () => engine.settlements().length === 2, 20_000);
      expect(new Set(engine.settlements().map((s) => s.conditionId))).toEqual(new Set(session.markets.map((m) => m.conditionId)));
      const heard = heardLifecycle('embedded').map((e) => e.type);
      expect(heard.filter((t) => t === 'MarketClosed')).toHaveLength(2);
      expect(heard.filter((t) => t === 'MarketResolved')).toHaveLength(2);
      // the paper purchase (10 of the first token the strategy saw a book of) settled at its payout
      const tokens = engine.settlements().flatMap((s) => s.tokens);
      expect(tokens.filter((t) => t.size !== 0).map((t) => t.size)).toEqual([10 * M]);
      for (const t of tokens) expect(t.proceeds).toBe((t.size * t.payout) / M);
      for (const id of session.tokens.map((t) => t.tokenId)) expect(engine.portfolio.position(id).size).toBe(0);
    } finally {
      await session.stop();
    }
  }, 60_000);

  it('refuses a bad resolution setting, naming the key', () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, stringify(config({ markets: -1 })));
    expect(() => loadConfig(path, {}, { cwd: dir })).toThrow(ConfigError);
    expect(() => loadConfig(path, {}, { cwd: dir })).toThrow(/venue\.embedded\.resolution\.markets/);
  });
});
