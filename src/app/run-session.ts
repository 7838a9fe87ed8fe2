import { randomBytes } from 'node:crypto';
import { interval, tap } from 'rxjs';
import type { Logger } from 'pino';
import { keepEventLoopPolling } from '../core/busy-poll.ts';
import { LiveClock, type Clock } from '../core/clock.ts';
import { ConfigError, StoreError } from '../core/errors.ts';
import { fieldLogger, type FieldLogger } from '../core/log.ts';
import { MemoryMetrics } from '../core/metrics.ts';
import type { RunConfig } from '../config/run-config.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { tokensOf } from '../data/market-selection.ts';
import { venueEvents } from '../data/market-events.ts';
import { recordedMarketOf } from '../data/recording/convert.ts';
import type { EngineSummary } from '../engine/engine-summary.ts';
import { TradingEngine, type EngineEvent, type EngineStrategy } from '../engine/trading-engine.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';
import type { RunningSandbox } from '../sandbox/server.ts';
import { RunStore } from '../store/run-store.ts';
import { restoreFromStore, storePersistence } from '../store/store-persistence.ts';
import { runStartedNote } from '../store/run-started.ts';
import { redactParams } from '../control/redact.ts';
import type { VenueClient } from '../venue/client.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';
import { engineSettings } from './engine-settings.ts';
import { guardedPersistence } from './guarded-persistence.ts';
import { watchHaltFile } from './halt-file.ts';
import { RefusalLog } from './refusal-log.ts';
import { collectAccount, collectHealth, collectMarketData, collectRateBudget, collectTransport, collectVenueResponses, STATE_METRICS } from './run-metrics.ts';
import { PrometheusExporter } from '../telemetry/prometheus.ts';
import { CLOBOT_VERSION } from '../core/version.ts';
import { liveEdge } from './live-edge.ts';
import { tokensOf as tokensOfMarkets } from '../data/market-selection.ts';
import { WatchedTokens } from '../data/watched-tokens.ts';
import { followMarkets } from './follow-markets.ts';
import { marketDataSource } from './market-data.ts';
import { MarketLooks } from '../data/market-looks.ts';
import { MarketDataMonitor, type MarketDataSummary } from './market-data-monitor.ts';
import { FeedHealth } from './feed-health.ts';
import { Alerter } from '../telemetry/alerter.ts';
import { runEndedAlert } from '../telemetry/alert-rules.ts';
import type { AlertsConfig } from '../config/run-config.ts';
import { watchedMarketsOf } from '../data/market-status-poll.ts';
import { sharedMarketList } from '../data/market-reselection.ts';
import { openVenue } from './open-venue.ts';
import { paperEdge } from './paper-edge.ts';
import { loadRunStrategies } from './strategies.ts';
import { resolveSelections, selectionTokens } from './venue-markets.ts';

export interface RunSessionOptions {
  readonly config: RunConfig;
  /** SQLite store path (overrides `store.path` of the config). */
  readonly storePath?: string;
  readonly logger: Logger;
  /** Overrides the config's venue with this URL (remote, one base URL). */
  readonly venueUrl?: string;
  readonly clock?: Clock;
  /** A listener of the engine's event bus from the start (`session.engine.bus` takes more). */
  readonly onEvent?: (event: EngineEvent) => void;
  /**
   * Called with the engine once it is built, before it starts (nothing has been sent yet): the
   * place to apply a manual halt asked for while the run was starting.
   */
  readonly beforeStart?: (engine: TradingEngine) => void;
  /**
   * Export the run's metrics in Prometheus's format (`session.prometheus`: its `text()` is what
   * `/metrics` answers; `clobot run --metrics-port`, the control server). Default: not built.
   */
  readonly prometheus?: boolean;
}

/** What `RunSession.stop` returns: the engine's summary and how the market data went. */
export type RunSummary = EngineSummary & { readonly marketData: MarketDataSummary };

