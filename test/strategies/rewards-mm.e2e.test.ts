import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunSession } from '../../src/app/run-session.ts';
import { StatusView } from '../../src/cli/status-view.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { sandboxPrivateKey } from '../../src/config/sandbox-key.ts';
import { createLogger } from '../../src/core/log.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';
import { worldRewardRules } from '../../src/sandbox/rewards/reward-sampler.ts';
import { sandboxRig, until, type SandboxRig } from '../app/run-helpers.ts';
import type { RewardsSnapshot } from '../../src/strategy/api.ts';
import { clobotProcess } from '../cli/clobot-process.ts';

/**
 * rewards-mm end to end on the sandbox (issue 22, "Done when"): a LIVE run quotes the sandbox's
 * reward markets, the sandbox pays every maker it samples (its seeded liquidity and its synthetic
 * flow too, so our share is a real share), and the run's own estimate equals the sandbox's
 * accounting for our address within 1% over the run. Both sample at the multiples of SAMPLE_MS of
 * the same wall clock.
 *
 * - With the flow and the user channel on (the defaults), on the markets a trader's config picks
 *   (`filter: {rewards: true}`): each sample's share is the venue's own figure (`GET
 *   /rewards/user/percentages`, read just after the sample instant; src/engine/reward-accrual.ts),
 *   the model's kept beside it.
 * - The model alone (`rewardVenueShare: false`) on markets where its assumptions hold (see
 *   modelled()), without the flow: this documents the model's bound, not the run's figure.
 *
 * The run keeps a real SQLite store, and the status view and `clobot status <store>` show the
 * accrual apart from PnL.
 */

const KEY = sandboxPrivateKey(2222);
const ADDRESS = privateKeyToAddress(Buffer.from(KEY.slice(2), 'hex')).toLowerCase();

interface AdminRewards {
  readonly sampleMs: number;
  readonly samples: number;
  readonly accounts: readonly { readonly address: string; readonly reward: number; readonly markets: readonly { readonly conditionId: string; readonly reward: number; readonly scoringSamples: number }[] }[];
}

/** A live rewards-mm config on the rig's sandbox (one strategy, a store), its markets and execution lines given. */
function writeConfig(rig: SandboxRig, markets: readonly string[], execution: readonly string[]): { path: string; store: string } {
  const path = join(rig.dir, 'rewards-mm.yaml');
  const store = join(rig.dir, 'run.sqlite');
  writeFileSync(
    path,
    [
      'mode: live',
      'venue:',
      `  baseUrl: ${rig.sandbox.url}`,
      'data:',
      '  transport: ws',
      '  markets:',
      ...markets.map((l) => `    ${l}`),
      'strategies:',
      '  - id: rewards',
      '    module: strategies/rewards-mm.ts',
      '    params: { size: 100 }',
      'risk:',
      '  maxOrderNotional: 200',
      '  maxOpenOrders: 40',
      'execution:',
      '  maxBatchWaitMs: 20',
      ...execution.map((l) => `  ${l}`),
      'store:',
      `  path: ${store}`,
      'logging:',
      '  level: silent',
      '',
    ].join('\n'),
  );
  return { path, store };
}

/** Runs until `samples` scoring samples (all markets), stops, and reads the sandbox's accounting for our address. */
async function runUntil(rig: SandboxRig, path: string, samples: number, sampleMs: number) {
  const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: KEY });
  const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
  const scoring = () => session.engine.rewards.snapshot().markets.reduce((n, m) => n + m.scoringSamples, 0);
  let view = '';
  try {
    await until(`${samples} scoring samples`, () => scoring() >= samples, 100_000);
    // the status view of `clobot run`: the estimate on its own line, apart from cash, equity and PnL
    view = new StatusView(session, 60_000, process.stdout).render();
  } finally {
    // the stop cancels our orders; the estimate samples until the cancel is answered
    await session.stop();
  }
  const ours = session.engine.rewards.snapshot();
  const res = await fetch(`${rig.sandbox.url}/admin/rewards?address=${ADDRESS}`);
  expect(res.status).toBe(200);
  const venue = (await res.json()) as AdminRewards;
  expect(venue.sampleMs).toBe(sampleMs);
  const account = venue.accounts.find((a) => a.address.toLowerCase() === ADDRESS);
  expect(account, `the sandbox has no accrual for ${ADDRESS}`).toBeDefined();
  return { session, ours, account: account!, view };
}

