import type { MetricsSink } from '../core/metrics.ts';
import type { HeartbeatHealth } from '../execution/heartbeat.ts';
import { HALT_NAMES } from './halts.ts';
import type { FaultReport } from './engine-summary.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import type { EngineEvent } from './ports.ts';

const HEALTHS: readonly HeartbeatHealth[] = ['idle', 'healthy', 'late', 'lost'];
const HEALTH_LABELS = Object.fromEntries(HEALTHS.map((h) => [h, Object.freeze({ health: h })])) as Record<HeartbeatHealth, { health: string }>;
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
