import { interval, type Subscription } from 'rxjs';
import type { Logger } from 'pino';
import { LiveClock, type Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { fieldLogger } from '../core/log.ts';
import type { MarketDataTransport, RunConfig } from '../config/run-config.ts';
import { openVenue } from './open-venue.ts';
import type { VenueClient } from '../venue/client.ts';
import type { MarketEvent } from '../core/events.ts';
import { tokensOf, type MarketSelection } from '../data/market-selection.ts';
import { venueEvents } from '../data/market-events.ts';
import { recordedMarketOf } from '../data/recording/convert.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordingForm, type RecordingHeader } from '../data/recording/format.ts';
import { createRecordingWriter } from '../data/recording/writer.ts';
import { marketDataSource } from './market-data.ts';
import { watchedMarketsOf } from '../data/market-status-poll.ts';
import { resolveSelections, type VenueMarkets } from './venue-markets.ts';
import { WatchedTokens } from '../data/watched-tokens.ts';
import { followMarkets } from './follow-markets.ts';
import { MarketDataMonitor } from './market-data-monitor.ts';

export interface RecorderOptions {
  readonly config: RunConfig;
  /** The recording to write (gzip when it ends in `.gz`). */
  readonly out: string;
  /** Overrides the config's venue with this base URL. */
  readonly venueUrl?: string;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly form?: RecordingForm;
  /** Buffered events reach the disk at least this often. Default 2,000 ms. */
  readonly flushIntervalMs?: number;
}

export interface RecorderStats {
  readonly events: number;
  /** Bytes on disk (what was flushed). */
  readonly bytes: number;
  readonly markets: number;
  readonly tokens: number;
  readonly startedAt: number;
  readonly elapsedMs: number;
  readonly byType: Readonly<Record<MarketEvent['type'], number>>;
  /** Failed requests or connections (the source went on). */
  readonly errors: number;
}

export interface Recorder {
  readonly path: string;
  readonly header: RecordingHeader;
  /** The venue the events come from. */
  readonly url: string;
  readonly transport: MarketDataTransport;
  stats(): RecorderStats;
  /** Rejects when recording cannot go on (the file cannot be written). */
  readonly failed: Promise<never>;
  /** Stops the source, flushes and closes the file (a valid recording), closes the venue. */
  stop(): Promise<RecorderStats>;
}

/**
 * Records a config's markets: builds the venue like a live run (the sandbox embedded in-process
 * when the config says so, or the URL), resolves the market selection (`data.markets`, else every
 * enabled strategy's), writes the header, then every market event of the run's market-data source
 * (`marketDataSource`: what a live or paper run of the config sees) with its tsEvent and tsInit. Receipt times never go back in the file: an event stamped earlier than the one before
 * it (the wall clock stepped back) is written with the previous tsInit. A selection with a filter
 * follows the venue's markets as a run does (`followMarkets`): a market it takes is written as a
 * `marketAdded` event before its tokens are streamed.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const { config, logger } = options;
  const log = fieldLogger(logger);
  const clock = options.clock ?? new LiveClock();
  const closers: (() => Promise<void> | void)[] = [];
  try {
    const { venue, url, sandbox, sharedBudget } = await openVenue(config, options.venueUrl, logger, clock);
    if (sandbox) closers.push(() => sandbox.close());
    if (sharedBudget) closers.push(() => sharedBudget.close());

    const selected = await selectedMarkets(config, venue);
    const markets = selected.markets;
    // each market's event, so a backtest of the recording knows them as the run did
    const events = await venueEvents(venue, markets, (msg, fields) => log.warn(msg, fields));
    const tokens = tokensOf(markets, undefined, events);
    const header: RecordingHeader = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      createdAt: clock.now(),
      source: url,
      markets: markets.map(recordedMarketOf),
      ...(events.length > 0 ? { events } : {}),
    };
    const writer = createRecordingWriter(options.out, header, { form: options.form ?? 'text' });
    closers.unshift(() => writer.close());

    const startedAt = clock.now();
    const byType: Record<MarketEvent['type'], number> = { book: 0, prices: 0, trade: 0, walletTrade: 0, tickSize: 0, marketClosed: 0, marketResolved: 0, marketAdded: 0, feeRate: 0, marketCleared: 0 };
    let errors = 0;
    let lastTsInit = 0;
    let fail!: (err: unknown) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => undefined); // observed by whoever awaits it

    const onError = (err: unknown) => {
      errors++;
      log.warn('market data error', { err: String(err) });
    };
    // the same source a live or paper run of this config trades on, over tokens that follow a
    // filter's selection as the run's do
    const watched = new WatchedTokens(tokens.map((t) => t.tokenId));
    let watchedMarkets = watchedMarketsOf(tokens);
    let marketCount = markets.length;
    const source$ = marketDataSource({ data: config.data, venue, tokenIds: watched, clock, onError, markets: () => watchedMarkets });

    let stopping = false;
    const write = (event: MarketEvent): void => {
      if (stopping) return;
      const e = event.tsInit < lastTsInit ? withTsInit(event, lastTsInit) : event;
      try {
        writer.write(e);
      } catch (err) {
        stopping = true;
        fail(err);
        return;
      }
      lastTsInit = e.tsInit;
      byType[e.type]++;
    };
    const subscriptions: Subscription[] = [];
    subscriptions.push(source$.subscribe({ next: write, error: (err: unknown) => fail(err) }));
    subscriptions.push(
      interval(options.flushIntervalMs ?? 2_000, clock.scheduler).subscribe(() => {
        if (stopping) return;
        try {
          writer.flush();
        } catch (err) {
          stopping = true;
          fail(err);
        }
      }),
    );
    // a market that joins is written (a `market` event) before its tokens are streamed, so
    // readers know its tokens by their first event
    const follower = followMarkets({
      data: config.data,
      venue,
      clock,
      markets: selected,
      watched,
      strategies: [],
      engine: () => undefined,
      monitor: new MarketDataMonitor(log, config.data.transport),
      journalMarkets: (added) => {
        for (const m of added) {
          const now = clock.now();
          write({ type: 'marketAdded', market: recordedMarketOf(m), tsEvent: now, tsInit: now });
        }
        marketCount += added.length;
      },
      onMarkets: (now) => (watchedMarkets = watchedMarketsOf(tokensOf(now.markets))),
      onError,
    });
    if (follower) closers.unshift(() => follower.stop());
    log.info('recording started', { url, out: writer.path, markets: markets.length, tokens: tokens.length, transport: config.data.transport });

    const stats = (): RecorderStats => ({
      events: writer.events,
      bytes: writer.bytes,
      markets: marketCount,
      tokens: watched.size,
      startedAt,
      elapsedMs: clock.now() - startedAt,
      byType: { ...byType },
      errors,
    });
    let stopped: Promise<RecorderStats> | undefined;
    return {
      path: writer.path,
      header,
      url,
      transport: config.data.transport,
      stats,
      failed,
      stop() {
        stopped ??= (async () => {
          stopping = true;
          for (const s of subscriptions) s.unsubscribe();
          const final = stats();
          for (const close of closers) await close();
          const closedStats = { ...final, bytes: writer.bytes };
          log.info('recording stopped', { ...closedStats });
          return closedStats;
        })();
        return stopped;
      },
    };
  } catch (err) {
    for (const close of closers) await close();
    throw err;
  }
}

/** The same event received at `tsInit` instead. */
function withTsInit(event: MarketEvent, tsInit: number): MarketEvent {
  switch (event.type) {
    case 'book':
      return { ...event, tsInit, book: { ...event.book, tsInit } };
    case 'prices':
      return { ...event, tsInit, prices: event.prices.map((p) => ({ ...p, tsInit })) };
    default:
      return { ...event, tsInit };
  }
}

/** `data.markets`, else the union of the enabled strategies' selections, each resolved once. */
async function selectedMarkets(config: RunConfig, venue: VenueClient): Promise<VenueMarkets> {
  const selections: MarketSelection[] = [];
  if (config.data.markets) selections.push(config.data.markets);
  else for (const s of config.strategies) if (s.enabled) selections.push(s.markets);
  if (selections.length === 0) throw new ConfigError(`data.markets (${config.source.file}): no market selection to record: set data.markets`);
  return resolveSelections(venue, selections);
}