export interface RunSession {
  readonly engine: TradingEngine;
  /** The run's metrics: the engine's, the venue transport's, the live edge's and the market data's (docs/metrics.md). */
  readonly metrics: MemoryMetrics;
  /** The run's metrics in Prometheus's text format (with `prometheus: true`). */
  readonly prometheus: PrometheusExporter | undefined;
  /** Counts of the market data (connections, watchdog, markets added and removed). */
  readonly marketData: MarketDataMonitor;
  readonly execution: ExecutionClient;
  readonly venue: VenueClient;
  readonly sandbox: RunningSandbox | undefined;
  readonly markets: readonly TradingMarket[];
  readonly tokens: readonly TrackedToken[];
  readonly store: RunStore | undefined;
  /** The run's id (its store's, else one made for this process): the prefix of its client order ids. */
  readonly runId: string;
  /** True when the run resumed from a store holding a previous life's orders or fills. */
  readonly resumed: boolean;
  /**
   * Stops strategies, cancels orders unless `keepOrders` and verifies none is live at the venue
   * (the summary's `stop`), closes edges; returns the summary.
   */
  stop(options?: { keepOrders?: boolean }): Promise<RunSummary>;
  /**
   * A fatal fault in our own process (a store write, an unexpected exception): halts trading at
   * once, for good, and logs one error line; the caller then stops (cancel and verify) and exits
   * with EXIT_FAIL_CLOSED. Only the first fault counts.
   */
  fail(what: string, err: unknown): void;
  /** Settles with the first fatal fault. */
  readonly fatal: Promise<RunFault>;
}

/** The fault a run failed closed on: what failed, and the error's message (never a stack). */
export interface RunFault {
  readonly what: string;
  readonly message: string;
  readonly cause: unknown;
}

/**
 * Builds a live run from a config: the venue (remote, or the sandbox embedded in-process), the
 * market selection, the account (key, API credentials derived when absent), the market-data
 * source, the strategies and the engine; then starts it. Paper and backtest plug other edges
 * into the same engine.
 */
