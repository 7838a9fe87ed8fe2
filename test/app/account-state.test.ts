import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { OrderEvent } from '../../src/core/events.ts';
import { formatMicros } from '../../src/core/fixed.ts';
import { createLogger } from '../../src/core/log.ts';
import { Secret } from '../../src/core/secret.ts';
import type { EngineEvent } from '../../src/engine/ports.ts';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../src/sandbox/world/model.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { buildStatusReport } from '../../src/store/store-status.ts';
import { getBalanceAllowance } from '../../src/venue/actions/get-balance-allowance.ts';
import { getOrCreateApiKey } from '../../src/venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../src/venue/actions/get-order-book.ts';
import { getAllPositions } from '../../src/venue/actions/get-positions.ts';
import { postOrders } from '../../src/venue/actions/post-orders.ts';
import { withL2Auth } from '../../src/venue/auth/with-l2-auth.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';
import { clobotProcess } from '../cli/clobot-process.ts';
import { TEST_PRIVATE_KEY, waitFor } from '../engine/e2e/harness.ts';
import { addressOf, signer } from '../venue/trading/helpers.ts';
import { cashChecks } from './strategies/cash-checker.ts';

/**
 * Issue 13 point 1 end to end against the sandbox: a live run starts with the account's real
 * balance and positions; a strategy that checks its cash before buying trades live as it does
 * in paper; a position bought outside the bot (an order of the same account before the run) is
 * reported and never sold by the bot; the run's summary and `clobot status` agree.
 */

const STRATEGY = resolve('test/app/strategies/cash-checker.ts');
const TICK = 10_000;
const MANUAL = 10_000_000;
const ADDRESS = addressOf(TEST_PRIVATE_KEY);

let sandbox: RunningSandbox;
let venue: VenueClient;
let l2: VenueClient;
let market: SandboxMarket;
let dir: string;

async function venueCash(): Promise<number> {
  return (await getBalanceAllowance(l2, { assetType: 'COLLATERAL' })).balance;
}

async function venueHeld(tokenId: string): Promise<number> {
  const index = market.tokens.findIndex((t) => t.tokenId === tokenId);
  return (await getAllPositions(venue, ADDRESS)).filter((p) => p.conditionId === market.conditionId && p.outcomeIndex === index).reduce((a, p) => a + p.size, 0);
}

function config(mode: 'live' | 'paper', tag: string, store: string): string {
  const path = join(dir, `${tag}.yaml`);
  const doc: Record<string, unknown> = {
    mode,
    venue: { baseUrl: sandbox.url, timeoutMs: 5000, retries: 2 },
    data: { transport: 'poll', pollIntervalMs: 250, staleAfterMs: 5000, markets: { conditionIds: [market.conditionId] } },
    strategies: [{ id: 'cash', module: STRATEGY, params: { tag, tokenId: market.tokens[0].tokenId, size: 10, sell: 5 } }],
    risk: { maxOrderNotional: 50, maxPositionPerToken: 200, maxPositionPerMarket: 200, maxGrossExposure: 1000, haltFile: join(dir, `${tag}.HALT`) },
    execution: { maxBatchWaitMs: 20, orderTimeoutMs: 2000, heartbeatIntervalMs: 1000, accountSyncMs: 500 },
    store: { path: store },
    logging: { level: 'silent' },
  };
  if (mode === 'live') doc['account'] = { signatureType: 0 };
  else doc['paper'] = { balance: 10_000 };
  writeFileSync(path, stringify(doc));
  return path;
}

