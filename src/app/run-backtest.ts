import { engineSettings } from './engine-settings.ts';
import { interval, NEVER } from 'rxjs';
import { SimulatedClock } from '../core/clock.ts';
import { replayTimeLog } from '../backtest/replay-log.ts';
import { bookMark } from '../core/book.ts';
import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { RunConfig } from '../config/run-config.ts';
import type { MarketEvent } from '../core/events.ts';
import type { RecordedMarket } from '../data/recording/format.ts';
import { ENGINE_METRICS } from '../engine/engine-metrics.ts';
import { DEFAULT_DRAIN_MS, TradingEngine, type EngineEvent, type EngineLogger, type EngineStrategy } from '../engine/trading-engine.ts';
import type { StrategyDefinition } from '../strategy/api.ts';
import { simulatedVenueSettings, SimulatedExecutionClient } from '../sim/edge/simulated-execution.ts';
import { constantLatency } from '../sim/edge/latency-model.ts';
import type { BacktestData } from '../backtest/backtest-data.ts';
import type { BacktestResult } from '../backtest/backtest-result.ts';
import { EQUITY_TRAIL_MS, MetricsRecorder } from '../backtest/metrics.ts';
import type { ParamOverride } from '../backtest/param-overrides.ts';
import type { MarketSelection } from '../data/market-selection.ts';
import { queueModel } from '../sim/edge/queue-model.ts';
import { backtestTokens, RecordedMarketFollower, selectedTokenIds, selectRecordedMarkets, trackedTokens } from './recorded-markets.ts';
import { inBatches, replay, type ReplayProgress } from '../backtest/replay-source.ts';
import { buildSummary } from '../backtest/summary.ts';
import { BacktestFaultError } from '../backtest/backtest-fault.ts';
import { describeWindow, isWholeWindow, windowBatches, type DataWindow } from '../backtest/data-window.ts';
import { loadRunStrategies } from './strategies.ts';
import { staleDataWarning } from '../backtest/stale-data.ts';

export interface BacktestProgress extends ReplayProgress {
  /** File bytes read so far, when the data comes from a file. */
  readonly bytes: number | undefined;
}

export interface BacktestInput {
  readonly config: RunConfig;
  readonly data: BacktestData;
  /** Strategy parameters set for this run (a sweep point). */
  readonly overrides?: readonly ParamOverride[];
  /** Strategy definitions by strategy id, instead of loading the config's modules (tests). */
  readonly definitions?: Readonly<Record<string, StrategyDefinition>>;
  readonly log?: EngineLogger;
  /**
   * Each line of `log` gets `at`, the replayed time it was written at (default true: pino's own
   * `time` is the wall clock of the replay); false: `log` is used as given (the test kit keeps the
   * replayed time of its lines itself).
   */
  readonly logReplayTime?: boolean;
  readonly onProgress?: (progress: BacktestProgress) => void;
  readonly progressEvery?: number;
  /** Every engine event (order events, fills, faults) as it happens (clobot/testing records them). */
  readonly onEvent?: (event: EngineEvent) => void;
  /** The engine once the run has stopped, to read its final orders and positions (clobot/testing). */
  readonly onStopped?: (engine: TradingEngine) => void;
  /** The engine once built, before the first event (a test reads its orders while the run goes on). */
  readonly onBuilt?: (engine: TradingEngine) => void;
  /** Overrides `backtest.keepGoing`: a strategy that throws is counted and runs on instead of stopping the backtest. */
  readonly keepGoing?: boolean;
  /** Overrides `backtest.from` / `backtest.to` (each end on its own): the data's window (src/backtest/data-window.ts). */
  readonly window?: Partial<DataWindow>;
  /** Stops the replay at the event reached (Ctrl-C): the run ends there as if the data did, its summary marked partial. */
  readonly signal?: AbortSignal;
}

/** Client order id prefix of every backtest: fixed, so ids (and everything else) repeat exactly. */
export const BACKTEST_RUN_ID = 'b0000001';

const SILENT: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return SILENT;
  },
};

