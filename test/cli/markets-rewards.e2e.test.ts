import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RewardMarketRow } from '../../src/cli/commands/markets-rewards.ts';
import { rewardCompetition } from '../../src/core/reward-competition.ts';
import { worldRewardRules } from '../../src/sandbox/rewards/reward-sampler.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { getOrderBook } from '../../src/venue/actions/get-order-book.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { clobotProcess } from './clobot-process.ts';

/**
 * `clobot markets --rewards` against the sandbox (issue 22 point 5): every open reward market of
 * its world with its rate, band and competition, ranked by the expected USDC a day of a quote of
 * `--quote` USDC (src/core/reward-competition.ts); the table; the flags' errors.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  // no flow: the books stand still between the CLI's read and the test's
  sandbox = await startSandbox({ port: 0, seed: 3, markets: 40, events: 10, flow: { enabled: false, intensity: 1 } });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('clobot markets --rewards', () => {
  it("--json lists the sandbox's reward markets with their rate and competition, best first", async () => {
    const r = await clobotProcess(['markets', '--venue', sandbox.url, '--rewards', '--json', '--limit', '1000', '--quote', '250']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as RewardMarketRow[];
    const paying = sandbox.world.markets.filter((m) => worldRewardRules(m) !== undefined && m.acceptingOrders && !m.closed);
    expect(paying.length).toBeGreaterThan(3);
    expect(rows.map((x) => x.conditionId).sort()).toEqual(paying.map((m) => m.conditionId).sort());
    expect(rows.map((x) => x.rank)).toEqual(rows.map((_, i) => i + 1));
    // best first: expected USDC a day, then the rate
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(Number(a.expectedDailyReward) > Number(b.expectedDailyReward) || (a.expectedDailyReward === b.expectedDailyReward && a.dailyRate >= b.dailyRate)).toBe(true);
    }
    expect(rows.some((x) => x.competitionScore > 0)).toBe(true);
    expect(rows.some((x) => Number(x.expectedDailyReward) > 0)).toBe(true);
    const client = createVenueClient({ baseUrl: sandbox.url, profile: 'interface' });
    for (const m of paying) {
      const row = rows.find((x) => x.conditionId === m.conditionId)!;
      const rules = worldRewardRules(m)!;
      // the market's rules as the world has them
      expect([row.dailyRate, Number(row.minSize), row.maxSpreadCents]).toEqual([m.rewards!.dailyRate, m.rewards!.minSize, m.rewards!.maxSpread]);
      // the competition and share from the same book read here
      const c = rewardCompetition(rules, await getOrderBook(client, m.tokens[0].tokenId), m.tickSize, 250);
      expect(row.competitionScore).toBeCloseTo(c.competition, 5);
      expect(row.expectedShare).toBeCloseTo(c.share, 5);
      expect(row.expectedDailyReward).toBe(c.dailyReward.toFixed(6));
      expect(row.quote === null ? null : Number(row.quote.cost)).toBe(c.quote === undefined ? null : Number(c.quote.costUsdc.toFixed(6)));
      if (row.quote !== null) expect(Number(row.quote.cost)).toBeLessThanOrEqual(250);
    }
  });

  it('the table: one row a market with the columns named, then what the figures mean; --limit keeps the best', async () => {
    const r = await clobotProcess(['markets', '--venue', sandbox.url, '--rewards', '--limit', '3']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+question\s+rate\/day\s+min size\s+band c\s+midpoint\s+depth in band bid \/ ask\s+quote \(100 USDC\)\s+min USDC\s+share\s+USDC\/day$/);
    expect(lines.slice(2, 5).map((l) => l.trim().split(/\s+/)[0])).toEqual(['1', '2', '3']);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toContain('expected share and USDC a day for a two-sided quote of 100 USDC');
  });

  it('bad flags: one line naming the flag, exit 2', async () => {
    const alone = await clobotProcess(['markets', '--venue', sandbox.url, '--quote', '50']);
    expect([alone.status, alone.stdout, alone.stderr]).toEqual([2, '', 'clobot: --quote prices the --rewards ranking: give --rewards too\n']);
    const bad = await clobotProcess(['markets', '--venue', sandbox.url, '--rewards', '--quote', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("option '--quote <usdc>' argument 'lots' is invalid. expected a positive number of USDC (at most 1e9), got 'lots'");
  });
});
