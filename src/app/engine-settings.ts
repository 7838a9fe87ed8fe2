import type { ExecutionConfig } from '../config/run-config.ts';
import type { EngineExecutionSettings } from '../engine/trading-engine.ts';

/** The engine's execution settings from a config's `execution` section (every mode alike). */
export function engineSettings(execution: ExecutionConfig): EngineExecutionSettings {
  return {
    maxBatchWaitMs: execution.maxBatchWaitMs,
    maxBatchSize: execution.maxBatchSize,
    quoteTolerance: execution.quoteTolerance,
    // wait before looking up an outcome-unknown post: at most the post's own timeout
    reconcileDelayMs: Math.min(2_000, execution.orderTimeoutMs),
    // periodic comparison with the venue's open orders (orphans, orders gone without a fill)
    syncIntervalMs: 15_000,
    maxInFlightBatches: 4,
    postOnlyAfterRestartMs: execution.postOnlyAfterRestartMs,
    closedOrderRetentionMs: execution.closedOrderRetentionMs,
  };
}
