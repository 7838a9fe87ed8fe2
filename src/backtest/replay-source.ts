import type { SimulatedClock } from '../core/clock.ts';
import type { MarketEvent } from '../data/market-events.ts';

export interface ReplayProgress {
  /** Events handed out so far. */
  readonly events: number;
  /** Virtual time of the newest event. */
  readonly tsInit: number;
}

export interface ReplayOptions {
  readonly clock: SimulatedClock;
  /** Recorded events in `tsInit` order (an array in tests, the file reader's stream in a run). */
  readonly events: AsyncIterable<MarketEvent> | Iterable<MarketEvent>;
  /** Receivers of each event, in order: the simulated venue first, then the engine. */
  readonly sinks: readonly ((event: MarketEvent) => void)[];
  /** Called every `progressEvery` events and at the end. */
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
 * beyond the current event, so a streamed source replays in constant memory. Deterministic: the
 * same events give the same calls in the same order.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const { clock, sinks } = options;
  const every = options.progressEvery ?? 10_000;
  const onProgress = options.onProgress;
  let count = 0;
  let first: number | undefined;
  let last: number | undefined;
  let outOfOrder = 0;
  const one = (event: MarketEvent): void => {
    const t = event.tsInit;
    if (first === undefined) first = t;
    if (last !== undefined && t < last) outOfOrder++;
    else last = t;
    clock.advanceTo(t);
    for (let i = 0; i < sinks.length; i++) sinks[i]!(event);
    clock.advanceTo(clock.now());
    count++;
    if (onProgress !== undefined && count % every === 0) onProgress({ events: count, tsInit: clock.now() });
  };
  const source = options.events;
  if (Symbol.asyncIterator in source) {
    for await (const event of source) one(event);
  } else {
    for (const event of source) one(event);
  }
  onProgress?.({ events: count, tsInit: clock.now() });
  return { events: count, firstTsInit: first, lastTsInit: last, outOfOrder };
}
