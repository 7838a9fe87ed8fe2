import { SimulatedClock } from '../../../src/core/clock.ts';
import { MatchingEngine } from '../../../src/sim/matching-engine.ts';
import { flowMarketsOf } from '../../../src/sandbox/flow/install-flow.ts';
import { SyntheticFlow } from '../../../src/sandbox/flow/synthetic-flow.ts';
import type { FlowParams } from '../../../src/sandbox/flow/flow-params.ts';
import { World } from '../../../src/sandbox/world/world.ts';

export const T0 = Date.UTC(2026, 10, 2);

/** An engine listing every market of the world (empty books), as the sandbox's trading step does. */
export function engineForWorld(world: World): MatchingEngine {
  const engine = new MatchingEngine();
  for (const m of world.markets) {
    engine.addMarket({
      conditionId: m.conditionId,
      tokenIds: [m.tokens[0].tokenId, m.tokens[1].tokenId],
      tickSize: m.tickSize,
      minOrderSize: m.minOrderSize,
      negRisk: m.negRisk,
      makerBaseFeeBps: m.makerBaseFee,
      takerBaseFeeBps: m.takerBaseFee,
      acceptingOrders: m.acceptingOrders,
    });
  }
  return engine;
}

export interface FlowRig {
  readonly world: World;
  readonly engine: MatchingEngine;
  readonly clock: SimulatedClock;
  readonly flow: SyntheticFlow;
}

/** A world, its engine and a started flow on a simulated clock at T0. */
export function flowRig(options: { seed?: number; markets?: number; events?: number; intensity?: number; params?: Partial<FlowParams> } = {}): FlowRig {
  const clock = new SimulatedClock(T0);
  const world = new World({ seed: options.seed ?? 7, markets: options.markets ?? 24, events: options.events ?? 8, clock });
  const engine = engineForWorld(world);
  const flow = new SyntheticFlow({
    engine,
    markets: flowMarketsOf(world, engine),
    seed: world.seed,
    clock,
    ...(options.intensity === undefined ? {} : { intensity: options.intensity }),
    ...(options.params === undefined ? {} : { params: options.params }),
  });
  flow.start();
  return { world, engine, clock, flow };
}
