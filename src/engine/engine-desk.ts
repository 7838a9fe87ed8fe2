import { Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { FillEvent, OrderEvent, OrderRefs } from '../core/events.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';
import { OrderTracker, type OrderRecord } from '../execution/order-tracker.ts';
import type { OrderRequest } from '../core/intents.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import { MemoryMetrics } from '../core/metrics.ts';
import { engineCounts, type EngineCounts } from './engine-metrics.ts';
import { EventBus } from './event-bus.ts';
import type { EngineEvent, EngineExecutionSettings, EngineLogger, EnginePersistence } from './ports.ts';

const DEFAULT_SETTINGS: EngineExecutionSettings = {
  maxBatchWaitMs: 20,
  maxBatchSize: MAX_ORDERS_PER_BATCH,
  quoteTolerance: { priceTicks: 0, sizeShare: 0.25 },
  reconcileDelayMs: 1_000,
  syncIntervalMs: 15_000,
  maxInFlightBatches: 4,
};

/** Who hears an order event or a fill of a strategy (the strategy host). */
export interface EngineListener {
  orderEvent(strategyId: string, event: OrderEvent): void;
  fill(strategyId: string, fill: FillEvent): void;
}

export interface EngineDeskOptions {
  readonly clock: Clock;
  readonly execution: ExecutionClient;
  readonly log: EngineLogger;
  readonly settings: Partial<EngineExecutionSettings>;
  readonly persistence?: EnginePersistence;
  readonly metrics?: MemoryMetrics;
  /** Monotonic ms (default performance.now). */
  readonly stopwatch?: () => number;
}

/**
 * What the parts of the engine share: the clock, the execution edge, the order tracker, the
 * run's metrics, the subscriptions that end with the engine, the per-tick transaction and the way
 * an event goes out (the event bus, whose first listener is the store's journal, then the
 * strategy that owns it).
 */
export class EngineDesk {
  readonly clock: Clock;
  readonly execution: ExecutionClient;
  readonly log: EngineLogger;
  readonly settings: EngineExecutionSettings;
  readonly persistence: EnginePersistence | undefined;
  readonly tracker = new OrderTracker();
  /** The engine's one stream of events (event-bus.ts). */
  readonly bus = new EventBus();
  /** The run's metrics: the parts count here (engine-metrics.ts names them). */
  readonly metrics: MemoryMetrics;
  /** Monotonic ms, for timings only (never for what the engine decides). */
  readonly stopwatch: () => number;
  /** The stopwatch at the start of the market event being handled (0 outside one): the tick an order answers. */
  tickAt = 0;
  /** Streams and lookups that end with the engine. */
  readonly subs = new Subscription();
  /** Set once the engine began to stop. */
  stopped = false;
  /** Orders the venue refused in a row (the kill switch's maxConsecutiveRejects). */
  consecutiveRejects = 0;
  #listener: EngineListener | undefined;
  /** Orders of this process whose first event (accepted, rejected, ...) has not gone out yet. */
  readonly #unanswered = new Set<string>();
  /** Fills of unanswered orders, held for their strategy until the order's first event. */
  readonly #held = new Map<string, { strategyId: string; fill: FillEvent }[]>();

  constructor(options: EngineDeskOptions) {
    this.clock = options.clock;
    this.execution = options.execution;
    this.log = options.log;
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.persistence = options.persistence;
    this.metrics = options.metrics ?? new MemoryMetrics();
    this.stopwatch = options.stopwatch ?? (() => performance.now());
    // the journal hears every event first, inside the tick's transaction (batches are metrics only)
    const persistence = options.persistence;
    if (persistence) {
      this.bus.subscribe((event) => {
        if (event.type !== 'batch') persistence.journal(event);
      });
    }
  }

  /** The engine's counts, read from the metrics. */
  get counters(): EngineCounts {
    return engineCounts(this.metrics);
  }

  /** Sets who hears order events and fills (one listener: the strategy host). */
  listen(listener: EngineListener): void {
    this.#listener = listener;
  }

  /** Runs `fn` in the store's transaction when there is a store. */
  transaction<T>(fn: () => T): T {
    const persistence = this.persistence;
    return persistence ? persistence.transaction(fn) : fn();
  }

  emit(event: EngineEvent): void {
    this.bus.emit(event);
  }

  /** Tracks a new order of a strategy; its fills reach the strategy only after its first event. */
  addOrder(request: OrderRequest, at: number): OrderRecord {
    const record = this.tracker.add(request, at);
    this.#unanswered.add(request.clientOrderId);
    return record;
  }

  /**
   * Freezes, journals and delivers an order event to its strategy, then the fills it held back.
   * The event carries the `ref` and `group` of the order's intent (the tracked order's), so every
   * part that reports an order event echoes them without knowing of them.
   */
  orderEvent(strategyId: string, event: OrderEvent): void {
    const request = event.ref === undefined && event.group === undefined ? this.tracker.byClientId(event.clientOrderId)?.request : undefined;
    const frozen = Object.freeze(request === undefined ? event : withRefs(event, request));
    this.emit({ type: 'order', strategyId, event: frozen });
    this.#listener?.orderEvent(strategyId, frozen);
    if (this.#unanswered.delete(event.clientOrderId)) this.#release(event.clientOrderId);
  }

  /**
   * Journals a (frozen) fill at once and delivers it to its strategy in causal order: a fill of
   * an order whose answer has not gone out yet (a FAK that matched before the post returned, a
   * fill seen on the user channel first) waits for that answer, so a strategy always hears
   * OrderAccepted before the order's fills, in every mode.
   */
  fill(strategyId: string, fill: FillEvent): void {
    this.emit({ type: 'fill', strategyId, fill });
    if (this.#unanswered.has(fill.clientOrderId)) {
      const held = this.#held.get(fill.clientOrderId);
      if (held) held.push({ strategyId, fill });
      else this.#held.set(fill.clientOrderId, [{ strategyId, fill }]);
      return;
    }
    this.#listener?.fill(strategyId, fill);
  }

  /** Delivers every held fill (the engine is stopping: no answer will come for them). */
  releaseHeldFills(): void {
    this.#unanswered.clear();
    for (const clientOrderId of [...this.#held.keys()]) this.#release(clientOrderId);
  }

  #release(clientOrderId: string): void {
    const held = this.#held.get(clientOrderId);
    if (!held) return;
    this.#held.delete(clientOrderId);
    for (const { strategyId, fill } of held) this.#listener?.fill(strategyId, fill);
  }
}

/** The event with the `ref` and `group` of the order's request when it has them (the same event otherwise). */
export function withRefs<E extends OrderRefs>(event: E, request: OrderRefs): E {
  const { ref, group } = request;
  if (ref === undefined && group === undefined) return event;
  return { ...event, ...(ref === undefined ? {} : { ref }), ...(group === undefined ? {} : { group }) };
}
