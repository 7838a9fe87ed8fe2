// Profiling aid (not a benchmark): the in-process tick-to-trade path for 15 orders with a local
// fetch stand-in (no network, no sandbox), split into stages by wrapping the parts from outside:
//   decode | cache + strategy | risk (checkBatch) | tracker + batch | prepare -> signMany
//   | signMany (build, hash, sign) | -> submit | submit -> fetch (body, HMAC, headers)
// Run: node bin/run-ts.mjs bench/children/tick-to-trade-profile.ts
// Env: ROUNDS (default 600), GAP ms between books (default 30), HELPERS (signing helper threads, default 0),
// SPIN=1 (keep the event loop polling between books instead of sleeping), STORE=1 (journal to a SQLite
// run store in a temporary directory, as the engine does with the store on; then the store's two
// writes inside the tick are timed too: the batch staged before its post, and its COMMIT).
// With --cpu-prof the same path can be profiled.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { LiveClock } from '../../src/core/clock.ts';
import { Secret } from '../../src/core/secret.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { TradingEngine, type EngineLogger } from '../../src/engine/trading-engine.ts';
import { LiveExecutionClient } from '../../src/execution/live-execution-client.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { apiCredentials } from '../../src/venue/auth/api-credentials.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { decodeOrderBooksText } from '../../src/venue/decode.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';
import { createOrderSigner, type OrderSigner } from '../../src/venue/signing/order-signer.ts';
import { signDigest } from '../../src/venue/signing/ecdsa.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 600);
const GAP_MS = Number(process.env.GAP ?? 30);
const HELPERS = Number(process.env.HELPERS ?? 0);
const store = process.env.STORE === '1' ? RunStore.open(join(mkdtempSync(join(tmpdir(), 'clobot-profile-')), 'run.sqlite'), { create: true, runName: 'profile' }) : undefined;
const WARMUP = 100;
const STAGES = ['decode', 'cache + strategy', 'risk', 'tracker + batch', 'to signMany', 'signMany', 'to submit', 'submit -> fetch'];

const KEY = '0x' + '42'.repeat(32);
const silent: EngineLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const clock = new LiveClock();

// marks of the current round, from t0 (book text in hand)
let t0 = 0;
let marks: number[] = [];
// CPU time of the process (user + system, ms) at each mark, from cpu0
let cpu0 = 0;
let cpuMarks: number[] = [];
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mark = (): void => {
  if (t0 > 0) {
    marks.push(performance.now());
    cpuMarks.push(cpuMs());
  }
};
const rounds: number[][] = [];
const cpuRounds: number[][] = [];
// STORE=1: wall ms of the store's stageOrders and of its COMMIT inside each round's tick
let staging = 0;
let committing = 0;
const storeRounds: [stage: number, commit: number][] = [];
if (store) {
  const stageOrders = store.stageOrders.bind(store);
  store.stageOrders = (orders) => {
    const start = performance.now();
    stageOrders(orders);
    if (t0 > 0) staging += performance.now() - start;
  };
  store.timeCommits((seconds) => {
    if (t0 > 0) committing += seconds * 1000;
  });
}

globalThis.fetch = (input, init) => {
  // the reads of a live run's start (our trades, for the guarded reconciliation): one empty page
  if (init?.method !== 'POST') {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/data/trades')) throw new Error(`tick-to-trade-profile: no stand-in for GET ${url}`);
    return Promise.resolve(new Response(JSON.stringify({ data: [], next_cursor: 'LTE=', limit: 100, count: 0 }), { status: 200, headers: { 'content-type': 'application/json' } }));
  }
  if (t0 > 0) {
    mark();
    rounds.push(marks.map((m) => m - t0));
    cpuRounds.push(cpuMarks.map((m) => m - cpu0));
    storeRounds.push([staging, committing]);
    t0 = 0;
  }
  if (typeof init?.body !== 'string') throw new Error('tick-to-trade-profile: the order post has no JSON text body');
  const n = (JSON.parse(init.body) as unknown[]).length;
  const answer = new Response(JSON.stringify(Array.from({ length: n }, () => ({ success: false, errorMsg: 'no orders found to match with FAK order', orderID: '', status: '' }))), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
  return Promise.resolve(answer);
};

const venue = createVenueClient({ baseUrl: 'http://127.0.0.1:9', clock, limits: { enabled: false } });
const address = privateKeyToAddress(Buffer.from(KEY.slice(2), 'hex'));
const signer: OrderSigner = createOrderSigner({ privateKey: new Secret(KEY), signerAddress: address, signatureType: 0 }, { profile: 'interface', signingHelpers: HELPERS, helperSpinMs: HELPERS > 0 ? 200 : 0 });
const signMany = signer.signMany.bind(signer);
const timedSigner: OrderSigner = {
  ...signer,
  signMany: (params) => {
    mark();
    const out = signMany(params);
    mark();
    return out;
  },
};
const conditionId = '0x' + 'ab'.repeat(32);
const token = {
  tokenId: '123456789',
  conditionId,
  outcome: 'Yes',
  outcomeIndex: 0 as const,
  complementTokenId: undefined,
  question: 'q',
  negRiskMarketId: undefined,
  rules: { conditionId, tickSize: 10_000, minOrderSize: 5_000_000, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true },
};
const execution = new LiveExecutionClient({
  venue,
  credentials: apiCredentials('00000000-0000-0000-0000-000000000001', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'aa'.repeat(32)),
  signer: timedSigner,
  markets: () => ({ conditionId, tickSize: 10_000, negRisk: false }),
});
const prepare = execution.prepare.bind(execution);
execution.prepare = (requests) => {
  mark();
  return prepare(requests);
};
const submit = execution.submit.bind(execution);
execution.submit = (orders) => {
  mark();
  return submit(orders);
};
const engine = new TradingEngine({
  clock,
  execution,
  marketEvents$: new Subject<MarketEvent>(),
  tokens: [token],
  strategies: [
    {
      id: 'b',
      params: {},
      tokenIds: [token.tokenId],
      definition: defineStrategy({
        name: 'b',
        onBook: ({ market }) => Array.from({ length: 15 }, () => ({ kind: 'place' as const, tokenId: market.tokenId, side: 'BUY' as const, price: 10_000, size: 5_000_000, orderType: 'FAK' as const })),
      }),
    },
  ],
  risk: { checks: ['tickGrid', 'priceBounds', 'minSize'], limits: {} },
  settings: { maxBatchWaitMs: 0, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0 }, reconcileDelayMs: 1000, syncIntervalMs: 0, maxInFlightBatches: 4 },
  startingBalance: 0,
  runId: store ? store.runId : 'prof0001',
  persistence: store ? storePersistence(store) : undefined,
  log: silent,
});
const checkBatch = engine.risk.checkBatch.bind(engine.risk);
engine.risk.checkBatch = (requests, state) => {
  mark();
  const out = checkBatch(requests, state);
  mark();
  return out;
};
engine.start();

