import type { MemoryMetrics, MetricLabels, MetricsCollectorSink } from '../core/metrics.ts';
import { ENGINE_METRICS, STATUS_429 } from '../engine/engine-metrics.ts';
import type { LiveExecutionCounters } from '../execution/live-execution-client.ts';
import type { TransportCounters } from '../venue/transport.ts';
import type { DigestSignerCounters } from '../venue/signing/digest-signer.ts';
import type { MarketDataSummary } from './market-data-monitor.ts';
import { HEALTH_REASON_KINDS, HEALTHS, PERMISSIONS, type HealthReasonKind, type HealthState } from '../engine/health.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import type { RequestBudget } from '../venue/request-budget.ts';

/**
 * The counts the run's parts keep outside the engine, read into the run's metrics when they are
 * read (collectors: nothing is added to the parts' own paths). One place names them all; the
 * engine's own are in src/engine/engine-metrics.ts, and docs/metrics.md lists both.
 */
export const RUN_METRICS = {
  httpRequests: 'clobot_http_requests_total',
  /** Answers by `status` (429, 401): the ones the run watches. */
  httpResponses: ENGINE_METRICS.httpResponses,
  fillPolls: 'clobot_fill_polls_total',
  fillPollsSkipped: 'clobot_fill_polls_skipped_total',
  fillPollErrors: 'clobot_fill_poll_errors_total',
  fillPollFills: 'clobot_fill_poll_fills_total',
  /** User channel (docs/user-channel.md): 1 while trusted; subscriptions, drops, fills first learned from it, duplicates dropped. */
  userChannelUp: 'clobot_user_channel_up',
  userChannelConnects: 'clobot_user_channel_connects_total',
  userChannelDrops: 'clobot_user_channel_drops_total',
  userChannelFills: 'clobot_user_channel_fills_total',
  userChannelDuplicates: 'clobot_user_channel_duplicates_total',
  /** Signatures by who made them (`by`: caller, helper). */
  signatures: 'clobot_signatures_total',
  signingRounds: 'clobot_signing_helper_rounds_total',
  signaturesStolen: 'clobot_signatures_stolen_total',
  feedConnections: 'clobot_feed_connections',
  feedReconnects: 'clobot_feed_reconnects_total',
  feedSilences: 'clobot_feed_silences_total',
  feedResubscribes: 'clobot_feed_resubscribes_total',
  feedRestBooks: 'clobot_feed_rest_books_total',
  marketScans: 'clobot_market_scans_total',
  marketScanRequests: 'clobot_market_scan_requests_total',
  marketsAdded: 'clobot_markets_added_total',
  marketsRemoved: 'clobot_markets_removed_total',
} as const;

const STATUS_401: MetricLabels = Object.freeze({ status: '401' });
const BY_CALLER: MetricLabels = Object.freeze({ by: 'caller' });
const BY_HELPER: MetricLabels = Object.freeze({ by: 'helper' });

/** The venue transport's attempts and the answers the run watches (429, 401). */
export function collectTransport(metrics: MemoryMetrics, counters: TransportCounters): void {
  metrics.collect((m) => {
    m.total(RUN_METRICS.httpRequests, counters.attempts);
    m.total(RUN_METRICS.httpResponses, counters.http429, STATUS_429);
    m.total(RUN_METRICS.httpResponses, counters.http401 ?? 0, STATUS_401);
  });
}

/** The live edge's fills poller, user channel (when on) and order signer. */
export function collectLiveEdge(m: MetricsCollectorSink, counters: LiveExecutionCounters, signing: Readonly<DigestSignerCounters>): void {
  const polls = counters.fillPolls;
  const channel = counters.userChannel;
  if (channel !== undefined) {
    m.set(RUN_METRICS.userChannelUp, channel.mode === 'up' ? 1 : 0);
    m.total(RUN_METRICS.userChannelConnects, channel.connects);
    m.total(RUN_METRICS.userChannelDrops, channel.drops);
    m.total(RUN_METRICS.userChannelFills, channel.channelFills);
    m.total(RUN_METRICS.userChannelDuplicates, channel.duplicates);
  }
  m.total(RUN_METRICS.fillPolls, polls.polls);
  m.total(RUN_METRICS.fillPollsSkipped, polls.skipped);
  m.total(RUN_METRICS.fillPollErrors, polls.errors);
  m.total(RUN_METRICS.fillPollFills, polls.emitted);
  m.total(RUN_METRICS.signatures, signing.byCaller, BY_CALLER);
  m.total(RUN_METRICS.signatures, signing.byHelpers, BY_HELPER);
  m.total(RUN_METRICS.signingRounds, signing.rounds);
  m.total(RUN_METRICS.signaturesStolen, signing.stolen);
}

/** The market data's connections, watchdog and market changes (MarketDataMonitor). */
export function collectMarketData(metrics: MemoryMetrics, summary: () => MarketDataSummary): void {
  metrics.collect((m) => {
    const s = summary();
    m.set(RUN_METRICS.feedConnections, s.connections);
    m.total(RUN_METRICS.feedReconnects, s.reconnects);
    m.total(RUN_METRICS.feedSilences, s.silences);
    m.total(RUN_METRICS.feedResubscribes, s.resubscribes);
    m.total(RUN_METRICS.feedRestBooks, s.refreshedBooks);
    m.total(RUN_METRICS.marketScans, s.marketScans);
    m.total(RUN_METRICS.marketScanRequests, s.marketScanRequests);
    m.total(RUN_METRICS.marketsAdded, s.marketsAdded);
    m.total(RUN_METRICS.marketsRemoved, s.marketsRemoved);
  });
}

