import { DENY_CODES, type DenyCode } from '../core/deny-codes.ts';
import type { MemoryMetrics, MetricLabels } from '../core/metrics.ts';

/**
 * The engine's metric names (Prometheus conventions, docs/metrics.md). The parts write the
 * counts where they happen (desk.metrics); the tally (run-tally.ts) writes what the events carry.
 */
export const ENGINE_METRICS = {
  /** Orders posted (first attempt; a repost after a 429 counts in `resubmitted`). */
  submitted: 'clobot_orders_submitted_total',
  accepted: 'clobot_orders_accepted_total',
  rejected: 'clobot_orders_rejected_total',
  /** Denied before sending, by `code` (the closed deny codes). */
  denied: 'clobot_orders_denied_total',
  canceled: 'clobot_orders_canceled_total',
  /** Orders that reached a final state, by `state` (filled, canceled, rejected, expired). */
  ordersFinal: 'clobot_orders_final_total',
  submitUnknown: 'clobot_orders_submit_unknown_total',
  resubmitted: 'clobot_orders_resubmitted_total',
  reconciledFound: 'clobot_orders_reconciled_found_total',
  reconciledMissing: 'clobot_orders_reconciled_missing_total',
  orphansCancelled: 'clobot_orphan_orders_cancelled_total',
  /** Reads of our trades at the venue that missed a page (refused as the whole; read again). */
  snapshotsRefused: 'clobot_trade_snapshots_refused_total',
  batches: 'clobot_order_batches_total',
  /** Fills booked, by `liquidity` (maker, taker). */
  fills: 'clobot_fills_total',
  faults: 'clobot_strategy_faults_total',
  heartbeatLost: 'clobot_heartbeat_lost_total',
  heartbeatsSent: 'clobot_heartbeats_sent_total',
  heartbeatsAcknowledged: 'clobot_heartbeats_acknowledged_total',
  heartbeatsMissed: 'clobot_heartbeats_missed_total',
  /** Round trip of each acknowledged heartbeat. */
  heartbeatLatency: 'clobot_heartbeat_latency_seconds',
  /** 1 for the heartbeat's current `health` (idle, healthy, late, lost), 0 for the others. */
  heartbeatHealth: 'clobot_heartbeat_health',
  /** Per batch, from the tick its first order answered to the post handed to the edge. */
  tickToTrade: 'clobot_tick_to_trade_seconds',
  batchQueued: 'clobot_order_batch_queued_seconds',
  batchPrepare: 'clobot_order_batch_prepare_seconds',
  batchSize: 'clobot_order_batch_orders',
  /** 1 while the named halt (`halt` label) is on. */
  halted: 'clobot_halted',
  /** Commands applied, by `command` and `result` (ok, refused). */
  commands: 'clobot_commands_total',
  openOrders: 'clobot_open_orders',
  /** A strategy's own figure (`ctx.metric`), by `strategy` and `name`: its latest value. */
  strategyValue: 'clobot_strategy_value',
  /** Our estimated liquidity rewards so far, USDC (docs/rewards.md): set at every reward sample. */
  rewardsAccrued: 'clobot_rewards_accrued_usdc',
  /** The venue's answers by `status` (429, 401): written by the app's transport collector (or the `http429` option). */
  httpResponses: 'clobot_http_responses_total',
} as const;

/** The labels of the 429 answers' series. */
export const STATUS_429: MetricLabels = Object.freeze({ status: '429' });

/** Buckets of the order-batch sizes (1 to 15 orders). */
export const BATCH_SIZE_BUCKETS: readonly number[] = [1, 2, 3, 5, 8, 10, 15];

/** One labels object per deny code, made once (no object per denial). */
export const DENY_LABELS: Readonly<Record<DenyCode, MetricLabels>> = (() => {
  const out: Record<string, MetricLabels> = {};
  for (const code of DENY_CODES) out[code] = Object.freeze({ code });
  return Object.freeze(out);
})();

export const LIQUIDITY_LABELS: Readonly<Record<'MAKER' | 'TAKER', MetricLabels>> = Object.freeze({
  MAKER: Object.freeze({ liquidity: 'maker' }),
  TAKER: Object.freeze({ liquidity: 'taker' }),
});

/** The engine's counts as plain numbers (the shape the summary and the parts' tests read). */
export interface EngineCounts {
  readonly submitted: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly denied: number;
  readonly canceled: number;
  readonly submitUnknown: number;
  readonly resubmitted: number;
  readonly reconciledFound: number;
  readonly reconciledMissing: number;
  readonly orphansCancelled: number;
  readonly batches: number;
  readonly fills: number;
  readonly faults: number;
  readonly heartbeatLost: number;
}

/** Reads the engine's counts from the run's metrics. */
export function engineCounts(metrics: MemoryMetrics): EngineCounts {
  const n = ENGINE_METRICS;
  return {
    submitted: metrics.value(n.submitted),
    accepted: metrics.value(n.accepted),
    rejected: metrics.value(n.rejected),
    denied: metrics.total(n.denied),
    canceled: metrics.value(n.canceled),
    submitUnknown: metrics.value(n.submitUnknown),
    resubmitted: metrics.value(n.resubmitted),
    reconciledFound: metrics.value(n.reconciledFound),
    reconciledMissing: metrics.value(n.reconciledMissing),
    orphansCancelled: metrics.value(n.orphansCancelled),
    batches: metrics.value(n.batches),
    fills: metrics.total(n.fills),
    faults: metrics.value(n.faults),
    heartbeatLost: metrics.value(n.heartbeatLost),
  };
}