export async function startRunSession(options: RunSessionOptions): Promise<RunSession> {
  const { config, logger } = options;
  const log = fieldLogger(logger);
  const clock = options.clock ?? new LiveClock();
  if (config.mode === 'backtest') {
    throw new ConfigError(`mode (${config.source.file}): a backtest runs with 'clobot backtest <config> --data <file…>', not 'clobot run'`);
  }

  let sandbox: RunningSandbox | undefined;
  // the first fatal fault; the engine is halted on it once built (a fault before that fails the start)
  let fault: RunFault | undefined;
  let onFatal: (f: RunFault) => void = () => undefined;
  const fatal = new Promise<RunFault>((resolve) => (onFatal = resolve));
  const built: { engine?: TradingEngine } = {};
  const fail = (what: string, err: unknown): void => {
    if (fault) return;
    fault = { what, message: err instanceof Error ? err.message : String(err), cause: err };
    // the fault halt is latched: no halt file or signal lifts it
    built.engine?.halt(`fatal: ${what}`, 'fault');
    built.engine?.alert(`${what}: ${fault.message}`);
    log.error('fatal fault: trading halted, stopping', { what, err: fault.message });
    onFatal(fault);
  };
  const closers: (() => Promise<void> | void)[] = [];
  try {
    const opened = await openVenue(config, options.venueUrl, logger, clock);
    sandbox = opened.sandbox;
    const shared = opened.sharedBudget;
    if (shared) closers.push(() => shared.close());
    if (sandbox) {
      const s = sandbox;
      closers.push(() => s.close());
      log.info('embedded sandbox listening', { url: s.url });
    }
    const keySource = config.account?.keySource;
    if (keySource?.kind === 'sandbox') {
      log.warn('signing with the embedded sandbox\'s throwaway key (public: derived from the seed); set CLOBOT_PRIVATE_KEY or account.keyFile for any other venue', {
        seed: keySource.seed,
        address: config.account?.address,
      });
    }
    const venue = opened.venue;
    const tradingUrl = opened.url;

    // strategies, and the markets of their selections (each distinct selection resolved once)
    const loaded = await loadRunStrategies(config);
    const { bySelection, markets } = await resolveSelections(
      venue,
      loaded.map((s) => s.config.markets),
    );
    // each market's event (id, flags, its markets), from the venue's metadata
    const events = await venueEvents(venue, markets, (msg, fields) => log.warn(msg, fields));
    const tokens = tokensOf(markets, undefined, events);
    const strategies: EngineStrategy[] = loaded.map(({ config: s, loaded: strategy }) => ({
      id: s.id,
      definition: strategy.definition,
      params: strategy.params,
      configParams: s.params,
      tokenIds: selectionTokens(s.markets, bySelection.get(s.markets) ?? []),
      budget: s.budget,
    }));

    // durable state: open (or create) the store before anything is sent
    const storePath = options.storePath ?? config.store.path;
    // a live store is bound to the address it trades for: another key's run is refused before anything is sent
    const account = config.mode === 'live' ? config.account?.funder : undefined;
    const store = storePath ? RunStore.open(storePath, { create: true, runName: config.name, account }) : undefined;
    if (store) closers.push(() => store.close());
    const restore = store ? restoreFromStore(store) : undefined;
    if (store && restore?.resumed && sandbox && config.mode === 'live') throw embeddedResumeRefused(store.file, restore.orders.length, restore.fills.length);
    if (restore?.resumed) log.info('resuming from the store', { store: storePath, orders: restore.orders.length, fills: restore.fills.length });
    // the run's markets, so the store can be replayed offline (`clobot backtest --data <store>`)
    store?.journal({ type: 'markets', at: clock.now(), source: tradingUrl, markets: markets.map(recordedMarketOf) });
    // the strategies and their params as this life starts (`clobot dashboard <store>` shows them), secrets redacted
    store?.journal(runStartedNote(clock.now(), { mode: config.mode, strategies: strategies.map((s) => ({ id: s.id, params: redactParams(s.params) })) }));

    // the execution edge: the only thing paper and live do differently
    const edge =
      config.mode === 'live'
        ? await liveEdge(config, venue, logger, restore?.fillsSinceMs, () => built.engine)
        : paperEdge(config, clock, tokens);
    const execution = edge.execution;
    // the user channel's messages, whole, in the journal (off the order path): the run's fills can be audited and replayed from its store
    const userMessages = store && edge.userMessages$ ? edge.userMessages$.subscribe((m) => store.journalLater({ type: 'userChannel', at: m.tsInit, text: m.text })) : undefined;
    closers.unshift(() => {
      userMessages?.unsubscribe();
      execution.close();
      edge.close?.();
    });

    // market data: exactly what the recorder records, over tokens that follow the selections
    const watched = new WatchedTokens(tokens.map((t) => t.tokenId));
    const monitor = new MarketDataMonitor(log, config.data.transport);
    if (config.mode === 'paper' && config.data.transport === 'poll') {
      // the simulated venue fills a resting order from trade prints or a crossing book; REST books carry no prints
      log.warn('paper run on polled books: the REST books carry no trade prints, so a resting order fills only when a book crosses it; data.transport: ws gives the fill model the prints (docs/fill-model.md)');
    }
    // a silent connection is a reason of the run's health until its tokens' data flows again
    const feedHealth = new FeedHealth(() => built.engine);
    const onDataError = (err: unknown) => log.warn('market data error', { err: String(err) });
    let watchedMarkets = watchedMarketsOf(tokens);
    // one reader of the venue's market list for the refresher and the status and fee watches (scans that meet are shared)
    const marketList = sharedMarketList(venue, () => clock.now());
    // the engine's looks at a market where the venue cancelled an order of ours unasked (live, the user channel)
    const looks = new MarketLooks();
    const data$ = marketDataSource({
      data: config.data,
      venue,
      tokenIds: watched,
      clock,
      onError: onDataError,
      onFeedEvent: (event) => {
        monitor.feed(event);
        feedHealth.feed(event);
      },
      markets: () => watchedMarkets,
      list: marketList,
      // quiet books are confirmed fresh while their connection is alive (WS; a poll confirms each book anyway)
      ...(config.risk.checks.includes('staleBook') ? { bookMaxAgeMs: config.risk.staleBookMs } : {}),
      looks,
    });
    const observe = edge.observe;
    const marketEvents$ = data$.pipe(
      tap(
        observe
          ? (e) => {
              observe(e);
              feedHealth.market(e);
            }
          : feedHealth.market,
      ),
    );
    // the run's metrics: the engine writes its own; the other parts' counts are read in when read
    const metrics = new MemoryMetrics();
    // mirrored before anything is written, so the exporter sees every observation
    const prometheus = options.prometheus ? new PrometheusExporter({ metrics, build: { version: CLOBOT_VERSION, mode: config.mode } }) : undefined;
    collectTransport(metrics, venue.transport.counters);
    collectVenueResponses(metrics, venue.transport.counters);
    collectRateBudget(metrics, venue.budget);
    collectMarketData(metrics, () => monitor.summary());
    if (edge.collect) metrics.collect(edge.collect);
    const runId = store ? store.runId : randomBytes(4).toString('hex');
    const engine = new TradingEngine({
      clock,
      execution,
      marketEvents$,
      tokens,
      strategies,
      risk: { checks: config.risk.checks, limits: config.risk },
      settings: engineSettings(config.execution),
      heartbeat: { intervalMs: config.execution.heartbeatIntervalMs },
      // live: the cash is the venue's, read before the start (engine.loadAccount) and on a period;
      // paper: the simulated account starts with `paper.balance`
      startingBalance: config.mode === 'paper' ? config.paper.balance : 0,
      account: edge.account ? { source: edge.account, intervalMs: config.mode === 'live' ? config.execution.accountSyncMs : 0 } : undefined,
      runId,
      persistence: store ? guardedPersistence(storePersistence(store), (err) => fail('store write failed', err)) : undefined,
      restore: restore?.resumed ? restore : undefined,
      orphans: config.execution.orphans,
      log,
      onEvent: options.onEvent,
      metrics,
      cancelOnHalt: config.execution.cancelOnHalt,
      // live: the venue's books show our orders; paper: the books are the venue's, without our simulated ones
      // live: each sample's share is the venue's own figure when it answers (execution.rewardVenueShare)
      rewards: {
        sampleMs: config.execution.rewardSampleMs,
        bookHasOurs: config.mode === 'live',
        venueShares: config.mode === 'live' && config.execution.rewardVenueShare ? edge.rewardShares : undefined,
      },
      marketLook: looks.look,
    });
    built.engine = engine;
    // paper, resumed: the simulated venue starts empty; it holds what the store says we hold
    if (restore?.resumed && edge.restoreAccount) {
      const portfolio = engine.portfolio;
      edge.restoreAccount(portfolio.balance(), [...portfolio.tokenIds()].map((t) => [t, portfolio.size(t) ?? 0] as const));
    }
    collectHealth(metrics, () => engine.health());
    // alerts: decided on the bus, sent off the engine's path (src/telemetry/alerter.ts)
    const alerter = config.alerts ? startAlerts(config.alerts, config.name, engine, clock, log, closers) : undefined;
    collectAccount(metrics, () => engine.accountTotals());
    store?.timeCommits((seconds) => metrics.observe(STATE_METRICS.storeCommit, seconds));
    opened.sharedBudget?.attach(engine);
    // logging.level debug: a line per order batch with its timings (trace adds every venue request)
    if (logger.isLevelEnabled('debug')) {
      engine.bus.subscribe((e) => {
        if (e.type === 'batch') log.debug('order batch', { orders: e.orders, tickToTradeMs: e.timings.tickToTradeSeconds * 1000, prepareMs: e.timings.prepareSeconds * 1000 });
      });
    }
    // every refusal with its reason: the venue's at warn, risk's at info (the strategy hears both as events; the summary only counts them);
    // a halt's repeated denials counted in one line
    const refusals = new RefusalLog(log);
    engine.bus.subscribe(refusals.event);
    if (config.mode === 'live') closers.unshift(watchRefusedCredentials(venue, engine, log, clock));
    const haltWatch = watchHaltFile(config.risk.haltFile, engine, clock);
    options.beforeStart?.(engine);
    // the account before any strategy runs (live: the venue's balance and positions; a failure fails the start)
    await engine.loadAccount();
    engine.start();
    if (config.execution.busyPoll) closers.unshift(keepEventLoopPolling());
    // a filter-selected run follows the venue's markets (new ones streamed, closed ones dropped)
    const follower = followMarkets({
      data: config.data,
      venue,
      clock,
      markets: { bySelection, markets },
      watched,
      strategies: loaded.map(({ config: s }) => ({ id: s.id, markets: s.markets })),
      engine: () => built.engine,
      monitor,
      onTokens: edge.addTokens,
      events,
      journalMarkets: store ? (added) => store.journal({ type: 'markets', at: clock.now(), source: tradingUrl, markets: added.map(recordedMarketOf) }) : undefined,
      onMarkets: (now) => (watchedMarkets = watchedMarketsOf(tokensOfMarkets(now.markets))),
      list: marketList,
      onError: onDataError,
    });
    if (follower) closers.unshift(() => follower.stop());
    log.info('run started', { markets: markets.length, tokens: tokens.length, strategies: strategies.map((s) => s.id) });

    let stopped: Promise<RunSummary> | undefined;
    return {
      engine,
      metrics,
      prometheus,
      marketData: monitor,
      execution,
      venue,
      sandbox,
      markets,
      tokens,
      store,
      runId,
      resumed: restore?.resumed ?? false,
      fail,
      fatal,
      stop(stopOptions = {}) {
        stopped ??= (async () => {
          haltWatch.unsubscribe();
          await engine.stop({ keepOrders: stopOptions.keepOrders ?? !config.execution.cancelOnStop, deadlineMs: config.execution.stopDeadlineMs });
          const summary: RunSummary = { ...engine.summary(), marketData: monitor.summary() };
          refusals.flush();
          if (alerter) {
            // the run's end, with its summary, before the alerter closes (a few seconds at most)
            alerter.raise(runEndedAlert(config.name, summaryLines(summary), clock.now(), fault !== undefined));
            await alerter.flush(ALERT_FLUSH_MS);
          }
          // write what can be written: a store that failed may fail to close too
          for (const close of closers) {
            try {
              await close();
            } catch (err) {
              log.warn('closing failed', { err: err instanceof Error ? err.message : String(err) });
            }
          }
          log.info('run stopped', { summary });
          return summary;
        })();
        return stopped;
      },
    };
  } catch (err) {
    for (const close of closers) await close();
    throw err;
  }
}

