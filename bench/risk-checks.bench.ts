import { CHECKS } from '../src/risk/checks/index.ts';
import { RiskEngine } from '../src/risk/risk-engine.ts';
import { DEFAULT_CHECK_ORDER, type RiskLimits, type RiskMarketView, type RiskOpenOrder, type RiskState } from '../src/risk/types.ts';
import type { OrderRequest } from '../src/core/intents.ts';
import type { BenchTable } from './table.ts';

/**
 * Risk checks per second on one thread: each check alone and the whole default chain (all
 * limits set, every order allowed so every check runs), plus a 15-order batch (the venue's
 * batch size), on a small book (20 markets, 10 open orders, 5 positions) and a large one
 * (400 markets in 20 neg-risk events, 500 open orders, 200 positions). Exposure checks walk
 * positions and open orders, so they scale with the state; the rest are constant time.
 */

const NOW = 1_700_000_000_000;
const TARGET_MS = 300;

interface Scenario {
  readonly name: string;
  readonly state: RiskState;
  readonly reqs: readonly OrderRequest[];
}

function scenario(name: string, nMarkets: number, nOpen: number, nPositions: number): Scenario {
  const markets = new Map<string, RiskMarketView>();
  for (let i = 0; i < nMarkets; i++) {
    const cond = `0xc${Math.floor(i / 2)}`;
    const tokenId = `t${i}`;
    markets.set(tokenId, {
      tokenId,
      conditionId: cond,
      outcomeIndex: (i % 2) as 0 | 1,
      complementTokenId: `t${i % 2 === 0 ? i + 1 : i - 1}`,
      negRiskMarketId: `e${Math.floor(i / 20)}`,
      tickSize: 10_000,
      minOrderSize: 5_000_000,
      acceptingOrders: true,
      bestBid: 400_000,
      bestAsk: 420_000,
      mid: 410_000,
      bookTsInit: NOW - 50,
    });
  }
  const openOrders: RiskOpenOrder[] = [];
  for (let i = 0; i < nOpen; i++) {
    const t = (i * 7) % nMarkets;
    openOrders.push({
      clientOrderId: `o${i}`,
      strategyId: `s${i % 3}`,
      tokenId: `t${t}`,
      conditionId: `0xc${Math.floor(t / 2)}`,
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      price: i % 2 === 0 ? 100_000 : 900_000,
      remaining: 10_000_000,
    });
  }
  const positions = new Map<string, number>();
  for (let i = 0; i < nPositions; i++) positions.set(`t${(i * 3) % nMarkets}`, 20_000_000);
  const state: RiskState = {
    now: NOW,
    markets,
    openOrders,
    positions,
    recentOrderTimes: [NOW - 500, NOW - 300],
    consecutiveRejects: 0,
    dailyPnl: 0,
    heartbeat: 'healthy',
    manualHalt: false,
    reconciling: new Set(),
  };
  const reqs: OrderRequest[] = Array.from({ length: 15 }, (_, i) => ({
    kind: 'place',
    strategyId: 's0',
    clientOrderId: `n${i}`,
    createdAt: NOW,
    tokenId: `t${(i * 2) % nMarkets}`,
    conditionId: `0xc${i % (nMarkets / 2)}`,
    side: 'BUY',
    price: 300_000 + (i % 5) * 10_000,
    size: 10_000_000,
  }));
  return { name, state, reqs };
}

const LIMITS: RiskLimits = {
  maxOrderNotional: 1_000_000_000,
  maxPositionPerToken: 1_000_000_000_000,
  maxPositionPerMarket: 1_000_000_000_000,
  maxGrossExposure: 1_000_000_000_000,
  maxNegRiskEventExposure: 1_000_000_000_000,
  maxOpenOrders: 10_000,
  maxOrdersPerSecond: 100,
  staleBookMs: 1000,
  dailyLossLimit: 1_000_000_000,
  maxConsecutiveRejects: 10,
};

/** Calls `fn` in growing rounds until TARGET_MS has passed; returns ns per call. */
function measure(fn: () => unknown): number {
  let calls = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  let round = 64;
  while (elapsed < TARGET_MS) {
    for (let i = 0; i < round; i++) if (fn() !== undefined) sink++;
    calls += round;
    round *= 2;
    elapsed = performance.now() - start;
  }
  if (sink < 0) throw new Error('unreachable');
  return (elapsed * 1e6) / calls;
}

export function run(): BenchTable {
  const rows: (string | number)[][] = [];
  for (const sc of [scenario('small', 20, 10, 5), scenario('large', 400, 500, 200)]) {
    const engine = new RiskEngine({ limits: LIMITS });
    const first = sc.reqs[0] as OrderRequest;
    const denied = engine.checkBatch(sc.reqs, sc.state).filter((d) => d !== undefined);
    if (denied.length > 0) throw new Error(`bench scenario ${sc.name} denies: ${denied[0]?.message}`);
    for (const name of DEFAULT_CHECK_ORDER) {
      const check = CHECKS[name];
      const ns = measure(() => check(first, sc.state, LIMITS));
      rows.push([sc.name, name, Math.round(ns), Math.round(1e9 / ns)]);
    }
    const chain = measure(() => engine.check(first, sc.state));
    rows.push([sc.name, 'default chain', Math.round(chain), Math.round(1e9 / chain)]);
    const batch = measure(() => engine.checkBatch(sc.reqs, sc.state));
    rows.push([sc.name, 'checkBatch(15), per order', Math.round(batch / 15), Math.round(15e9 / batch)]);
  }
  return {
    title: 'Risk checks (one thread)',
    columns: ['state', 'check', 'ns/order', 'orders/s'],
    rows,
    notes: [
      'small: 20 markets, 10 open orders, 5 positions; large: 400 markets (20 neg-risk events), 500 open orders, 200 positions',
      'every limit set and every order allowed, so each check runs to the end; money sums are exact (plain numbers below 2^53, BigInt beyond)',
    ],
  };
}
