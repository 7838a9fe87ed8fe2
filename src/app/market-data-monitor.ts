import type { FieldLogger } from '../core/log.ts';
import type { MarketDataTransport } from '../config/run-config.ts';
import type { FeedEvent } from '../data/feed-events.ts';
import type { RemovedMarket } from '../data/market-reselection.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';

/** The run summary's `marketData` section: how the market data of the run went. */
export interface MarketDataSummary {
  readonly transport: MarketDataTransport;
  /** WS connections the source opened (more than one when the assets were split). */
  readonly connections: number;
  /** Opens after the first, over every connection (drops, staleness, the watchdog). */
  readonly reconnects: number;
  /** Times the watchdog found a connection silent. */
  readonly silences: number;
  readonly resubscribes: number;
  /** Books fetched by REST for silent connections. */
  readonly refreshedBooks: number;
  /** Re-evaluations of the market selection, and the `GET /markets` requests they took. */
  readonly marketScans: number;
  readonly marketScanRequests: number;
  readonly marketsAdded: number;
  readonly marketsRemoved: number;
}

/**
 * Logs what the market data does beyond market events (one line each: a split over connections,
 * a silent connection and the watchdog's action, a market added or removed) and counts it for
 * the summary.
 */
export class MarketDataMonitor {
  readonly #log: FieldLogger;
  readonly #transport: MarketDataTransport;
  readonly #connections = new Set<number>();
  #reconnects = 0;
  #silences = 0;
  #resubscribes = 0;
  #refreshedBooks = 0;
  #scans = 0;
  #scanRequests = 0;
  #added = 0;
  #removed = 0;

  constructor(log: FieldLogger, transport: MarketDataTransport) {
    this.#log = log;
    this.#transport = transport;
  }

  readonly feed = (event: FeedEvent): void => {
    switch (event.type) {
      case 'FeedConnected':
        this.#connections.add(event.connection);
        if (event.attempt > 1) this.#reconnects++;
        return;
      case 'FeedSplit':
        this.#log.info('market data split over connections', { connections: event.connections, assets: event.assets, maxAssetsPerConnection: event.maxAssetsPerConnection });
        return;
      case 'FeedSilent':
        this.#silences++;
        if (event.action === 'resubscribe') this.#resubscribes++;
        this.#log.warn('market data silent: watchdog', { connection: event.connection, silentMs: event.silentMs, action: event.action, assets: event.tokenIds.length });
        return;
      case 'FeedRefreshed':
        this.#refreshedBooks += event.books;
        this.#log.info('market data refreshed by REST', { connection: event.connection, books: event.books });
        return;
    }
  };

  scanned(requests: number): void {
    this.#scans++;
    this.#scanRequests += requests;
  }

  marketsChanged(added: readonly TradingMarket[], removed: readonly RemovedMarket[]): void {
    this.#added += added.length;
    this.#removed += removed.length;
    for (const m of added) this.#log.info('market added', { conditionId: m.conditionId, question: m.question });
    for (const r of removed) this.#log.info('market removed', { conditionId: r.market.conditionId, reason: r.reason });
  }

  summary(): MarketDataSummary {
    return {
      transport: this.#transport,
      connections: this.#connections.size,
      reconnects: this.#reconnects,
      silences: this.#silences,
      resubscribes: this.#resubscribes,
      refreshedBooks: this.#refreshedBooks,
      marketScans: this.#scans,
      marketScanRequests: this.#scanRequests,
      marketsAdded: this.#added,
      marketsRemoved: this.#removed,
    };
  }
}
