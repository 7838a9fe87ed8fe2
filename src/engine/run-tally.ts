import type { MetricsSink } from '../core/metrics.ts';
import type { HeartbeatHealth, HeartbeatStats } from '../execution/heartbeat.ts';
import type { EngineDesk } from './engine-desk.ts';
import { HALT_NAMES } from './halts.ts';
import type { FaultReport } from './engine-summary.ts';
import { ENGINE_METRICS, STATUS_429 } from './engine-metrics.ts';
import type { EngineEvent } from './ports.ts';

const HEALTHS: readonly HeartbeatHealth[] = ['idle', 'healthy', 'late', 'lost'];
const HEALTH_LABELS = Object.fromEntries(HEALTHS.map((h) => [h, Object.freeze({ health: h })])) as Record<HeartbeatHealth, { health: string }>;
const FINAL_LABELS: Partial<Record<string, { state: string }>> = {
  FILLED: Object.freeze({ state: 'filled' }),
  CANCELED: Object.freeze({ state: 'canceled' }),
  REJECTED: Object.freeze({ state: 'rejected' }),
  EXPIRED: Object.freeze({ state: 'expired' }),
};
const HALT_LABELS = Object.fromEntries(HALT_NAMES.map((h) => [h, Object.freeze({ halt: h })])) as Record<string, { halt: string }>;

/**
 * A listener of the engine's event bus that turns what the events carry into the run's metrics:
 * strategy faults (and the first one, for the summary), every batch's timings
 * (the tick-to-trade histogram), heartbeat health, commands and the halts they leave on. The summary reads these
 * back with the counts the parts write themselves.
 */
export class RunTally {
  readonly #metrics: MetricsSink;
  #firstFault: FaultReport | undefined;
  /** Subscribed to the bus as is (one function, made once). */
  readonly listener = (event: EngineEvent): void => this.#on(event);

  /**
   * Subscribes a tally to the engine's bus (after the store's journal, before the run's hook,
   * which it subscribes next) and registers the collectors of the counts the engine's helpers keep:
   * the heartbeat's, our open orders, the venue's 429s when the run counts them.
   */
  static attach(
    desk: EngineDesk,
    options: { readonly heartbeat?: Readonly<HeartbeatStats>; readonly http429?: () => number; readonly onEvent?: (event: EngineEvent) => void },
  ): RunTally {
    const metrics = desk.metrics;
    const tally = new RunTally(metrics);
    desk.bus.subscribe(tally.listener);
    if (options.onEvent) desk.bus.subscribe(options.onEvent);
    const stats = options.heartbeat;
    if (stats) {
      metrics.collect((m) => {
        m.total(ENGINE_METRICS.heartbeatsSent, stats.sent);
        m.total(ENGINE_METRICS.heartbeatsAcknowledged, stats.acknowledged);
        m.total(ENGINE_METRICS.heartbeatsMissed, stats.missed);
      });
    }
    metrics.collect((m) => m.set(ENGINE_METRICS.openOrders, desk.tracker.open().length));
    // orders by the final state they reach (one count per order)
    desk.tracker.onStatus((record) => {
      const labels = FINAL_LABELS[record.status];
      if (labels !== undefined) metrics.inc(ENGINE_METRICS.ordersFinal, labels);
    });
    const http429 = options.http429;
    if (http429) metrics.collect((m) => m.total(ENGINE_METRICS.httpResponses, http429(), STATUS_429));
    return tally;
  }

  constructor(metrics: MetricsSink) {
    this.#metrics = metrics;
    for (const name of HALT_NAMES) metrics.set(ENGINE_METRICS.halted, 0, HALT_LABELS[name]);
  }

  /** The first strategy fault of the run, with its stack. */
  get firstFault(): FaultReport | undefined {
    return this.#firstFault;
  }

  #on(event: EngineEvent): void {
    const m = this.#metrics;
    switch (event.type) {
      case 'batch': {
        const t = event.timings;
        m.observe(ENGINE_METRICS.tickToTrade, t.tickToTradeSeconds);
        m.observe(ENGINE_METRICS.batchQueued, t.queuedSeconds);
        m.observe(ENGINE_METRICS.batchPrepare, t.prepareSeconds);
        m.observe(ENGINE_METRICS.batchSize, event.orders);
        return;
      }
      case 'fault':
        m.inc(ENGINE_METRICS.faults);
        this.#firstFault ??= { strategyId: event.strategyId, message: event.message, at: new Date(event.at).toISOString(), stack: event.stack ?? event.message };
        return;
      case 'heartbeat':
        for (const h of HEALTHS) m.set(ENGINE_METRICS.heartbeatHealth, h === event.health ? 1 : 0, HEALTH_LABELS[h]);
        return;
      case 'command': {
        const r = event.result;
        m.inc(ENGINE_METRICS.commands, { command: event.command.type, result: r.ok ? 'ok' : 'refused' });
        const halts = r.halts;
        if (halts !== undefined) for (const name of HALT_NAMES) m.set(ENGINE_METRICS.halted, halts.includes(name) ? 1 : 0, HALT_LABELS[name]);
        return;
      }
      case 'order':
      case 'lifecycle':
      case 'fill':
        return;
    }
  }
}
