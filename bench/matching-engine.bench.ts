import { seededRandom as rng } from '../src/core/seeded-random.ts';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { OrderType, Side } from '../src/core/types.ts';
import { MatchingEngine } from '../src/sim/matching/matching-engine.ts';
import type { SimOrderRequest } from '../src/sim/types.ts';
import { printTable, type BenchTable } from './table.ts';

/**
 * Throughput of the simulated matching engine on one core, for order flows shaped like a venue's:
 * limit orders resting a few ticks around a mid on both tokens of 20 markets, marketable takers
 * that cross, and cancels of recent orders. Operations are generated up front (seeded), so the
 * timed loop is engine calls only.
 */

const MARKETS = 20;
const ACCOUNTS = 200;
const TICK = 10_000; // 0.01
const MID = 500_000;
const T0 = 1_700_000_000_000;

interface Mix {
  readonly name: string;
  /** Shares of resting limits, crossing takers and cancels (sum 1). */
  readonly rest: number;
  readonly take: number;
  readonly cancel: number;
  /** Ticks a resting order sits away from the mid: 1..restSpread. */
  readonly restSpread: number;
  /** Ticks beyond the mid a taker's limit reaches. */
  readonly takeDepth: number;
  readonly listener: boolean;
}

const MIXES: readonly Mix[] = [
  { name: 'resting only (no cross)', rest: 1, take: 0, cancel: 0, restSpread: 20, takeDepth: 0, listener: false },
  { name: 'mix 60/20/20 rest/take/cancel', rest: 0.6, take: 0.2, cancel: 0.2, restSpread: 10, takeDepth: 3, listener: false },
  { name: 'same mix, event listener on', rest: 0.6, take: 0.2, cancel: 0.2, restSpread: 10, takeDepth: 3, listener: true },
  { name: 'takers sweep 10 levels', rest: 0.7, take: 0.3, cancel: 0, restSpread: 10, takeDepth: 10, listener: false },
];

type Op = { kind: 'submit'; order: SimOrderRequest } | { kind: 'cancel'; id: string; owner: string };

function conditionId(i: number): string {
  return '0x' + i.toString(16).padStart(64, '0');
}

function setup(): MatchingEngine {
  const e = new MatchingEngine({ startingCollateral: 1e15 });
  for (let i = 0; i < MARKETS; i++) {
    e.addMarket({
      conditionId: conditionId(i),
      tokenIds: [`${i}-yes`, `${i}-no`],
      tickSize: TICK,
      minOrderSize: 5_000_000,
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 100,
      acceptingOrders: true,
      negRisk: false,
    });
  }
  for (let a = 0; a < ACCOUNTS; a++) for (let i = 0; i < MARKETS; i++) e.split(`w${a}`, conditionId(i), 1e12);
  return e;
}

function generate(mix: Mix, count: number, seed: number): Op[] {
  const r = rng(seed);
  const ops: Op[] = [];
  const placed: { id: string; owner: string }[] = [];
  for (let n = 0; n < count; n++) {
    const u = r();
    if (u >= mix.rest + mix.take && placed.length > 0) {
      // Cancel one of the last ~2000 orders (it may have filled meanwhile: the engine says so).
      const back = 1 + Math.floor(r() * Math.min(2000, placed.length));
      const target = placed[placed.length - back] as { id: string; owner: string };
      ops.push({ kind: 'cancel', id: target.id, owner: target.owner });
      continue;
    }
    const taking = u >= mix.rest;
    const market = Math.floor(r() * MARKETS);
    const account = Math.floor(r() * ACCOUNTS);
    const onNo = r() < 0.5;
    const wantsBid = r() < 0.5; // in YES terms
    // YES price: resting orders sit on their side of the mid; takers reach across it.
    const ticks = taking ? 1 + Math.floor(r() * mix.takeDepth) : 1 + Math.floor(r() * mix.restSpread);
    const yesPrice = taking ? (wantsBid ? MID + ticks * TICK : MID - ticks * TICK) : wantsBid ? MID - ticks * TICK : MID + ticks * TICK;
    const side: Side = onNo ? (wantsBid ? 'SELL' : 'BUY') : wantsBid ? 'BUY' : 'SELL';
    const type: OrderType = taking ? (r() < 0.5 ? 'FAK' : 'GTC') : 'GTC';
    const owner = `k${account}`;
    const id = `0x${seed.toString(16)}-${n}`;
    ops.push({
      kind: 'submit',
      order: {
        id,
        owner,
        address: `w${account}`,
        tokenId: `${market}-${onNo ? 'no' : 'yes'}`,
        side,
        price: onNo ? 1_000_000 - yesPrice : yesPrice,
        size: (5 + Math.floor(r() * 46)) * 1_000_000,
        type,
        createdAt: T0 + n,
      },
    });
    placed.push({ id, owner });
  }
  return ops;
}

interface Outcome {
  seconds: number;
  submits: number;
  cancels: number;
  trades: number;
  rejected: number;
  events: number;
  openAtEnd: number;
}

function play(mix: Mix, ops: readonly Op[]): Outcome {
  const e = setup();
  let events = 0;
  if (mix.listener) e.onEvent(() => events++);
  let submits = 0;
  let cancels = 0;
  let trades = 0;
  let rejected = 0;
  const start = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as Op;
    const now = T0 + i;
    if (op.kind === 'submit') {
      const res = e.submit(op.order, now);
      submits++;
      trades += res.trades.length;
      if (res.status === 'REJECTED') rejected++;
    } else {
      e.cancel(op.id, op.owner, now);
      cancels++;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  return { seconds, submits, cancels, trades, rejected, events, openAtEnd: e.openOrders().length };
}

export function run(): BenchTable {
  const opsPerMix = Number(process.env.SIM_BENCH_OPS ?? 300_000);
  // Warm-up so the JIT has compiled the hot paths before timing.
  play(MIXES[1] as Mix, generate(MIXES[1] as Mix, 50_000, 7));
  const rows: (string | number)[][] = [];
  for (const [i, mix] of MIXES.entries()) {
    const ops = generate(mix, opsPerMix, 1000 + i);
    const o = play(mix, ops);
    rows.push([
      mix.name,
      ops.length,
      o.submits,
      o.cancels,
      o.trades,
      o.rejected,
      o.openAtEnd,
      Math.round(ops.length / o.seconds),
      Math.round(o.submits / o.seconds),
      (o.seconds * 1e6) / ops.length,
    ]);
  }
  return {
    title: 'Matching engine (src/sim), one core',
    columns: ['flow', 'ops', 'submits', 'cancels', 'trades', 'rejected', 'open at end', 'ops/s', 'orders/s', 'µs/op'],
    rows,
    notes: [
      `${MARKETS} markets (tick 0.01, taker fee 100 bps), ${ACCOUNTS} accounts, half the orders on the NO token (mirrored into the one YES book)`,
      'sizes 5-50 shares; takers are half GTC, half FAK; cancels target one of the last 2000 orders (some already filled)',
      'every call passes `now`, so each also runs the GTD expiry check; closed orders and trades are kept for queries',
      `node ${process.version}; SIM_BENCH_OPS=${opsPerMix} operations per flow`,
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(run());
}
