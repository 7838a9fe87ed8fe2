import { Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { FillEvent, OrderEvent } from '../core/events.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';
import { OrderTracker } from '../execution/order-tracker.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import { EngineCounters } from './engine-summary.ts';
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
  readonly onEvent?: (event: EngineEvent) => void;
}

/**
 * What the parts of the engine share: the clock, the execution edge, the order tracker, the
 * counters, the subscriptions that end with the engine, the per-tick transaction and the way an
 * event goes out (journal, the run's hook, then the strategy that owns it).
 */
export class EngineDesk {
  readonly clock: Clock;
  readonly execution: ExecutionClient;
  readonly log: EngineLogger;
  readonly settings: EngineExecutionSettings;
  readonly persistence: EnginePersistence | undefined;
  readonly tracker = new OrderTracker();
  readonly counters = new EngineCounters();
  /** Streams and lookups that end with the engine. */
  readonly subs = new Subscription();
  /** Set once the engine began to stop. */
  stopped = false;
  /** Orders the venue refused in a row (the kill switch's maxConsecutiveRejects). */
  consecutiveRejects = 0;
  readonly #onEvent: ((event: EngineEvent) => void) | undefined;
  #listener: EngineListener | undefined;

  constructor(options: EngineDeskOptions) {
    this.clock = options.clock;
    this.execution = options.execution;
    this.log = options.log;
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.persistence = options.persistence;
    this.#onEvent = options.onEvent;
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
    this.persistence?.journal(event);
    this.#onEvent?.(event);
  }

  /** Freezes, journals and delivers an order event to its strategy. */
  orderEvent(strategyId: string, event: OrderEvent): void {
    const frozen = Object.freeze(event);
    this.emit({ type: 'order', strategyId, event: frozen });
    this.#listener?.orderEvent(strategyId, frozen);
  }

  /** Journals and delivers a (frozen) fill to its strategy. */
  fill(strategyId: string, fill: FillEvent): void {
    this.emit({ type: 'fill', strategyId, fill });
    this.#listener?.fill(strategyId, fill);
  }
}
