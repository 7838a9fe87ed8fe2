import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { sandboxPrivateKey } from '../../src/config/sandbox-key.ts';
import { createLogger } from '../../src/core/log.ts';
import { LEADER_ACCOUNTS } from '../../src/sandbox/flow/leader-wallets.ts';
import type { SimOrderRequest } from '../../src/sim/types.ts';
import { sandboxRig, until, type SandboxRig } from '../app/run-helpers.ts';
import { copyMarket, writeCopyConfig } from './copy-trader-rig.ts';

/**
 * copy-trader across a restart (issue 21: "never twice for one transaction"): a LIVE run with a
 * store copies a leader's buy, stops, and a second life resumes the store. The wallet source
 * backfills (`backfill: true`: its first round delivers the leader's recent fills again), the
 * trades are young enough to copy (`maxTradeAgeMs`) and the slippage cap is wide, so only what the
 * store remembers (the copy's order, found by its ref, one per leader transaction) keeps the second
 * life from copying the same transaction again. The leader's exit is followed once, whichever
 * life hears it.
 */

const POLL_MS = 300;
const KEY = sandboxPrivateKey(3232);
const LEADER = LEADER_ACCOUNTS[1]!.address;

let rig: SandboxRig;
let market: { conditionId: string; yes: string; no: string };

beforeAll(async () => {
  rig = await sandboxRig({ seed: 9, markets: 16, events: 4, flow: { enabled: true, intensity: 1 } }, 'clobot-copy-restart-');
  market = copyMarket(rig, 9);
});

afterAll(async () => {
  await rig?.close();
});

describe('copy-trader across a restart', () => {
  it('a second life of the run, hearing the leader transaction again, does not copy it again; the exit goes once', async () => {
    const path = writeCopyConfig(
      rig,
      market.conditionId,
      `{ addresses: ['${LEADER}'], pollMs: ${POLL_MS}, backfill: true }`,
      '{ scale: 0.5, delayMs: 1000, maxSlippage: 0.5, exitSlippage: 0.3, maxTradeUsdc: 20, maxMarketUsdc: 100, raiseToMinimum: true, maxTradeAgeMs: 600000 }',
    );
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: KEY });
    const storePath = join(rig.dir, 'run.sqlite');
    const logger = createLogger({ level: 'silent' });
    // every order of ours as it reaches the sandbox's book
    const ours: SimOrderRequest[] = [];
    const unlisten = rig.sandbox.engine.onOutsideOrder((req) => ours.push(req));
    const polls = () => rig.sandbox.context.stats.snapshot().routes['getActivity'] ?? 0;
    try {
      // life 1: the leader buys (and sells some seconds after its move); we copy the buy
      const first = await startRunSession({ config, logger, storePath });
      try {
        await until('life 1: the strategy runs', () => first.engine.strategyState('copy') === 'RUNNING');
        await rig.admin('/admin/leaders', { market: market.conditionId, wallet: 1, direction: 'up', move: 0.04, leadMs: 1_000, holdMs: 3_000 });
        await until('life 1: our copy of the buy', () => ours.some((o) => o.side === 'BUY'), 30_000);
      } finally {
        await first.stop();
      }
      const buysBefore = ours.filter((o) => o.side === 'BUY').length;
      expect(buysBefore).toBe(1);

      // life 2: the same store; the source's first round hands the leader's fills to the strategy again
      const second = await startRunSession({ config, logger, storePath });
      try {
        await until('life 2: the strategy runs', () => second.engine.strategyState('copy') === 'RUNNING');
        // the leader's exit (heard in life 1 or again in life 2): ours follows once
        await until('our exit', () => ours.some((o) => o.side === 'SELL'), 30_000);
        // three more rounds of polls: the backfilled buy was heard, and nothing is copied again
        const from = polls();
        await until('three more rounds of /activity polls', () => polls() >= from + 3);
      } finally {
        await second.stop();
      }
    } finally {
      unlisten();
    }
    const leaderTxs = new Set(rig.sandbox.context.activity.fillsOf(LEADER).filter((f) => f.side === 'BUY').map((f) => f.transactionHash));
    expect(leaderTxs.size).toBe(1);
    expect(ours.filter((o) => o.side === 'BUY')).toHaveLength(1);
    expect(ours.filter((o) => o.side === 'SELL')).toHaveLength(1);
  }, 120_000);
});
