import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { sandboxHistory } from '../src/sandbox/server.ts';
import { SandboxActivity } from '../src/sandbox/trading/sandbox-activity.ts';
import { SimulatedClock } from '../src/core/clock.ts';
import { decodeWsMarketText } from '../src/data/ws-messages.ts';
import { flowMarketsOf } from '../src/sandbox/flow/install-flow.ts';
import { SyntheticFlow } from '../src/sandbox/flow/synthetic-flow.ts';
import { SandboxEngine } from '../src/sandbox/trading/sandbox-engine.ts';
import { World } from '../src/sandbox/world/world.ts';
import type { BenchTable } from './table.ts';

const T0 = Date.UTC(2026, 10, 2);

/**
 * The synthetic flow's CPU per second of venue time, for a small and a large world: the visit
 * budget is fixed, so the cost should not grow with the number of markets. Virtual time, so the
 * wall time measured is pure CPU.
 */
function flowTable(): BenchTable {
  const rows: (string | number)[][] = [];
  for (const [markets, intensity] of [
    [200, 1],
    [5_000, 1],
    [5_000, 4],
  ] as const) {
    const clock = new SimulatedClock(T0);
    const world = new World({ seed: 1, markets, events: Math.max(1, Math.floor(markets / 4)), clock });
    const engine = new SandboxEngine(world, clock, { keepClosedOrders: false });
    const flow = new SyntheticFlow({ engine, markets: flowMarketsOf(world, engine), seed: 1, clock, intensity });
    flow.start();
    // Warm up: every market visited (and its liquidity seeded) at least once (a visit costs a few actions).
    const warmSec = Math.ceil(flow.stats().markets / (40 * intensity)) + 5;
    clock.advanceTo(T0 + warmSec * 1_000);
    const before = flow.stats();
    // Three windows of 20 s; the fastest is reported (the machine may be shared).
    const seconds = 60;
    let bestMsPerSec = Infinity;
    let at = warmSec;
    for (let w = 0; w < 3; w++) {
      const t = performance.now();
      for (let s = 1; s <= seconds / 3; s++) clock.advanceTo(T0 + (at + s) * 1_000);
      at += seconds / 3;
      bestMsPerSec = Math.min(bestMsPerSec, (performance.now() - t) / (seconds / 3));
    }
    const after = flow.stats();
    const orders = after.makerOrders + after.takerOrders - before.makerOrders - before.takerOrders;
    rows.push([
      markets,
      intensity,
      bestMsPerSec,
      (after.actions - before.actions) / seconds,
      (after.visits - before.visits) / seconds,
      orders / seconds,
      (after.cancels - before.cancels) / seconds,
      (after.trades - before.trades) / seconds,
    ]);
    flow.stop();
  }
  return {
    title: 'sandbox synthetic flow: CPU per second of venue time',
    columns: ['markets', 'intensity', 'cpu ms / venue s', 'actions / s', 'visits / s', 'orders / s', 'cancels / s', 'trades / s'],
    rows,
    notes: [
      '60 s of virtual time (best of three 20 s windows for the CPU column) after a warm-up that visits every market once; SandboxEngine with keepClosedOrders false',
      'the action budget (400/s x intensity: visits, orders, cancel calls, trades) bounds the work: 5,000 markets cost what 200 do',
    ],
  };
}

/** The client decoder on market-channel frames. */
function decodeTable(): BenchTable {
  const dir = fileURLToPath(new URL('../../shared/fixtures/venue', import.meta.url));
  const frames: [string, string][] = [
    ['price_change (3 levels)', readFileSync(`${dir}/ws_market_price_change.json`, 'utf8')],
    ['book (7 + 57 levels)', readFileSync(`${dir}/ws_market_book.json`, 'utf8')],
    ['last_trade_price', readFileSync(`${dir}/ws_market_last_trade_price.json`, 'utf8')],
  ];
  const rows: (string | number)[][] = [];
  for (const [name, text] of frames) {
    let n = 0;
    const t = performance.now();
    while (performance.now() - t < 1_000) {
      for (let i = 0; i < 1_000; i++) decodeWsMarketText(text, 0);
      n += 1_000;
    }
    const ms = performance.now() - t;
    rows.push([name, text.length, (n / ms) * 1000, (ms * 1000) / n]);
  }
  return {
    title: 'ws market channel: client decode',
    columns: ['frame', 'bytes', 'frames / s', 'us / frame'],
    rows,
    notes: ['decodeWsMarketText: JSON.parse + field checks + exact decimals (book levels sorted)'],
  };
}

/**
 * Heap growth of a sandbox with synthetic flow over hours of virtual time, with the sandbox's
 * history policy (src/sandbox/server.ts sandboxHistory) and with everything kept.
 */
function memoryTable(): BenchTable {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapMb = (): number => {
    gc();
    return process.memoryUsage().heapUsed / 1e6;
  };
  const rows: (string | number)[][] = [];
  const hours = 4;
  for (const [label, bounded] of [
    ['sandbox history policy', true],
    ['everything kept', false],
  ] as const) {
    const clock = new SimulatedClock(T0);
    const world = new World({ seed: 1, markets: 200, events: 50, clock });
    const policy = sandboxHistory();
    const engine = new SandboxEngine(world, clock, bounded ? policy.engine : {});
    const activity = new SandboxActivity(world, engine, bounded ? policy.activity : {});
    const flow = new SyntheticFlow({ engine, markets: flowMarketsOf(world, engine), seed: 1, clock, intensity: 2 });
    flow.start();
    const points: number[] = [];
    for (let h = 0; h <= hours; h++) {
      if (h > 0) for (let s = 1; s <= 3_600; s++) clock.advanceTo(T0 + ((h - 1) * 3_600 + s) * 1_000);
      points.push(heapMb());
    }
    flow.stop();
    const growth = (points[hours]! - points[2]!) / (hours - 2);
    rows.push([label, flow.stats().trades, activity.fills().length, ...points.slice(1).map((p) => Number(p.toFixed(1))), Number(growth.toFixed(1))]);
  }
  return {
    title: `sandbox with synthetic flow: heap over ${hours} hours of venue time (200 markets, intensity 2)`,
    columns: ['history', 'trades', 'fills listed', ...Array.from({ length: hours }, (_, h) => `heap ${h + 1} h (MB)`), `growth MB / h (hours 2-${hours})`],
    rows,
    notes: ['virtual time; heap used after a full GC; the policy keeps clients\' own orders, trades and fills in full and the newest 20,000 trades and fills of all accounts and 2,000 fills per synthetic account (flow agents, seeded liquidity)'],
  };
}

export function run(): BenchTable[] {
  return [flowTable(), decodeTable(), memoryTable()];
}