/** The run's estimate against the sandbox's accounting: positive, within 1% in total and in each market, the same markets scored. */
function expectWithinOnePercent(ours: RewardsSnapshot, account: AdminRewards['accounts'][number]): void {
  const paid = account.markets.reduce((s, m) => s + m.reward, 0);
  expect(ours.total).toBeGreaterThan(0);
  expect(paid).toBeGreaterThan(0);
  const detail = JSON.stringify({
    ours: ours.markets.filter((m) => m.scoringSamples > 0).map((m) => [m.conditionId.slice(0, 8), m.reward, m.scoringSamples, m.samples, m.venueSamples]),
    sandbox: account.markets.map((m) => [m.conditionId.slice(0, 8), m.reward, m.scoringSamples]),
  });
  expect(Math.abs(ours.total / paid - 1), detail).toBeLessThan(0.01);
  const estimated = new Map(ours.markets.filter((m) => m.scoringSamples > 0).map((m) => [m.conditionId, m]));
  expect([...estimated.keys()].sort()).toEqual(account.markets.map((m) => m.conditionId).sort());
  for (const m of account.markets) {
    const e = estimated.get(m.conditionId)!;
    expect(Math.abs(e.reward / m.reward - 1), m.conditionId).toBeLessThan(0.01);
  }
}

describe('rewards-mm live on the sandbox, the flow and the user channel on, the venue\'s share', () => {
  const SAMPLE_MS = 1_000;
  /** Scoring samples (all markets) before the run is stopped: one sample of one market is then a small part of the run. */
  const SCORING_SAMPLES = 40;
  let rig: SandboxRig;
  beforeAll(async () => {
    rig = await sandboxRig({ seed: 3, markets: 40, events: 10, rewards: { sampleMs: SAMPLE_MS } }, 'clobot-rewards-mm-venue-');
  });
  afterAll(async () => {
    await rig?.close();
  });

  it("on the reward markets a config picks, accrues a positive reward, each sample's share the venue's, and the estimate equals the sandbox's accounting within 1%", async () => {
    // what a trader writes (config/rewards-mm.yaml): the first reward markets taking orders; the flow on, the user channel on
    const { path } = writeConfig(rig, ['filter: { rewards: true, maxCount: 5 }'], [`rewardSampleMs: ${SAMPLE_MS}`]);
    expect(loadConfig(path, { CLOBOT_PRIVATE_KEY: KEY }).execution.userChannel.enabled).toBe(true);
    const { session, ours, account } = await runUntil(rig, path, SCORING_SAMPLES, SAMPLE_MS);
    expectWithinOnePercent(ours, account);
    // every sample's share was the venue's, and the model's figure is kept beside it
    for (const m of ours.markets) {
      expect(m.shareSource, m.conditionId).toBe('venue');
      expect(m.venueSamples, m.conditionId).toBe(m.samples);
    }
    const summary = session.engine.rewards.summary()!;
    for (const [id, m] of Object.entries(summary.byMarket)) {
      expect(m.shareSource, id).toBe('venue');
      expect(m.meanModelShare, id).toBeGreaterThanOrEqual(0);
    }
    if (process.env['CLOBOT_E2E_FIGURES'] !== undefined) {
      const paid = account.markets.reduce((s, m) => s + m.reward, 0);
      const model = Object.values(summary.byMarket).reduce((s, m) => s + (m.dailyRate * m.meanModelShare * ours.samples * SAMPLE_MS) / 86_400_000, 0);
      process.stdout.write(`rewards e2e: estimate ${ours.total.toFixed(6)} paid ${paid.toFixed(6)} (${((ours.total / paid - 1) * 100).toFixed(4)}%), model alone ~${model.toFixed(6)} (${((model / paid - 1) * 100).toFixed(1)}%), markets ${JSON.stringify(summary.byMarket)}\n`);
    }
  }, 120_000);
});

