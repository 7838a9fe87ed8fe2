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
 * copy-trader end to end on the sandbox (issue 21, "Done when"): a LIVE run follows the sandbox's
 * leader wallets (data.wallets, polled every POLL_MS) and copies their trades in one market with
 * a delay of DELAY_MS. For each leader transaction the run's copy reaches the venue once, never
 * twice (however many polls show the transaction), no earlier than the delay after the leader's
 * trade and within the delay plus one poll period of it (plus SLACK_MS: the poll's own requests,
 * the batcher and the order post on a loaded machine); when the leader sells, the run sells too.
 */

const POLL_MS = 500;
const DELAY_MS = 1_000;
/** Room for one round of polls (three wallets), the 20 ms batch wait and the post, on a loaded 2-core machine. */
const SLACK_MS = 750;
const KEY = sandboxPrivateKey(3131);

let rig: SandboxRig;
let market: { conditionId: string; yes: string; no: string };

beforeAll(async () => {
  rig = await sandboxRig({ seed: 9, markets: 16, events: 4, flow: { enabled: true, intensity: 1 } }, 'clobot-copy-trader-');
  market = copyMarket(rig, 9);
});

afterAll(async () => {
  await rig?.close();
});

describe('copy-trader live on the sandbox', () => {
  it('copies each leader transaction once, within its delay plus one poll period, and exits when the leader exits', async () => {
    const path = writeCopyConfig(
      rig,
      market.conditionId,
      `{ addresses: [${LEADER_ACCOUNTS.map((a) => `'${a.address}'`).join(', ')}], pollMs: ${POLL_MS} }`,
      `{ scale: 0.5, delayMs: ${DELAY_MS}, maxSlippage: 0.05, exitSlippage: 0.1, maxTradeUsdc: 20, maxMarketUsdc: 100, raiseToMinimum: true }`,
    );
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: KEY });
    // every order of ours as it reaches the sandbox's book, with the sandbox's time
    const ours: { req: SimOrderRequest; at: number }[] = [];
    const unlisten = rig.sandbox.engine.onOutsideOrder((req, at) => ours.push({ req, at }));
    const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
    const leaders = LEADER_ACCOUNTS.map((a) => a.address);
    const episodes = [
      { wallet: 0, direction: 'up' },
      { wallet: 1, direction: 'down' },
      { wallet: 2, direction: 'up' },
    ] as const;
    try {
      await until('the strategy runs', () => session.engine.strategyState('copy') === 'RUNNING');
      for (const [i, e] of episodes.entries()) {
        const started = await rig.admin('/admin/leaders', { market: market.conditionId, wallet: e.wallet, direction: e.direction, move: 0.06, leadMs: 2_000, holdMs: 2_000 });
        expect(started['moved']).toBe(false);
        // our copy, then the leader's exit and ours
        await until(`episode ${i}: our exit`, () => ours.filter((o) => o.req.side === 'SELL').length > i, 30_000);
      }
      // three more rounds of polls of every leader: nothing is copied again
      const count = ours.length;
      const polls = () => (rig.sandbox.context.stats.snapshot().routes['getActivity']) ?? 0;
      const from = polls();
      await until('three more rounds of /activity polls', () => polls() >= from + 3 * leaders.length);
      expect(ours.length).toBe(count);
    } finally {
      unlisten();
      await session.stop();
    }

    // the leaders' transactions, as the sandbox's analytics hold them
    const fills = leaders.flatMap((w) => rig.sandbox.context.activity.fillsOf(w));
    // one per transaction (a leader's FAK that sweeps levels is several fills of one transaction), in time order
    const transactions = (side: 'BUY' | 'SELL') => [...new Map(fills.filter((f) => f.side === side).map((f) => [f.transactionHash, f])).values()].sort((a, b) => a.timestamp - b.timestamp);
    const entries = transactions('BUY');
    const exits = transactions('SELL');
    expect(entries).toHaveLength(3);
    expect(exits).toHaveLength(3);
    const buys = ours.filter((o) => o.req.side === 'BUY');
    const sells = ours.filter((o) => o.req.side === 'SELL');
    // one copy per leader transaction, never two; each in the leader's token
    expect(buys).toHaveLength(3);
    expect(sells).toHaveLength(3);
    for (const [i, entry] of entries.entries()) {
      const copy = buys[i]!;
      expect(copy.req.tokenId).toBe(entry.token.tokenId);
      const lag = copy.at - entry.timestamp;
      expect(lag, `copy ${i}: ${lag} ms after the leader`).toBeGreaterThanOrEqual(DELAY_MS);
      expect(lag, `copy ${i}: ${lag} ms after the leader`).toBeLessThanOrEqual(DELAY_MS + POLL_MS + SLACK_MS);
    }
    for (const [i, exit] of exits.entries()) {
      expect(sells[i]!.req.tokenId).toBe(exit.token.tokenId);
      expect(sells[i]!.at).toBeGreaterThanOrEqual(exit.timestamp + DELAY_MS);
    }
  }, 120_000);
});
