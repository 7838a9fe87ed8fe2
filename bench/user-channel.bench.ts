/**
 * Fill latency on the sandbox, the user channel against polling (issue 26 point 3): a live run
 * quotes one market (the stock market maker, one bid a tick better than the book), a second
 * account takes one of our resting bids at a time over HTTP, and each fill's latency is the time
 * from the sandbox's match (its matching engine's `TradeExecuted` instant) to the run booking the
 * fill (the engine's `fill` event), both on this machine's clock. Two runs per round: the user
 * channel on (the default: fills pushed, a poll of our trades only as its audit every 30 s) and
 * off (our trades polled at the default period, 1 s); the takes are spread over the poll's phase
 * (the same waits in both modes). Median and p99 per run, the ratio of the
 * medians within the round, and the range over rounds. The sandbox and the run share this
 * process's event loop (as they do in the e2e tests): the channel's figure includes the sandbox's
 * own work on the match.
 *
 *   npm run bench -- user-channel            USER_CHANNEL_BENCH_ROUNDS (3), USER_CHANNEL_BENCH_TAKES (10)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startRunSession, type RunSession } from '../src/app/run-session.ts';
import { loadConfig } from '../src/config/load-config.ts';
import { LiveClock } from '../src/core/clock.ts';
import { createLogger } from '../src/core/log.ts';
import type { LiveExecutionClient } from '../src/execution/live-execution-client.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../src/sandbox/server.ts';
import { privateKeyToAddress } from '../src/venue/signing/address.ts';
import { hexToBytes } from '../src/venue/signing/hex.ts';
import { pickMarket, TestTrader } from '../test/sandbox/trading/harness.ts';
import { REPO_ROOT } from './bench-paths.ts';
import type { BenchTable } from './table.ts';

const ROUNDS = Number(process.env['USER_CHANNEL_BENCH_ROUNDS'] ?? 3);
const TAKES = Number(process.env['USER_CHANNEL_BENCH_TAKES'] ?? 10);
const TAKE_SIZE = 5;
/** The fills poller's default period (FillsPoller), ms. */
const POLL_MS = 1_000;
const M = 1_000_000;
const KEY = '0x' + '2c'.repeat(32);
const ADDRESS = privateKeyToAddress(hexToBytes(KEY, 32) as Uint8Array).toLowerCase();
const SANDBOX: SandboxOptions = { port: 0, seed: 4, markets: 200, events: 40, flow: { enabled: false } };

type Mode = 'channel' | 'polling';

interface RunResult {
  readonly latencies: number[];
}