async function run(mode: 'live' | 'paper', tag: string): Promise<{ summary: EngineSummary; events: EngineEvent[]; store: string }> {
  const store = join(dir, `${tag}.sqlite`);
  const cfg = loadConfig(config(mode, tag, store), { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }, { cwd: dir });
  const events: EngineEvent[] = [];
  const session = await startRunSession({ config: cfg, logger: createLogger({ level: 'silent' }), onEvent: (e) => events.push(e) });
  try {
    // the SELL is refused: live by risk (shares held outside), in paper by the simulated venue (no shares)
    const sellAnswered = (): OrderEvent | undefined =>
      events.flatMap((e) => (e.type === 'order' && (e.event.type === 'OrderDenied' || e.event.type === 'OrderRejected') ? [e.event] : [])).at(0);
    const filled = (): boolean => events.some((e) => e.type === 'fill');
    await waitFor(`${tag}: the strategy's decision, its fill and its refused SELL`, () => cashChecks(tag).length > 0 && filled() && sellAnswered() !== undefined, 30_000);
    if (mode === 'live') {
      // readings of the account go on: the run's cash and the venue's agree once the fill is booked
      await waitFor('the run\'s cash equal to the venue\'s', async () => session.engine.summary().account.cash === formatMicros(await venueCash()), 20_000);
    }
  } catch (err) {
    await session.stop();
    throw err;
  }
  return { summary: await session.stop(), events, store };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'clobot-account-'));
  // no synthetic flow: only our orders move the books
  sandbox = await startSandbox({ port: 0, seed: 1, markets: 20, events: 6, flow: { enabled: false } });
  venue = createVenueClient({ baseUrl: sandbox.url, retries: 0 });
  let ask: number | undefined;
  for (const m of sandbox.world.markets) {
    if (!m.acceptingOrders || m.closed || !m.enableOrderBook || m.negRisk || m.tickSize !== TICK || m.minOrderSize > 5_000_000) continue;
    const book = await getOrderBook(venue, m.tokens[0].tokenId);
    const top = book.asks[0];
    const bid = book.bids[0];
    if (top !== undefined && bid !== undefined && top.price < 800_000 && top.size >= 40_000_000 && bid.size >= 10_000_000) {
      market = m;
      ask = top.price;
      break;
    }
  }
  if (ask === undefined) throw new Error('no suitable market in the sandbox world');
  // the "manual" trade: the same account buys 10 shares by hand before any run
  const creds = await getOrCreateApiKey(venue, { privateKey: new Secret(TEST_PRIVATE_KEY) });
  l2 = withL2Auth(venue, { address: ADDRESS, credentials: creds });
  const order = signer('interface', TEST_PRIVATE_KEY).sign({
    tokenId: market.tokens[0].tokenId,
    conditionId: market.conditionId,
    price: ask,
    size: MANUAL,
    side: 'BUY',
    tick: TICK,
    negRisk: false,
    orderType: 'FAK',
    salt: 1,
    timestamp: Date.now(),
    clientOrderId: 'by-hand',
  });
  const [result] = await postOrders(l2, { owner: creds.apiKey, orders: [order] });
  expect(result).toMatchObject({ kind: 'accepted', status: 'MATCHED' });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('account state from the venue', () => {
  let live: Awaited<ReturnType<typeof run>>;
  let cashAtStart: number;

  it('a live run starts with the account’s balance; a strategy checking its cash trades; the shares bought by hand are reported and left alone', async () => {
    cashAtStart = await venueCash();
    expect(cashAtStart).toBeLessThan(10_000_000_000);
    live = await run('live', 'live');
    const [check] = cashChecks('live');
    // ctx.balance() is the venue's collateral (nothing reserved yet), not zero
    expect(check).toMatchObject({ free: cashAtStart, position: 0, decision: 'bought' });
    // the bot's own BUY filled, its SELL of shares it does not hold was refused by the outside gate
    const denied = live.events.flatMap((e) => (e.type === 'order' && e.event.type === 'OrderDenied' ? [e.event] : []));
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ code: 'POSITION_LIMIT' });
    expect(denied[0]!.type === 'OrderDenied' && denied[0]!.reason).toMatch(/held outside the bot/);
    const bought = live.events.reduce((a, e) => a + (e.type === 'fill' && e.fill.side === 'BUY' ? e.fill.size : 0), 0);
    expect(bought).toBeGreaterThan(0);
    // the summary: cash from the venue, the manual shares listed apart
    const account = live.summary.account;
    expect(account.source).toBe('venue');
    expect(account.outside).toEqual([expect.objectContaining({ tokenId: market.tokens[0].tokenId, size: formatMicros(MANUAL) })]);
    // the bot's figures hold only its own shares: position value = its shares × mark
    expect(Number(account.positionValue)).toBeLessThanOrEqual((bought / 1e6) * 1);
    // the venue still holds the manual shares and the bot's: nothing of the manual part was sold
    expect(await venueHeld(market.tokens[0].tokenId)).toBe(MANUAL + bought);
    // and the summary's cash is the venue's after the run
    expect(account.cash).toBe(formatMicros(await venueCash()));
  }, 90_000);

  it('`clobot status` of the run’s store shows the same figures under the same names', async () => {
    const r = await clobotProcess(['status', live.store, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { account: Record<string, unknown> };
    const { source: _source, outside: _outside, ...figures } = live.summary.account;
    const { source, outside, marks, ...statusFigures } = report.account;
    expect(statusFigures).toEqual(figures);
    expect(source).toBe('venue');
    expect(marks).toBe('run');
    expect(outside).toEqual(live.summary.account.outside);
    // the table form says the same
    const text = await clobotProcess(['status', live.store]);
    const a = live.summary.account;
    expect(text.stdout).toContain(`cash ${a.cash}  reserved ${a.reserved}  free ${a.free}  position value ${a.positionValue}  equity ${a.equity}  (cash: venue)`);
    expect(text.stdout).toContain(`outside the bot: ${market.tokens[0].tokenId} ${formatMicros(MANUAL)} shares`);
  });

  it('in paper the same strategy decides the same (it buys), from the configured cash', async () => {
    const paper = await run('paper', 'paper');
    const [check] = cashChecks('paper');
    expect(check).toMatchObject({ free: 10_000_000_000, position: 0, decision: 'bought' });
    expect(paper.summary.account.source).toBe('configured');
    expect(paper.summary.account.outside).toEqual([]);
    // no outside shares in paper: the SELL of shares it does not hold is the simulated venue's refusal, not risk's
    const statusReader = StoreReader.open(paper.store);
    try {
      const { source: _s, outside: _o, marks: _m, ...statusFigures } = buildStatusReport(statusReader.snapshot()).account;
      const { source: _ss, outside: _oo, ...figures } = paper.summary.account;
      expect(statusFigures).toEqual(figures);
    } finally {
      statusReader.close();
    }
  }, 90_000);
});
