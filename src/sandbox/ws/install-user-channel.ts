import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { subscriptionCapOfWorld } from './caller-caps.ts';
import { UserChannel } from './user-channel.ts';
import type { SandboxWsOptions } from './install-market-channel.ts';

/**
 * Serves the WebSocket user channel (user-channel.ts) on the sandbox app's own HTTP server, in
 * both profiles, fed by the sandbox's matching engine and checked against its issued API keys.
 * Admin routes (loopback only): `GET /admin/ws/user` (counts) and `POST /admin/ws/user/drop`
 * (terminate every user socket: a forced disconnect for reconnect tests).
 */
export function installUserChannel(app: FastifyInstance, ctx: SandboxContext, options: SandboxWsOptions = {}): UserChannel {
  const channel = new UserChannel({
    engine: ctx.engine,
    world: ctx.world,
    clock: ctx.clock,
    apiKey: (key) => ctx.apiKeys.get(key),
    maxBufferedBytes: options.maxBufferedBytes,
    maxConnectionsPerCaller: options.maxConnectionsPerCaller,
    maxSubscriptionsPerCaller: options.maxSubscriptionsPerCaller ?? subscriptionCapOfWorld(() => ctx.world.markets.length),
    resendRate: () => ctx.faults.settings.wsUserResendRate,
  });
  channel.attach(app.server);
  app.addHook('preClose', (done) => {
    channel.close();
    done();
  });
  const admin = { config: { admin: true } };
  app.get('/admin/ws/user', admin, () => channel.stats());
  app.post('/admin/ws/user/drop', admin, () => ({ dropped: channel.dropAll() }));
  return channel;
}