/**
 * A live store with orders or fills of its own cannot be resumed on the embedded sandbox: that
 * venue starts empty each time, so the store's orders, positions and cash are not at it (the
 * strategies would sell shares the account does not hold: venue rejects, the kill switch).
 */
function embeddedResumeRefused(file: string, orders: number, fills: number): StoreError {
  return new StoreError(
    `${file}: holds ${orders} order(s) and ${fills} fill(s) of an earlier live run, but this run's venue is the embedded sandbox, ` +
      'which starts empty each time (none of them is at it); give a new store (--store <file> or store.path), or run against a venue ' +
      'that outlives the run (`clobot sandbox` in another terminal, then --venue <url>) to resume across restarts',
    'OTHER_VENUE',
    file,
  );
}

/** Longest wait at the stop for the last alerts (the run's end) to be sent, ms. */
const ALERT_FLUSH_MS = 5_000;
/** How often the daily loss is compared with its threshold, ms (clock time). */
const DAILY_LOSS_CHECK_MS = 60_000;

/** The alerter on the engine's bus, and its daily-loss check on the clock. */
function startAlerts(config: AlertsConfig, run: string, engine: TradingEngine, clock: Clock, log: FieldLogger, closers: (() => void | Promise<void>)[]): Alerter {
  const alerter = new Alerter({ config, run, onError: (message) => log.warn('alert not sent', { message }) });
  engine.bus.subscribe(alerter.listener);
  closers.unshift(() => alerter.close());
  if (config.dailyLoss !== undefined) {
    const check = interval(DAILY_LOSS_CHECK_MS, clock.scheduler).subscribe(() => {
      const t = engine.accountTotals();
      alerter.checkDailyLoss((t.realizedPnl + t.unrealizedPnl - t.fees) / 1e6, clock.now());
    });
    closers.unshift(() => check.unsubscribe());
  }
  return alerter;
}