/**
 * Runs a config's strategies over recorded data: the same engine as live and paper (strategies,
 * risk, batcher, quote diff, portfolio) with the replay source as its market data, the backtest
 * execution edge as its venue and a simulated clock driven by the recording's `tsInit`s. Returns
 * the metrics, the equity curve, the fills and the summary; the same inputs give the same
 * results to the last digit.
 */
export async function runBacktest(input: BacktestInput): Promise<BacktestResult> {
  const { config, data } = input;
  const bt = config.backtest;
  const warnings: string[] = [...(data.warnings ?? [])];
  const stale = staleDataWarning(data.header, config.risk);
  if (stale !== undefined) warnings.push(stale);

  // strategies, and the recorded markets each one trades
  const loaded = await loadRunStrategies(config, { overrides: input.overrides, definitions: input.definitions });
  const marketsById = new Map<string, RecordedMarket>();
  const strategies: EngineStrategy[] = [];
  const strategyInfo: { id: string; module: string; params: unknown }[] = [];
  const picks: { id: string; selection: MarketSelection; markets: readonly RecordedMarket[] }[] = [];
  for (const { config: s, index, loaded: strategy } of loaded) {
    const where = s.marketsFrom === 'data' ? 'data.markets' : `strategies[${index}].markets`;
    const picked = selectRecordedMarkets(data.header, s.markets, where);
    warnings.push(...picked.warnings);
    for (const m of picked.markets) marketsById.set(m.conditionId, m);
    picks.push({ id: s.id, selection: s.markets, markets: picked.markets });
    strategies.push({ id: s.id, definition: strategy.definition, params: strategy.params, tokenIds: selectedTokenIds(picked.markets, s.markets), budget: s.budget });
    strategyInfo.push({ id: s.id, module: s.module, params: strategy.params });
  }
  const markets = data.header.markets.filter((m) => marketsById.has(m.conditionId));
  const tokens = trackedTokens(markets, data.header.events);
  // markets that join the recording later (its `market` events) reach filter-selected strategies
  const follower = new RecordedMarketFollower(picks, data.header.events);

  // the first event sets the clock's start
  let bytes: number | undefined;
  const all = data.batches ? data.batches((b) => (bytes = b)) : inBatches(data.events());
  const window: DataWindow = { from: input.window?.from ?? bt.from, to: input.window?.to ?? bt.to };
  const source = isWholeWindow(window) ? all : windowBatches(all, window);
  const iterator = source[Symbol.asyncIterator]();
  let head = await iterator.next();
  while (!head.done && head.value.length === 0) head = await iterator.next();
  const start = head.done ? data.header.createdAt : head.value[0]!.tsInit;
  const clock = new SimulatedClock(start);
  // each line with the replayed time it belongs to (pino's own `time` is the wall clock)
  const log = input.log === undefined ? SILENT : input.logReplayTime === false ? input.log : replayTimeLog(input.log, () => clock.now());

  const latency = constantLatency(bt.entryLatencyMs, bt.responseLatencyMs);
  const execution = new SimulatedExecutionClient({
    kind: 'backtest',
    clock,
    tokens: backtestTokens(tokens, bt),
    latency,
    queue: queueModel(bt.queueModel),
    balance: bt.balance,
    ...simulatedVenueSettings(bt),
  });
  const recorder = new MetricsRecorder({ tokens, intervalMs: bt.equityIntervalMs });
  // unless it keeps going, the first strategy fault stops the replay (the backtest then throws it)
  const keepGoing = input.keepGoing ?? bt.keepGoing;
  let faulted = false;
  let handled = 0;
  const engine = new TradingEngine({
    clock,
    execution,
    // the replay hands each event to the engine directly (no stream hop per event)
    marketEvents$: NEVER,
    tokens,
    strategies,
    risk: { checks: config.risk.checks, limits: config.risk },
    settings: engineSettings(config.execution),
    startingBalance: bt.balance,
    runId: BACKTEST_RUN_ID,
    log,
    keepGoingOnFault: keepGoing,
    cancelOnHalt: config.execution.cancelOnHalt,
    // replayed time: the health is looked at on its events only (no timer in the replay)
    health: { checkEveryMs: 0 },
    // the engine's timings (tick to trade of each batch) in replayed time: no wall-clock read per
    // event (the engine decides nothing on them, and a replay's wall time is not the venue's)
    stopwatch: () => clock.now(),
    // the recorded books never hold our simulated orders (docs/rewards.md)
    rewards: { sampleMs: config.execution.rewardSampleMs, bookHasOurs: false },
    onEvent: (event) => {
      if (event.type === 'fill') recorder.onFill(event.strategyId, event.fill, clock.now());
      else if (event.type === 'fault' && !keepGoing) faulted = true;
      input.onEvent?.(event);
    },
  });
  input.onBuilt?.(engine);
  const mark = (tokenId: TokenId): Micros | undefined => markOf(engine, tokenId);
  // the equity trail values the portfolio every second of replayed time (and the curve at its
  // interval): exact, in bigints, so it is worked out again only when the portfolio (its version)
  // or the mark of a token it holds (`marksMoved`, counted by the sink below) changed since
  let marksMoved = 0;
  const lastMarks = new Map<TokenId, Micros | undefined>();
  let valued = { version: -1, marks: -1, equity: 0, exposed: false };
  const valuation = (): typeof valued => {
    const portfolio = engine.portfolio;
    if (valued.version === portfolio.version && valued.marks === marksMoved) return valued;
    const t = portfolio.totals(mark);
    valued = {
      version: portfolio.version,
      marks: marksMoved,
      equity: bt.balance + t.realizedPnl + t.unrealizedPnl - t.fees,
      exposed: portfolio.positions().some((p) => p.size !== 0),
    };
    return valued;
  };
  const equity = (): Micros => valuation().equity;
  const exposed = (): boolean => valuation().exposed;
  recorder.sample(start, bt.balance);
  recorder.trace(start, bt.balance, false);
  const sampler = interval(bt.equityIntervalMs, clock.scheduler).subscribe(() => recorder.sample(clock.now(), equity()));
  const rewardTrail: { t: number[]; v: number[] } = { t: [start], v: [0] };
  const tracer = interval(EQUITY_TRAIL_MS, clock.scheduler).subscribe(() => {
    recorder.trace(clock.now(), equity(), exposed());
    rewardTrail.t.push(clock.now());
    rewardTrail.v.push(engine.rewards.total());
  });

  // a market that joined the recording: the simulated venue lists it, the engine tracks it, the
  // strategies whose filter takes it get its tokens, and every strategy hears MarketAdded, as in
  // a live or paper run that follows its markets
  const onMarketEvent = (e: MarketEvent): void => {
    if (e.type === 'marketClosed' || e.type === 'marketResolved') follower.closed(e.conditionId);
    if (e.type !== 'marketAdded') return;
    const join = follower.join(e.market);
    if (join === undefined) return;
    markets.push(join.market);
    tokens.push(...join.tokens);
    recorder.addTokens(join.tokens);
    execution.addTokens(backtestTokens(join.tokens, bt));
    engine.changeTokens(join.tokens, join.byStrategy);
    engine.lifecycle({ type: 'MarketAdded', conditionId: join.market.conditionId, tokenIds: join.tokens.map((t) => t.tokenId), tsInit: e.tsInit });
  };

  engine.start();
  let first = true;
  const batches: AsyncIterable<readonly MarketEvent[]> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (faulted || input.signal?.aborted === true) return { done: true, value: undefined };
        if (first) {
          first = false;
          return head;
        }
        return iterator.next();
      },
      return: async () => iterator.return?.() ?? { done: true, value: undefined },
    }),
  };
  const onProgress = input.onProgress;
  const replayed = await replay({
    clock,
    batches,
    // one sink, the simulated venue first and then the engine (one call an event, not two)
    sinks: [
      (e) => {
        if (faulted) return;
        const type = e.type;
        if (type === 'marketAdded' || type === 'marketClosed' || type === 'marketResolved') onMarketEvent(e);
        execution.onMarketEvent(e);
        if (faulted) return;
        handled++;
        engine.onMarketEvent(e);
        if (type === 'book') {
          const tokenId = e.book.tokenId;
          const m = mark(tokenId);
          recorder.mark(tokenId, e.tsInit, m);
          if (lastMarks.get(tokenId) !== m || !lastMarks.has(tokenId)) {
            lastMarks.set(tokenId, m);
            // the valuation reads the marks of held tokens only (a position that opens later
            // moves the portfolio's version)
            if ((engine.portfolio.size(tokenId) ?? 0) !== 0) marksMoved++;
          }
        } else if (type !== 'trade' && type !== 'prices') {
          // a tick change drops a book, a market may join or close: marks may move (a trade
          // print or a prices event leaves every book, and so every mark, as it was)
          lastMarks.clear();
          marksMoved++;
        }
      },
    ],
    onProgress: onProgress ? (p) => onProgress({ ...p, bytes }) : undefined,
    progressEvery: input.progressEvery,
  });

  // let what is in flight land (batch wait, entry, response), then take the last point
  const settle = config.execution.maxBatchWaitMs + bt.entryLatencyMs + bt.responseLatencyMs;
  clock.advanceBy(settle);
  const end = clock.now();
  sampler.unsubscribe();
  tracer.unsubscribe();
  recorder.sample(end, equity());
  recorder.trace(end, equity(), exposed());
  const totals = engine.portfolio.totals(mark);
  const metrics = recorder.finish({ events: replayed.events, startingBalance: bt.balance, totals, mark, strategies: engine.strategyFigures(mark), settlements: engine.settlements() });

  // stop: strategies' onStop, our open orders cancelled at the simulated venue. The stop is a
  // chain on the clock (drain what is in flight, then cancel-all, each a round trip), so the clock
  // moves in steps until it is done (bounded by the drain limit): one step is not always enough
  let stopped = false;
  // the recording ended at \`end\`: no reward sample past it (the stop's clock steps are not data)
  engine.rewards.stop();
  const stopping = engine.stop({ keepOrders: false }).finally(() => (stopped = true));
  const step = settle + 1;
  for (let waited = 0; !stopped && waited <= 2 * DEFAULT_DRAIN_MS; waited += step) {
    clock.advanceBy(step);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await stopping;
  input.onStopped?.(engine);
  const engineSummary = engine.summary();
  execution.close();
  if (faulted && engineSummary.firstFault) {
    await iterator.return?.();
    throw new BacktestFaultError(engineSummary.firstFault, handled);
  }

  if (!isWholeWindow(window) && replayed.events === 0) warnings.push(`${data.name}: no events in the window ${describeWindow(window)}`);
  if (replayed.outOfOrder > 0) warnings.push(`${data.name}: ${replayed.outOfOrder} events were older than the one before them; replayed at the time reached`);
  const summary = buildSummary({
    config,
    data,
    markets,
    tokens,
    strategies: strategyInfo,
    replay: { ...replayed, start, end },
    metrics,
    engine: engineSummary,
    execution: execution.stats,
    settlements: engine.settlements(),
    strategyMetrics: strategyValues(engine),
    partial: input.signal?.aborted === true,
  });
  return { summary, metrics, curve: recorder.curve(), rewardTrail, fills: recorder.fills, tokens, markets, engine: engineSummary, warnings };
}

/** Each strategy's own figures (`ctx.metric`) at the end, read from the run's metrics. */
function strategyValues(engine: TradingEngine): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const g of engine.metrics.snapshot().gauges) {
    if (g.name !== ENGINE_METRICS.strategyValue) continue;
    const id = g.labels['strategy']!;
    const row = out.get(id) ?? {};
    row[g.labels['name']!] = g.value;
    out.set(id, row);
  }
  return out;
}

/** The engine's mark of a token: the mid of its book, else the one side there is, else the last trade. */
export function markOf(engine: TradingEngine, tokenId: TokenId): Micros | undefined {
  return bookMark(engine.cache.get(tokenId)?.book);
}
