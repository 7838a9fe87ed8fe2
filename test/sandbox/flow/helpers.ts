import { expect } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { FLOW_ACCOUNTS } from '../../../src/sandbox/flow/flow-accounts.ts';
import type { FlowParams } from '../../../src/sandbox/flow/flow-params.ts';
import { flowMarketsOf } from '../../../src/sandbox/flow/install-flow.ts';
import type { FlowTradingMode } from '../../../src/sandbox/flow/market-agent.ts';
import { SyntheticFlow } from '../../../src/sandbox/flow/synthetic-flow.ts';
import { SandboxEngine } from '../../../src/sandbox/trading/sandbox-engine.ts';
import { World } from '../../../src/sandbox/world/world.ts';
import type { MatchingEngine } from '../../../src/sim/matching/matching-engine.ts';

export const T0 = Date.UTC(2026, 10, 2);

export interface FlowRig {
  readonly world: World;
  readonly engine: SandboxEngine;
  readonly clock: SimulatedClock;
  readonly flow: SyntheticFlow;
}

export interface FlowRigOptions {
  seed?: number;
  markets?: number;
  events?: number;
  intensity?: number;
  params?: Partial<FlowParams>;
  mode?: () => FlowTradingMode;
  /** Default true. */
  start?: boolean;
}

/** A world, the sandbox's engine over it (seeded liquidity included) and a flow on a simulated clock at T0. */
export function flowRig(options: FlowRigOptions = {}): FlowRig {
  const clock = new SimulatedClock(T0);
  const world = new World({ seed: options.seed ?? 7, markets: options.markets ?? 24, events: options.events ?? 8, clock });
  const engine = new SandboxEngine(world, clock);
  const flow = new SyntheticFlow({
    engine,
    markets: flowMarketsOf(world, engine),
    seed: world.seed,
    clock,
    ...(options.intensity === undefined ? {} : { intensity: options.intensity }),
    ...(options.params === undefined ? {} : { params: options.params }),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
  });
  if (options.start !== false) flow.start();
  return { world, engine, clock, flow };
}

/** Every agent's balances are >= 0, and the ledger conserves collateral and tokens. */
export function expectSoundLedger(engine: MatchingEngine): void {
  for (const { address } of FLOW_ACCOUNTS) {
    const b = engine.ledger.balance(address);
    expect(b.collateral, `${address} collateral`).toBeGreaterThanOrEqual(0);
    expect(b.collateralReserved, `${address} reserved collateral`).toBeGreaterThanOrEqual(0);
    for (const t of b.tokens) {
      expect(t.balance, `${address} token ${t.tokenId}`).toBeGreaterThanOrEqual(0);
      expect(t.reserved, `${address} reserved token ${t.tokenId}`).toBeGreaterThanOrEqual(0);
    }
  }
  const totals = engine.ledger.totals();
  let sets = 0;
  for (const v of Object.values(totals.completeSets)) sets += v;
  expect(totals.collateral + totals.collateralReserved + totals.feesCollected + sets).toBe(totals.deposited);
  for (const market of engine.markets()) {
    const s = totals.completeSets[market.conditionId] ?? 0;
    expect(totals.tokenSupply[market.tokenIds[0]] ?? 0).toBe(s);
    expect(totals.tokenSupply[market.tokenIds[1]] ?? 0).toBe(s);
  }
}