/** The lines of the run-ended alert: orders, fills, the account, faults (no ids, no secrets). */
function summaryLines(s: RunSummary): string[] {
  const lines = [
    `orders: ${s.ordersSubmitted} submitted, ${s.ordersAccepted} accepted, ${s.ordersRejected} rejected, ${s.ordersDeniedTotal} denied`,
    `fills: ${s.fills}; open orders left: ${s.openOrders}`,
    `cash ${s.account.cash}, equity ${s.account.equity}, realized ${s.account.realized}, unrealized ${s.account.unrealized}, fees ${s.account.fees}`,
  ];
  if (s.faults > 0) lines.push(`strategy faults: ${s.faults}`);
  for (const a of s.alerts ?? []) lines.push(`alert: ${a}`);
  return lines;
}

/** How often a live run looks for credentials the venue refused, ms. */
const CREDENTIALS_CHECK_MS = 1_000;

/**
 * A 401 from the venue once trading runs (the key revoked, the secret rotated): trading halts,
 * one error line, and an alert in the summary. The credentials were accepted at start, so this
 * is the venue changing its mind; the run keeps going halted until it is stopped.
 */
function watchRefusedCredentials(venue: VenueClient, engine: TradingEngine, log: FieldLogger, clock: Clock): () => void {
  const counters = venue.transport.counters;
  const seen = counters.http401 ?? 0;
  const sub = interval(CREDENTIALS_CHECK_MS, clock.scheduler).subscribe(() => {
    const refused = (counters.http401 ?? 0) - seen;
    if (refused === 0) return;
    sub.unsubscribe();
    // the venue halt is latched: no halt file or signal lifts it
    const message = `the venue refused our API credentials mid-run (${refused} answer(s) 401)`;
    engine.halt('credentials refused (401)', 'venue');
    engine.alert(message);
    log.error('credentials refused: trading halted', { refused });
  });
  return () => sub.unsubscribe();
}