describe('rewards-mm live on the sandbox, the model alone (the bound of the model)', () => {
  const SAMPLE_MS = 500;
  /** Scoring samples (all markets) before the run is stopped. */
  const SCORING_SAMPLES = 24;
  let rig: SandboxRig;
  beforeAll(async () => {
    rig = await sandboxRig({ seed: 3, markets: 40, events: 10, flow: { enabled: false }, rewards: { sampleMs: SAMPLE_MS } }, 'clobot-rewards-mm-');
  });
  afterAll(async () => {
    await rig?.close();
  });

  /**
   * Reward markets where the estimate's model holds: it sees the book's levels, not who rests there,
   * so it takes every other order at a level as one maker's. Where the sandbox's own orders are each
   * under min_size (they never score), a level of several of them would read as scoring depth and the
   * estimate as low; and where several makers rest, their Q_min apart is not the Q_min of their sum
   * (docs/rewards.md): markets whose resting orders are one maker's, each reaching min_size, are chosen.
   */
  function modelled(): string[] {
    const out: string[] = [];
    for (const m of rig.sandbox.world.markets) {
      const rules = worldRewardRules(m);
      if (rules === undefined || m.closed || !m.acceptingOrders) continue;
      const orders = rig.sandbox.engine.openOrders({ conditionId: m.conditionId });
      if (orders.length === 0 || orders.some((o) => o.openSize < rules.minSize)) continue;
      // and one other maker: the estimate's "everyone else as one maker" is then exact
      if (new Set(orders.map((o) => o.address.toLowerCase())).size !== 1) continue;
      // and a midpoint well inside [0.10, 0.90], where one-sided quoting still scores a third (outside
      // it, only the weaker side counts, and the cutoff-adjusted midpoint decides who scores at all)
      const book = rig.sandbox.engine.book(m.tokens[0].tokenId, Date.now());
      const bid = book.bids[0]?.price;
      const ask = book.asks[0]?.price;
      if (bid === undefined || ask === undefined || bid + ask < 2 * 200_000 || bid + ask > 2 * 800_000) continue;
      out.push(m.conditionId);
      if (out.length === 5) break;
    }
    expect(out.length, "fixture: reward markets whose resting orders are one maker's, each reaching min_size").toBeGreaterThanOrEqual(1);
    return out;
  }

  it("accrues a positive reward, and the model's estimate equals the sandbox's accounting within 1%; clobot status shows it", async () => {
    const { path, store } = writeConfig(
      rig,
      [`conditionIds: [${modelled().join(', ')}]`],
      [
        `rewardSampleMs: ${SAMPLE_MS}`,
        // the model's share only: this case documents where the model alone holds
        'rewardVenueShare: false',
        // polled fills: with the user channel on (the default) the model's estimate misses one sample of the
        // sandbox's about one run in five under load (12 against 13: a sample at the first placement,
        // which it does not know rests yet; docs/user-channel.md "Open"), which the 1% bound of this short
        // run cannot absorb (the venue's figure, above, has no such gap)
        'userChannel: { enabled: false }',
      ],
    );
    const { ours, account, view } = await runUntil(rig, path, SCORING_SAMPLES, SAMPLE_MS);
    expect(view).toMatch(/^rewards \(estimated, apart from pnl\) \d+\.\d{6} USDC over \d+ samples of 0\.5 s$/m);
    expect(view).toMatch(/^fills \d+ {2}realized /m);
    expectWithinOnePercent(ours, account);
    for (const m of ours.markets) {
      expect(m.shareSource).toBe('model');
      expect(m.venueSamples).toBe(0);
    }

    // clobot status: the store's latest accrual, apart from PnL
    const status = await clobotProcess(['status', store]);
    expect(status.status, status.stderr).toBe(0);
    const line = status.stdout.split('\n').find((l) => l.startsWith('rewards'));
    expect(line).toBe(`rewards (estimated, apart from pnl) ${ours.total.toFixed(6)} USDC over ${ours.samples} samples of ${SAMPLE_MS / 1000} s`);
    const json = await clobotProcess(['status', store, '--json']);
    const report = JSON.parse(json.stdout) as { rewards: { total: string; byStrategy: Record<string, string> } };
    expect(report.rewards).toMatchObject({ total: ours.total.toFixed(6), byStrategy: { rewards: ours.total.toFixed(6) } });
  }, 120_000);
});
