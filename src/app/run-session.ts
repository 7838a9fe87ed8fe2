import { existsSync } from 'node:fs';
import { engineSettings } from './engine-settings.ts';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { interval, tap, type Observable, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { keepEventLoopPolling } from '../core/busy-poll.ts';
import { LiveClock, type Clock } from '../core/clock.ts';
import { ConfigError, StrategyError } from '../core/errors.ts';

import { fieldLogger } from '../core/log.ts';
import type { MarketSelection, RunConfig } from '../config/run-config.ts';
import type { MarketEvent } from '../core/events.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { resolveMarkets, tokensOf } from '../data/market-selection.ts';
import { recordedMarketOf } from '../data/recording/convert.ts';
import { pollMarkets } from '../data/poll-source.ts';
import { venueBookFeed } from '../data/venue-book-feed.ts';
import { wsMarketSource } from '../data/ws-source.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';
import { LiveExecutionClient } from '../execution/live-execution-client.ts';
import { BacktestExecutionClient } from '../sim/simulated-execution.ts';
import { constantLatency } from '../sim/latency-model.ts';
import { queueModel } from '../sim/queue-model.ts';
import { backtestTokens } from './recorded-markets.ts';
import type { RunningSandbox } from '../sandbox/server.ts';
import { openVenue } from './open-venue.ts';
import { loadStrategy } from '../strategy/loader.ts';
import { parseStrategyParams } from '../strategy/strategy-params.ts';
import type { StrategyDefinition } from '../strategy/api.ts';
import { getOrCreateApiKey } from '../venue/actions/get-or-create-api-key.ts';
import { withL1Auth } from '../venue/auth/with-l1-auth.ts';
import { apiCredentials } from '../venue/auth/api-credentials.ts';
import type { VenueClient } from '../venue/client.ts';
import type { TradingMarket } from '../venue/domain/trading.ts';
import { createOrderSigner } from '../venue/signing/order-signer.ts';
import type { EngineSummary } from '../engine/engine-summary.ts';
import { RunStore } from '../store/run-store.ts';
import { restoreFromStore, storePersistence } from '../store/store-persistence.ts';
import { TradingEngine, type EngineEvent, type EngineStrategy } from '../engine/trading-engine.ts';

export interface RunSessionOptions {
  readonly config: RunConfig;
  /** SQLite store path (overrides `store.path` of the config). */
  readonly storePath?: string;
  readonly logger: Logger;
  /** Overrides the config's venue with this URL (remote, one base URL). */
  readonly venueUrl?: string;
  readonly clock?: Clock;
  readonly onEvent?: (event: EngineEvent) => void;
}

export interface RunSession {
  readonly engine: TradingEngine;
  readonly execution: ExecutionClient;
  readonly venue: VenueClient;
  readonly sandbox: RunningSandbox | undefined;
  readonly markets: readonly TradingMarket[];
  readonly tokens: readonly TrackedToken[];
  readonly store: RunStore | undefined;
  /** True when the run resumed from a store holding a previous life's orders or fills. */
  readonly resumed: boolean;
  /** Stops strategies, cancels orders unless `keepOrders`, closes edges; returns the summary. */
  stop(options?: { keepOrders?: boolean }): Promise<EngineSummary>;
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
    throw new ConfigError(`mode (${config.source.file}): a backtest runs with 'clobot backtest <config> --data <file>', not 'clobot run'`);
  }

  let sandbox: RunningSandbox | undefined;
  const closers: (() => Promise<void> | void)[] = [];
  try {
    const venueConfig = config.venue;
    const opened = await openVenue(config, options.venueUrl, logger, clock);
    sandbox = opened.sandbox;
    if (sandbox) {
      const s = sandbox;
      closers.push(() => s.close());
      log.info('embedded sandbox listening', { url: s.url });
    }
    const venue = opened.venue;
    const tradingUrl = opened.url;

    // markets: every strategy's selection, resolved once per distinct selection
    const strategyConfigs = config.strategies.filter((s) => s.enabled);
    if (strategyConfigs.length === 0) throw new ConfigError(`strategies (${config.source.file}): no enabled strategy`);
    const resolved = new Map<MarketSelection, TradingMarket[]>();
    for (const s of strategyConfigs) {
      if (!resolved.has(s.markets)) resolved.set(s.markets, await resolveMarkets(venue, s.markets));
    }
    const allMarkets = new Map<string, TradingMarket>();
    for (const list of resolved.values()) for (const m of list) allMarkets.set(m.conditionId, m);
    const markets = [...allMarkets.values()];
    const tokens = tokensOf(markets);

    // strategies
    const strategies: EngineStrategy[] = [];
    for (const s of strategyConfigs) {
      const definition = await loadStrategy(s.modulePath, config.source.dir, resolve(config.source.dir, '..', 'strategies'));
      const params = parseStrategyParams(definition, s.id, s.params);
      const selection = selectionTokens(s.markets, resolved.get(s.markets) ?? []);
      strategies.push({ id: s.id, definition, params, tokenIds: selection });
    }

    // durable state: open (or create) the store before anything is sent
    const storePath = options.storePath ?? config.store.path;
    const store = storePath ? RunStore.open(storePath, { create: true, runName: config.name }) : undefined;
    if (store) closers.push(() => store.close());
    const restore = store ? restoreFromStore(store) : undefined;
    if (restore?.resumed) log.info('resuming from the store', { store: storePath, orders: restore.orders.length, fills: restore.fills.length });
    // the run's markets, so the store can be replayed offline (`clobot backtest --data <store>`)
    store?.journal({ type: 'markets', at: clock.now(), source: tradingUrl, markets: markets.map(recordedMarketOf) });

    // the execution edge: the only thing paper and live do differently
    let engineRef: TradingEngine | undefined;
    const edge =
      config.mode === 'live'
        ? await liveEdge(config, venue, logger, restore?.fillsSinceMs, () => engineRef)
        : paperEdge(config, clock, tokens);
    const execution = edge.execution;
    closers.unshift(() => {
      execution.close();
      edge.close?.();
    });

    const data$ = marketData(config, venue, tradingUrl, tokens.map((t) => t.tokenId), clock, log);
    const marketEvents$ = edge.observe ? data$.pipe(tap((e) => edge.observe!(e))) : data$;
    const engine = new TradingEngine({
      clock,
      execution,
      marketEvents$,
      tokens,
      strategies,
      risk: { checks: config.risk.checks, limits: config.risk },
      settings: engineSettings(config.execution),
      heartbeat: { intervalMs: config.execution.heartbeatIntervalMs },
      // live: the interface has no balance route, so cash is counted from zero at start;
      // paper: the simulated account starts with `paper.balance`
      startingBalance: config.mode === 'paper' ? config.paper.balance : 0,
      runId: store ? store.runId : randomBytes(4).toString('hex'),
      persistence: store ? storePersistence(store) : undefined,
      restore: restore?.resumed ? restore : undefined,
      orphans: config.execution.orphans,
      log,
      onEvent: options.onEvent,
      http429: () => venue.transport.counters.http429,
    });
    engineRef = engine;
    const haltWatch = watchHaltFile(config.risk.haltFile, engine, clock);
    engine.start();
    if (config.execution.busyPoll) closers.unshift(keepEventLoopPolling());
    log.info('run started', { markets: markets.length, tokens: tokens.length, strategies: strategies.map((s) => s.id) });

    let stopped: Promise<EngineSummary> | undefined;
    return {
      engine,
      execution,
      venue,
      sandbox,
      markets,
      tokens,
      store,
      resumed: restore?.resumed ?? false,
      stop(stopOptions = {}) {
        stopped ??= (async () => {
          haltWatch.unsubscribe();
          await engine.stop({ keepOrders: stopOptions.keepOrders ?? !config.execution.cancelOnStop });
          const summary = engine.summary();
          for (const close of closers) await close();
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

function selectionTokens(selection: MarketSelection, markets: readonly TradingMarket[]): string[] {
  const explicit = new Set(selection.tokenIds);
  const out: string[] = [];
  for (const m of markets) {
    for (const [i, t] of m.tokens.entries()) {
      if (i > 1) continue;
      // a market chosen by an explicit token trades that token only; otherwise both outcomes
      const chosenByToken = m.tokens.some((x) => explicit.has(x.tokenId));
      if (chosenByToken && !explicit.has(t.tokenId) && !selection.conditionIds.includes(m.conditionId as `0x${string}`)) continue;
      out.push(t.tokenId);
    }
  }
  return out;
}

function marketData(
  config: RunConfig,
  venue: VenueClient,
  tradingUrl: string,
  tokenIds: string[],
  clock: Clock,
  log: ReturnType<typeof fieldLogger>,
): Observable<MarketEvent> {
  if (config.data.transport === 'ws') {
    return wsMarketSource({ url: tradingUrl, tokenIds, clock, onError: (err: unknown) => log.warn('ws market data error', { err: String(err) }) } as Parameters<typeof wsMarketSource>[0]);
  }
  return pollMarkets({
    clock,
    feed: venueBookFeed(venue),
    tokenIds,
    chunkSize: 20,
    pollIntervalMs: config.data.pollIntervalMs === 'auto' ? 0 : config.data.pollIntervalMs,
    concurrency: 2,
    prices: false,
    onError: (err) => log.warn('book poll failed', { err: String(err) }),
  });
}

/** Trading halts while the halt file exists (checked every second on the clock). */
function watchHaltFile(path: string, engine: TradingEngine, clock: Clock): Subscription {
  let haltedByFile = false;
  return interval(1_000, clock.scheduler).subscribe(() => {
    const present = existsSync(path);
    if (present && !haltedByFile) {
      haltedByFile = true;
      engine.halt(`halt file ${path} exists`);
    } else if (!present && haltedByFile) {
      haltedByFile = false;
      engine.resume();
    }
  });
}


interface Edge {
  readonly execution: ExecutionClient;
  /** Sees every market event before the engine (the paper venue's view of the book). */
  readonly observe?: (event: MarketEvent) => void;
  /** Releases what the edge owns beyond the execution client (the signer's helper threads). */
  readonly close?: () => void;
}

/** Live: signed orders to the venue with L2 auth; credentials derived when the config has none. */
async function liveEdge(
  config: RunConfig,
  venue: VenueClient,
  logger: Logger,
  fillsSinceMs: number | undefined,
  engine: () => TradingEngine | undefined,
): Promise<Edge> {
  if (config.mode !== 'live') throw new ConfigError('live edge for a non-live config');
  const account = config.account;
  const venueConfig = config.venue;
  const l1 = withL1Auth(venue, { privateKey: account.privateKey, address: account.address, chainId: venueConfig.chainId });
  const given = account.apiCredentials;
  const credentials = given
    ? apiCredentials(given.apiKey.reveal(), given.secret.reveal(), given.passphrase.reveal())
    : await getOrCreateApiKey(l1, { privateKey: account.privateKey, address: account.address, chainId: venueConfig.chainId });
  const signer = createOrderSigner(
    { privateKey: account.privateKey, signerAddress: account.address, maker: account.funder, signatureType: account.signatureType },
    {
      profile: venueConfig.profile,
      chainId: venueConfig.chainId,
      exchanges: { standard: venueConfig.contracts.exchange, negRisk: venueConfig.contracts.negRiskExchange },
      signingHelpers: config.execution.signing.helpers,
      helperSpinMs: config.execution.signing.spinMs,
    },
  );
  const execution = new LiveExecutionClient({
    venue,
    credentials,
    signer,
    markets: (tokenId) => {
      const state = engine()?.cache.get(tokenId);
      if (!state) return undefined;
      return { conditionId: state.token.conditionId, tickSize: state.rules.tickSize, negRisk: state.rules.negRisk };
    },
    logger: logger.child({ component: 'execution' }),
    // after a restart, fills are asked for from the newest one stored (minus the poller's margin)
    fills: fillsSinceMs !== undefined ? { sinceMs: fillsSinceMs } : undefined,
  });
  return { execution, close: () => signer.close() };
}

/**
 * Paper: live market data, simulated fills. The execution edge is the backtest's (our orders
 * against the venue's live books, with its queue, latency and fee models and the config's
 * `backtest` settings), fed every live market event before the engine sees it. No order ever
 * reaches the venue.
 */
function paperEdge(config: RunConfig, clock: Clock, tokens: readonly TrackedToken[]): Edge {
  const bt = config.backtest;
  const execution = new BacktestExecutionClient({
    clock,
    tokens: backtestTokens(tokens, bt),
    latency: constantLatency(bt.entryLatencyMs, bt.responseLatencyMs),
    queue: queueModel(bt.queueModel),
    balance: config.paper.balance,
  });
  return { execution, observe: (event) => execution.onMarketEvent(event) };
}