const level = (price: number) => ({ price: price.toFixed(2), size: '100' });
const bookText = JSON.stringify([
  {
    market: conditionId,
    asset_id: token.tokenId,
    timestamp: '1',
    hash: 'h',
    bids: Array.from({ length: 20 }, (_, i) => level(0.4 - i * 0.01)),
    asks: Array.from({ length: 20 }, (_, i) => level(0.5 + i * 0.01)),
    min_order_size: '5',
    tick_size: '0.01',
    neg_risk: false,
    last_trade_price: '',
  },
]);
for (let i = 0; i < ROUNDS; i++) {
  const text = bookText.replace('"hash":"h"', `"hash":"h${i}"`);
  marks = [];
  cpuMarks = [];
  staging = 0;
  committing = 0;
  cpu0 = cpuMs();
  t0 = performance.now();
  const [book] = decodeOrderBooksText(text, clock.now());
  mark();
  engine.onMarketEvent({ type: 'book', book: book!, tsEvent: book!.tsEvent, tsInit: book!.tsInit });
  if (process.env.SPIN === '1') {
    const until = performance.now() + GAP_MS;
    while (performance.now() < until) await new Promise((r) => setImmediate(r));
  } else {
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
}

const keptAt = rounds.map((r, i) => i).filter((i) => i >= WARMUP && rounds[i]!.length === STAGES.length);
const pct = (values: number[], p: number): number => values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
// the same signing alone, at the same spacing: 15 digests signed in this thread
const key = Buffer.from(KEY.slice(2), 'hex');
const digests = Array.from({ length: 15 }, (_, i) => new Uint8Array(32).fill(i + 1));
const alone: number[] = [];
for (let i = 0; i < Math.min(ROUNDS, 500); i++) {
  const c = cpuMs();
  for (const d of digests) signDigest(d, key);
  if (i >= 50) alone.push(cpuMs() - c);
  await new Promise((r) => setTimeout(r, GAP_MS));
}
const cell = (v: number): string => v.toFixed(3).padStart(7);
console.log(`${keptAt.length} rounds of 15 orders, ${GAP_MS} ms apart, ${HELPERS} signing helper(s), store ${store ? 'on' : 'off'}; ms per stage (wall, and CPU of the process)`);
console.log('stage'.padEnd(18), 'p50'.padStart(7), 'p99'.padStart(7), 'CPU p50'.padStart(8), 'CPU p99'.padStart(8));
STAGES.forEach((name, k) => {
  const spans = keptAt.map((i) => rounds[i]![k]! - (k === 0 ? 0 : rounds[i]![k - 1]!));
  const cpu = keptAt.map((i) => cpuRounds[i]![k]! - (k === 0 ? 0 : cpuRounds[i]![k - 1]!));
  console.log(name.padEnd(18), cell(pct(spans, 0.5)), cell(pct(spans, 0.99)), ` ${cell(pct(cpu, 0.5))}`, ` ${cell(pct(cpu, 0.99))}`);
});
const totals = keptAt.map((i) => rounds[i]!.at(-1)!);
const cpuTotals = keptAt.map((i) => cpuRounds[i]!.at(-1)!);
const tickCpu = pct(cpuTotals, 0.5);
console.log('total'.padEnd(18), cell(pct(totals, 0.5)), cell(pct(totals, 0.99)), ` ${cell(tickCpu)}`, ` ${cell(pct(cpuTotals, 0.99))}`);
if (store) {
  const stage = pct(keptAt.map((i) => storeRounds[i]![0]), 0.5);
  const commit = pct(keptAt.map((i) => storeRounds[i]![1]), 0.5);
  const both = pct(keptAt.map((i) => storeRounds[i]![0] + storeRounds[i]![1]), 0.5);
  const tickWall = pct(totals, 0.5);
  console.log(`store in the tick (wall p50 ms): stageOrders ${stage.toFixed(3)}, COMMIT ${commit.toFixed(3)}, both ${both.toFixed(3)} = ${((100 * both) / tickWall).toFixed(1)}% of the tick's wall p50`);
}
const aloneCpu = pct(alone, 0.5);
console.log(`15 signatures alone: CPU p50 ${aloneCpu.toFixed(3)} ms; the tick's CPU p50 is ${(tickCpu / aloneCpu).toFixed(2)}x it`);
signer.close();
store?.close();
process.exit(0);
