import type { SimulatedClock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';

export interface ReplayProgress {
  /** Events handed out so far. */
  readonly events: number;
  /** Virtual time of the newest event. */
  readonly tsInit: number;
}

export interface ReplayOptions {
  readonly clock: SimulatedClock;
  /**
   * Recorded events in `tsInit` order, in batches (the file reader's batches in a run; any
   * grouping gives the same replay).
   */
  readonly batches: AsyncIterable<readonly MarketEvent[]> | Iterable<readonly MarketEvent[]>;
  /** Receivers of each event, in order: the simulated venue first, then the engine. */
  readonly sinks: readonly ((event: MarketEvent) => void)[];
  /** Called after every batch that crosses a multiple of `progressEvery` events, and at the end. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  readonly progressEvery?: number;
}

export interface ReplayResult {
  readonly events: number;
  /** tsInit of the first and last events; undefined when there were none. */
  readonly firstTsInit: number | undefined;
  readonly lastTsInit: number | undefined;
  /** Events whose tsInit was before the previous one's: handed out at the clock's time. */
  readonly outOfOrder: number;
}

/**
 * Replays recorded events on a simulated clock, in the order given (the file's `tsInit` order).
 * For each event the clock first moves to its `tsInit`, which runs every timer due by then
 * (batcher, latency, strategy timers, sampling) in time order; then the event goes to each sink;
 * then the timers the event itself set for that same instant run. Time never goes back: an
 * event older than the clock is handed out at the clock's time and counted. Nothing is held
 * beyond the current batch, so a streamed source replays in constant memory. Deterministic: the
 * same events give the same calls in the same order.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const { clock, sinks } = options;
  const every = options.progressEvery ?? 10_000;
  const onProgress = options.onProgress;
  const nSinks = sinks.length;
  let count = 0;
  let nextReport = every;
  let first: number | undefined;
  let last = -Infinity;
  let outOfOrder = 0;
  const run = (batch: readonly MarketEvent[]): void => {
    for (let b = 0; b < batch.length; b++) {
      const event = batch[b]!;
      const t = event.tsInit;
      if (first === undefined) first = t;
      if (t < last) outOfOrder++;
      else last = t;
      clock.advanceTo(t);
      for (let i = 0; i < nSinks; i++) sinks[i]!(event);
      clock.advanceTo(clock.now());
    }
    count += batch.length;
    if (onProgress !== undefined && count >= nextReport) {
      nextReport = (Math.floor(count / every) + 1) * every;
      onProgress({ events: count, tsInit: clock.now() });
    }
  };
  const source = options.batches;
  if (Symbol.asyncIterator in source) {
    for await (const batch of source) run(batch);
  } else {
    for (const batch of source) run(batch);
  }
  onProgress?.({ events: count, tsInit: clock.now() });
  return { events: count, firstTsInit: first, lastTsInit: first === undefined ? undefined : last, outOfOrder };
}

/** Events in batches of `size` (a sync source) or one by one (an async one). */
export async function* inBatches(events: AsyncIterable<MarketEvent> | Iterable<MarketEvent>, size = 4096): AsyncGenerator<MarketEvent[]> {
  if (Symbol.asyncIterator in events) {
    let batch: MarketEvent[] = [];
    for await (const e of events) {
      batch.push(e);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
    return;
  }
  let batch: MarketEvent[] = [];
  for (const e of events) {
    batch.push(e);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
