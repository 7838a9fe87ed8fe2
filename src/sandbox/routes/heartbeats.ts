import type { FastifyInstance } from 'fastify';
import type { WireHeartbeat, WireHeartbeatStatus } from '../../venue/wire/account.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest, SandboxHttpError } from '../http-error.ts';
import { authenticateL2 } from '../trading/auth.ts';
import { ERR_HEARTBEAT_ID } from '../trading/messages.ts';

/**
 * Heartbeats (4.1, PROTOCOL "Heartbeats"), L2-authenticated, per API key: `POST /v1/heartbeats`
 * `{"heartbeat_id"}` answers the next id or `400 {"error": "Invalid Heartbeat ID",
 * "heartbeat_id": <expected>}`; `POST /heartbeats` answers `{"status": "ok"}`. The deadline and
 * the cancel on expiry are in trading/heartbeats.ts. They pass in every trading mode.
 */
export function registerHeartbeatRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v1/heartbeats', { config: { routeId: 'postHeartbeatV1' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    const body = request.body as Record<string, unknown> | undefined;
    const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? body['heartbeat_id'] : undefined;
    if (typeof id !== 'string') throw badRequest('postHeartbeatV1: body must be {"heartbeat_id": string} ("" starts a chain)');
    const outcome = ctx.heartbeats.beatV1(caller.apiKey, id, ctx.clock.now());
    if (!outcome.ok) throw new SandboxHttpError(400, ERR_HEARTBEAT_ID, undefined, { heartbeat_id: outcome.heartbeatId });
    return { heartbeat_id: outcome.heartbeatId } satisfies WireHeartbeat;
  });

  app.post('/heartbeats', { config: { routeId: 'postHeartbeat' } }, (request) => {
    const caller = authenticateL2(ctx, request);
    ctx.heartbeats.beatLegacy(caller.apiKey, ctx.clock.now());
    return { status: 'ok' } satisfies WireHeartbeatStatus;
  });
}
