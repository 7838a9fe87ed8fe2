import type { FastifyInstance } from 'fastify';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { actionsPerSecondIssue } from './flow-params.ts';
import type { World } from '../world/world.ts';
import type { FlowMarket } from './market-agent.ts';
import { SyntheticFlow } from './synthetic-flow.ts';

/** `SandboxOptions.flow`. */
export interface SandboxFlowOptions {
  /** Default true. */
  readonly enabled?: boolean;
  /** Scales the flow's activity; default 1. */
  readonly intensity?: number;
  /**
   * Agent actions per second over the whole world, before the intensity (default 400): how often
   * the markets of a large world are visited and their books moved (flow-params.ts).
   */
  readonly actionsPerSecond?: number;
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
 * counts and rate) either way, and `POST /admin/flow {"actionsPerSecond": n}` (the rate from the
 * next step on; 409 when the flow is off). Returns the flow, or undefined when disabled.
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
          ...(options.actionsPerSecond === undefined ? {} : { params: { actionsPerSecond: options.actionsPerSecond } }),
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
  app.post('/admin/flow', { config: { admin: true } }, (request) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('admin/flow: the body must be a JSON object {"actionsPerSecond": n}');
    const unknown = Object.keys(body).find((k) => k !== 'actionsPerSecond');
    if (unknown !== undefined) throw badRequest(`admin/flow: unknown key ${unknown} (keys: actionsPerSecond)`);
    const n = (body as { actionsPerSecond?: unknown }).actionsPerSecond;
    const issue = actionsPerSecondIssue(n);
    if (issue !== undefined) throw badRequest(`admin/flow: actionsPerSecond ${issue}`);
    if (flow === undefined) throw new SandboxHttpError(409, 'admin/flow: the synthetic flow is off (--no-flow)');
    flow.setActionsPerSecond(n as number);
    return { enabled: true, ...flow.stats() };
  });
  return flow;
}

