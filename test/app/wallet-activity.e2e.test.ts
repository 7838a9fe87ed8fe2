import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/app/recorder.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import type { WalletTrade } from '../../src/core/types.ts';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { LEADER_ACCOUNTS } from '../../src/sandbox/flow/leader-wallets.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { until } from './run-helpers.ts';
import { walletSightings } from './strategies/wallet-watcher.ts';

/**
 * The wallet activity source against the sandbox: a paper run following the sandbox's leader
 * wallets hears each of their fills exactly once (the venue's /activity, polled every 300 ms,
 * shows each many times), a recorder running beside it writes the same trades, and a backtest of
 * the recording (text and binary) hands the strategy the same trades again.
 */

const WATCHER = fileURLToPath(new URL('./strategies/wallet-watcher.ts', import.meta.url));
const TEST_PRIVATE_KEY = '0x' + '3d'.repeat(32);
const LEADERS = LEADER_ACCOUNTS.map((a) => a.address.toLowerCase());

let sandbox: RunningSandbox;
let dir: string;
let market: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 4, markets: 8, events: 2, flow: { enabled: true, intensity: 2 } });
  dir = mkdtempSync(join(tmpdir(), 'clobot-wallets-'));
  // an open market whose price leaves room for a move either way
  const open = sandbox.world.markets.find((m) => {
    if (m.closed || !m.acceptingOrders || sandbox.engine.market(m.conditionId) === undefined) return false;
    const q = sandbox.engine.quote(m.tokens[0].tokenId);
    return q.bestBid !== undefined && q.bestAsk !== undefined && q.bestBid > 250_000 && q.bestAsk < 750_000;
  });
  if (open === undefined) throw new Error('the seed-4 sandbox has no open market near 0.5');
  market = open.conditionId;
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A fill as both sides can name it. */
const key = (t: { wallet: string; txHash: string; side: string; price: number; size: number }) => `${t.wallet}|${t.txHash}|${t.side}|${t.price}|${t.size}`;

describe('wallet activity from the venue', () => {
  it('a paper run hears each leader fill once, the recorder writes the same, a backtest of it (text and binary) replays the same', async () => {
    const path = join(dir, 'wallets.yaml');
    writeFileSync(
      path,
      [
        'mode: paper',
        `venue: { baseUrl: '${sandbox.url}' }`,
        `data: { transport: ws, markets: { conditionIds: ['${market}'] }, wallets: { addresses: [${LEADER_ACCOUNTS.map((a) => `'${a.address}'`).join(', ')}], pollMs: 300 } }`,
        `strategies: [{ id: watch, module: '${WATCHER}', params: { tag: paper } }]`,
        `risk: { haltFile: '${join(dir, 'HALT')}' }`,
        'logging: { level: silent }',
        '',
      ].join('\n'),
    );
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY });
    expect(config.data.wallets).toEqual({ addresses: LEADERS, pollMs: 300, route: 'activity', pageSize: 100, backfill: false });
    const logger = createLogger({ level: 'silent' });
    const out = join(dir, 'wallets.jsonl');
    const recorder = await startRecorder({ config, out, logger });
    const session = await startRunSession({ config, logger });
    const heard = walletSightings('paper');
    let fills: { wallet: string; txHash: string; side: string; price: number; size: number }[] = [];
    try {
      // two episodes of two leaders in the run's market: each an entry, then an exit 1.5 s after the move
      await admin('/admin/leaders', { market, wallet: 0, direction: 'up', move: 0.05, leadMs: 200, holdMs: 1_500 });
      await until('the first leader exited', () => heard.some((h) => h.trade.wallet === LEADERS[0] && h.trade.side === 'SELL'));
      await admin('/admin/leaders', { market, wallet: 2, direction: 'down', move: 0.05, leadMs: 200, holdMs: 1_500 });
      await until('the second leader exited', () => heard.some((h) => h.trade.wallet === LEADERS[2] && h.trade.side === 'SELL'));
      // what the venue shows of the leaders, read after the last fill was heard
      for (const wallet of LEADERS) {
        const rows = (await (await fetch(`${sandbox.url}/activity?user=${wallet}&limit=500`)).json()) as { transactionHash: string; side: string; price: number; size: number; type: string }[];
        for (const r of rows) if (r.type === 'TRADE') fills.push({ wallet, txHash: r.transactionHash, side: r.side, price: Math.round(r.price * 1e6), size: Math.round(r.size * 1e6) });
      }
      // three more rounds of polls of every leader (run and recorder): nothing is heard twice
      const count = heard.length;
      const polls = () => sandbox.context.stats.snapshot().routes['getActivity'] ?? 0;
      const from = polls();
      await until('three more rounds of /activity polls', () => polls() >= from + 3 * 2 * LEADERS.length);
      expect(heard.length).toBe(count);
    } finally {
      await recorder.stop();
      await session.stop();
    }
    fills = fills.sort((a, b) => key(a).localeCompare(key(b)));
    const heardKeys = heard.map((h) => key(h.trade)).sort();
    expect(heardKeys).toEqual(fills.map(key));
    expect(new Set(heard.map((h) => h.trade.wallet))).toEqual(new Set([LEADERS[0], LEADERS[2]]));
    for (const h of heard) {
      expect(h.trade.conditionId).toBe(market);
      expect(h.heardAt).toBeGreaterThanOrEqual(h.trade.ts);
    }

    // the recording holds the same trades; a backtest hands them to the strategy in the same order
    const data = await openBacktestData(out);
    expect(data.header.version).toBe(3);
    const recorded: WalletTrade[] = [];
    for await (const e of data.events()) if (e.type === 'walletTrade') recorded.push(e.trade);
    expect(recorded).toEqual(heard.map((h) => h.trade));
    await runBacktest({ config: { ...config, mode: 'backtest' } as never, data, overrides: [{ strategyId: 'watch', path: ['tag'], value: 'replay' }] });
    expect(walletSightings('replay').map((h) => h.trade)).toEqual(recorded);
    const bin = join(dir, 'wallets.clbr');
    await convertRecording(out, bin, 'binary');
    await runBacktest({ config: { ...config, mode: 'backtest' } as never, data: await openBacktestData(bin), overrides: [{ strategyId: 'watch', path: ['tag'], value: 'binary' }] });
    expect(walletSightings('binary').map((h) => h.trade)).toEqual(recorded);
  });
});