/** How long to wait for a condition before the bench fails (not a measurement). */
async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`user-channel bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function configOf(url: string, dir: string, conditionId: string, mode: Mode): Record<string, unknown> {
  return {
    mode: 'live',
    venue: { baseUrl: url, timeoutMs: 5000, retries: 2 },
    account: { signatureType: 0 },
    data: { transport: 'poll', pollIntervalMs: 200, staleAfterMs: 5000, markets: { conditionIds: [conditionId] } },
    strategies: [{ id: 'mm', module: join(REPO_ROOT, 'strategies/market-maker.ts'), params: { size: 10, improveTicks: 1, minSpreadTicks: 1, maxInventory: 1000 } }],
    risk: { maxOrderNotional: 50, maxPositionPerToken: 2000, maxPositionPerMarket: 2000, maxGrossExposure: 5000, maxOpenOrders: 40, maxOrdersPerSecond: 20, staleBookMs: 10000, dailyLossLimit: 1000, haltFile: join(dir, 'HALT') },
    execution: { maxBatchWaitMs: 20, heartbeatIntervalMs: 1000, userChannel: { enabled: mode === 'channel' } },
    logging: { level: 'silent' },
  };
}

/** One run of `mode`: TAKES fills, each its latency from the sandbox's match to the run's booking, ms. */
async function runOnce(mode: Mode): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-uc-'));
  let sandbox: RunningSandbox | undefined;
  let session: RunSession | undefined;
  try {
    sandbox = await startSandbox(SANDBOX);
    const sb = sandbox;
    const market = pickMarket(sb, { minSpreadTicks: 3 });
    const path = join(dir, 'run.yaml');
    writeFileSync(path, stringify(configOf(sb.url, dir, market.conditionId, mode)));
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: KEY }, { cwd: dir });
    const matchedAt = new Map<string, number>();
    sb.engine.onEvent((event) => {
      if (event.type === 'TradeExecuted') matchedAt.set(event.trade.id, event.ts);
    });
    session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
    const booked = new Map<string, number>();
    session.engine.bus.subscribe((e) => {
      if (e.type === 'fill' && !booked.has(e.fill.tradeId)) booked.set(e.fill.tradeId, Date.now());
    });
    const execution = session.execution as LiveExecutionClient;
    if (mode === 'channel') await waitFor('the channel to be trusted', () => execution.counters.userChannel?.mode === 'up');
    const taker = await new TestTrader(sb.url, 'interface', new LiveClock(), 0x78).login();
    const apiKey = await waitFor('our first order at the venue', () => sb.engine.openOrders({ conditionId: market.conditionId }).find((o) => o.address.toLowerCase() === ADDRESS)?.owner);
    const latencies: number[] = [];
    for (let i = 0; i < TAKES; i++) {
      // each take at a different phase of the 1 s poll (a take right after the poll that found the
      // last fill would always wait the whole period): the same spread of waits in both modes
      await new Promise((r) => setTimeout(r, ((i * 0.618) % 1) * POLL_MS));
      // a bid of ours alone at the best price of its token, with room for the take
      const ours = await waitFor('a bid of ours alone at the best price', () =>
        sb.engine.openOrders({ owner: apiKey, conditionId: market.conditionId }).find((o, _i, all) => {
          if (o.side !== 'BUY' || o.status !== 'LIVE' || o.openSize < TAKE_SIZE * M) return false;
          const best = sb.engine.book(o.tokenId, Date.now()).bids[0];
          const oursThere = all
            .filter((x) => x.status === 'LIVE' && ((x.tokenId === o.tokenId && x.side === 'BUY' && x.price === o.price) || (x.tokenId !== o.tokenId && x.side === 'SELL' && x.price === M - o.price)))
            .reduce((sum, x) => sum + x.openSize, 0);
          return best !== undefined && best.price === o.price && best.size === oursThere;
        }),
      );
      const other = market.tokens[0].tokenId === ours.tokenId ? 1 : 0;
      const before = new Set(matchedAt.keys());
      const answer = await taker.post({ market, outcome: other, side: 'BUY', price: (M - ours.price) / M, size: TAKE_SIZE, orderType: 'FAK' });
      const first = (answer.body as { success?: boolean; errorMsg?: string }[])[0];
      if (first?.success !== true) throw new Error(`user-channel bench: the take was refused: ${first?.errorMsg ?? answer.status}`);
      const tradeId = [...matchedAt.keys()].find((id) => !before.has(id));
      if (tradeId === undefined) throw new Error('user-channel bench: the take matched nothing');
      const at = await waitFor(`the fill of trade ${tradeId}`, () => booked.get(tradeId));
      latencies.push(at - matchedAt.get(tradeId)!);
    }
    return { latencies };
  } finally {
    await session?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

export async function run(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  const medians: Record<Mode, number[]> = { channel: [], polling: [] };
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const byMode = {} as Record<Mode, number>;
    // alternate the order, so neither mode always runs on a warmer process
    const order: Mode[] = round % 2 === 1 ? ['channel', 'polling'] : ['polling', 'channel'];
    for (const mode of order) {
      const { latencies } = await runOnce(mode);
      const sorted = [...latencies].sort((a, b) => a - b);
      const p50 = quantile(sorted, 0.5);
      byMode[mode] = p50;
      medians[mode].push(p50);
      rows.push([round, mode, sorted.length, p50, quantile(sorted, 0.99), sorted[0]!, sorted.at(-1)!]);
    }
    ratios.push(byMode.polling / byMode.channel);
  }
  const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(1)}..${Math.max(...xs).toFixed(1)}`;
  return {
    title: `Fill latency, sandbox match -> fill booked: user channel vs polling (default 1 s period), ${TAKES} takes per run, ${ROUNDS} rounds`,
    columns: ['round', 'source', 'fills', 'p50 ms', 'p99 ms', 'min ms', 'max ms'],
    rows,
    notes: [
      `median of run medians: channel ${median(medians.channel).toFixed(1)} ms (range ${range(medians.channel)}), polling ${median(medians.polling).toFixed(1)} ms (range ${range(medians.polling)})`,
      `polling p50 / channel p50 within a round: median ${median(ratios).toFixed(1)}x (range ${range(ratios)})`,
      'wall clock of this machine on both sides (the sandbox runs in this process); the machine may be loaded: compare within a round',
    ],
  };
}
