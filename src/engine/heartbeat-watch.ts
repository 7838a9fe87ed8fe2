import { HeartbeatSupervisor, type HeartbeatHealth } from '../execution/heartbeat.ts';
import type { EngineDesk } from './engine-desk.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import type { EngineOptions } from './ports.ts';
import type { Reconciler } from './reconciler.ts';

/**
 * The run's heartbeat to the venue and what the engine does when it is lost and comes back: the
 * venue cancels every open order when it misses our heartbeat, so ours are taken as cancelled;
 * once it is healthy again our open orders are synced with the venue's, and (live) no market is
 * traded until our trades at the venue are read in full again.
 */

/** The heartbeat (`options.heartbeat`, with an edge that beats): each acknowledgement measured and kept in the store; undefined without one. */
export function heartbeatOf(options: EngineOptions, desk: EngineDesk): HeartbeatSupervisor | undefined {
  const exec = options.execution;
  if (!options.heartbeat || !exec.heartbeat) return undefined;
  const persistence = options.persistence;
  return new HeartbeatSupervisor({
    clock: options.clock,
    beat: (prev) => exec.heartbeat!(prev),
    intervalMs: options.heartbeat.intervalMs,
    initialId: options.heartbeat.initialId ?? options.restore?.heartbeatId,
    onAck: (id, at, latencyMs) => {
      desk.metrics.observe(ENGINE_METRICS.heartbeatLatency, latencyMs / 1000);
      persistence?.heartbeatId(id, at);
    },
  });
}

/** Follows the heartbeat's health until the engine stops (its subscriptions), and starts it. */
export function watchHeartbeat(heartbeat: HeartbeatSupervisor, desk: EngineDesk, reconciler: Reconciler, options: EngineOptions): void {
  const { clock, execution, log } = options;
  const subs = desk.subs;
  let previous: HeartbeatHealth = 'idle';
  subs.add(
    heartbeat.health$.subscribe((health) => {
      desk.emit({ type: 'heartbeat', health, at: clock.now() });
      if (health === 'lost') reconciler.heartbeatLost();
      if (previous === 'lost' && health === 'healthy') {
        reconciler.sync('heartbeat recovered');
        if (execution.fillsSnapshot$) {
          reconciler.awaitSnapshot('the heartbeat recovered');
          // a read now (an edge fed by the user channel polls only when asked): the markets open when it is complete
          if (execution.flushFills) subs.add(execution.flushFills().subscribe({ error: (err: unknown) => log.warn('reading our trades after the heartbeat recovered failed', { err: String(err) }) }));
        }
      }
      if (health !== previous) log.info('heartbeat', { health });
      previous = health;
    }),
  );
  heartbeat.start();
}
