import type { FastifyInstance } from 'fastify';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SandboxContext } from '../context.ts';
import { subscriptionCapOfWorld } from './caller-caps.ts';
import { MarketChannel } from './market-channel.ts';

/** The WebSocket channels' caps per caller (remote IP address), each channel counted on its own, and their backpressure limit (`SandboxOptions.ws`). */
export interface SandboxWsOptions {
  /** Connections one caller may hold open on a channel; one more is closed at once with code 1008 and a reason. Default 64. */
  readonly maxConnectionsPerCaller?: number;
  /** Subscriptions (market channel: assets; user channel: markets) one caller may hold over all its connections to a channel; a subscription past it closes that connection with 1008. Default: twice the world's (assets or markets, as it grows), at least 20,000. */
  readonly maxSubscriptionsPerCaller?: number;
  /** A connection whose unsent data passes this many bytes is dropped (its client reconnects). Default 4 MiB. */
  readonly maxBufferedBytes?: number;
}

/**
 * Serves the WebSocket market channel on the sandbox app's own HTTP server (paths `/ws/market`
 * and `/clob/ws/market`), fed by `engine`. Connections are terminated before the app closes.
 * Admin routes (loopback only): `GET /admin/ws` (counts) and `POST /admin/ws/drop` (terminate
 * every connection, for reconnect tests).
 */
export function installMarketChannel(app: FastifyInstance, ctx: SandboxContext, engine: MatchingEngine, options: SandboxWsOptions = {}): MarketChannel {
  const channel = new MarketChannel({
    ...options,
    // two tokens a market
    maxSubscriptionsPerCaller: options.maxSubscriptionsPerCaller ?? subscriptionCapOfWorld(() => 2 * ctx.world.markets.length),
    engine,
    clock: ctx.clock,
    // fault `wsSilent`: connections open, PINGs answered, no market message
    silent: () => ctx.faults.settings.wsSilent,
    // Before a token trades in the sandbox, REST books show the world's last trade; so do snapshots.
    lastTradeFallback: (tokenId) => ctx.world.seededBooks.book(tokenId)?.lastTradePrice,
  });
  channel.attach(app.server);
  app.addHook('preClose', (done) => {
    channel.close();
    done();
  });
  const admin = { config: { admin: true } };
  app.get('/admin/ws', admin, () => channel.stats());
  app.post('/admin/ws/drop', admin, () => ({ dropped: channel.dropAll() }));
  return channel;
}

