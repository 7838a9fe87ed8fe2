import type { MemoryMetrics, MetricLabels, MetricsCollectorSink } from '../core/metrics.ts';
import { ENGINE_METRICS, STATUS_429 } from '../engine/engine-metrics.ts';
import type { FillsPollerCounters } from '../execution/live/fills-poller.ts';
import type { TransportCounters } from '../venue/transport.ts';
import type { DigestSignerCounters } from '../venue/signing/digest-signer.ts';
import type { MarketDataSummary } from './market-data-monitor.ts';

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

/** The live edge's fills poller and order signer. */
export function collectLiveEdge(m: MetricsCollectorSink, polls: FillsPollerCounters, signing: Readonly<DigestSignerCounters>): void {
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