/** The run's own state, read when the metrics are read: health, permission, PnL, exposure, cash. */
export const STATE_METRICS = {
  /** 1 for the current health (`state`), 0 for the others. */
  health: 'clobot_health',
  /** 1 for the current trading permission (`state`), 0 for the others. */
  permission: 'clobot_permission',
  /** Reasons in force, by `kind`. */
  healthReasons: 'clobot_health_reasons',
  /** PnL by `kind` (realized, unrealized, fees, net), USDC. */
  pnl: 'clobot_pnl_usdc',
  exposure: 'clobot_exposure_usdc',
  cash: 'clobot_cash_usdc',
  /** Venue answers by `route` and `status`. */
  venueResponses: 'clobot_venue_responses_total',
  /** Share of each rate-budget window in use, by `window`. */
  rateBudgetUsed: 'clobot_rate_budget_used_ratio',
  rateBudgetRemaining: 'clobot_rate_budget_remaining',
  /** A store transaction's COMMIT. */
  storeCommit: 'clobot_store_commit_seconds',
} as const;

const HEALTH_STATE_LABELS = labelsOf(HEALTHS);
const PERMISSION_STATE_LABELS = labelsOf(PERMISSIONS);
const REASON_LABELS = Object.fromEntries(HEALTH_REASON_KINDS.map((k): [string, MetricLabels] => [k, Object.freeze({ kind: k })])) as Record<HealthReasonKind, MetricLabels>;
const PNL_LABELS = { realized: Object.freeze({ kind: 'realized' }), unrealized: Object.freeze({ kind: 'unrealized' }), fees: Object.freeze({ kind: 'fees' }), net: Object.freeze({ kind: 'net' }) };

function labelsOf<T extends string>(states: readonly T[]): Record<T, MetricLabels> {
  return Object.fromEntries(states.map((s): [string, MetricLabels] => [s, Object.freeze({ state: s })])) as Record<T, MetricLabels>;
}

/** Health and permission as state gauges (1 for the current one), and the reasons in force by kind. */
export function collectHealth(metrics: MemoryMetrics, health: () => HealthState): void {
  metrics.collect((m) => {
    const h = health();
    for (const s of HEALTHS) m.set(STATE_METRICS.health, s === h.health ? 1 : 0, HEALTH_STATE_LABELS[s]);
    for (const s of PERMISSIONS) m.set(STATE_METRICS.permission, s === h.permission ? 1 : 0, PERMISSION_STATE_LABELS[s]);
    const counts = new Map<HealthReasonKind, number>();
    for (const r of h.reasons) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    for (const kind of HEALTH_REASON_KINDS) m.set(STATE_METRICS.healthReasons, counts.get(kind) ?? 0, REASON_LABELS[kind]);
  });
}

/** The run's PnL, exposure and cash at its marks, USDC. */
export function collectAccount(metrics: MemoryMetrics, totals: () => ReturnType<TradingEngine['accountTotals']>): void {
  metrics.collect((m) => {
    const t = totals();
    m.set(STATE_METRICS.pnl, t.realizedPnl / 1e6, PNL_LABELS.realized);
    m.set(STATE_METRICS.pnl, t.unrealizedPnl / 1e6, PNL_LABELS.unrealized);
    m.set(STATE_METRICS.pnl, t.fees / 1e6, PNL_LABELS.fees);
    m.set(STATE_METRICS.pnl, (t.realizedPnl + t.unrealizedPnl - t.fees) / 1e6, PNL_LABELS.net);
    m.set(STATE_METRICS.exposure, t.positionValue / 1e6);
    m.set(STATE_METRICS.cash, t.cash / 1e6);
  });
}

/** The venue's answers by route and status (the transport counts them once this is called). */
export function collectVenueResponses(metrics: MemoryMetrics, counters: TransportCounters): void {
  const responses = (counters.responses ??= new Map<string, number>());
  const labels = new Map<string, MetricLabels>();
  metrics.collect((m) => {
    for (const [key, n] of responses) {
      let l = labels.get(key);
      if (l === undefined) {
        const space = key.lastIndexOf(' ');
        l = Object.freeze({ route: key.slice(0, space), status: key.slice(space + 1) });
        labels.set(key, l);
      }
      m.total(STATE_METRICS.venueResponses, n, l);
    }
  });
}

/** Each rate-budget window's use (finished and in flight over its limit) and what it could start now. */
export function collectRateBudget(metrics: MemoryMetrics, budget: RequestBudget): void {
  const labels = new Map<string, MetricLabels>();
  metrics.collect((m) => {
    for (const w of budget.snapshot().windows) {
      let l = labels.get(w.name);
      if (l === undefined) labels.set(w.name, (l = Object.freeze({ window: w.name })));
      m.set(STATE_METRICS.rateBudgetUsed, w.limit > 0 ? (w.used + w.inFlight) / w.limit : 0, l);
      m.set(STATE_METRICS.rateBudgetRemaining, w.remaining, l);
    }
  });
}
