import type { FastifyInstance } from 'fastify';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxContext } from '../context.ts';
import type { World } from '../world/world.ts';
import type { FlowMarket } from './market-agent.ts';
import { SyntheticFlow } from './synthetic-flow.ts';

/** `SandboxOptions.flow`. */
export interface SandboxFlowOptions {
  /** Default true. */
  readonly enabled?: boolean;
  /** Scales the flow's activity; default 1. */
  readonly intensity?: number;
}

/** The world's open markets that the engine lists and accepts orders for, in world order. */
export function flowMarketsOf(world: World, engine: MatchingEngine): FlowMarket[] {
  const out: FlowMarket[] = [];
  for (const m of world.markets) {
    if (m.closed || !m.enableOrderBook || !m.acceptingOrders) continue;
    if (engine.market(m.conditionId) === undefined) continue;
    out.push({ conditionId: m.conditionId, tokenIds: [m.tokens[0].tokenId, m.tokens[1].tokenId], index: m.index, initialMid: m.initialMid });
  }
  return out;
}

/**
 * Runs the synthetic flow in a sandbox app when `options.enabled` (the default): it starts when
 * the app is ready (listen or inject) and stops before it closes. Adds `GET /admin/flow` (its
 * counts) either way. Returns the flow, or undefined when disabled.
 */
export function installSyntheticFlow(
  app: FastifyInstance,
  ctx: SandboxContext,
  engine: MatchingEngine,
  options: SandboxFlowOptions = {},
): SyntheticFlow | undefined {
  const flow =
    options.enabled === false
      ? undefined
      : new SyntheticFlow({
          engine,
          markets: flowMarketsOf(ctx.world, engine),
          seed: ctx.world.seed,
          clock: ctx.clock,
          ...(options.intensity === undefined ? {} : { intensity: options.intensity }),
          mode: () => ctx.faults.settings.mode,
        });
  if (flow !== undefined) {
    app.addHook('onReady', (done) => {
      flow.start();
      done();
    });
    app.addHook('preClose', (done) => {
      flow.stop();
      done();
    });
  }
  app.get('/admin/flow', { config: { admin: true } }, () =>
    flow === undefined ? { enabled: false } : { enabled: true, ...flow.stats() },
  );
  return flow;
}

