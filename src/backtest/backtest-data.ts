import type { MarketEvent } from '../core/events.ts';
import type { RecordingHeader } from '../data/recording/format.ts';

/** Recorded market data for a backtest: the header and a fresh pass over the events each call. */
export interface BacktestData {
  /** The data's name in the summary (the file's base name). */
  readonly name: string;
  readonly header: RecordingHeader;
  events(): AsyncIterable<MarketEvent> | Iterable<MarketEvent>;
  /** The same events in batches (the fast way), reporting file bytes read as it goes. */
  batches?(onBytes?: (bytesRead: number) => void): AsyncIterable<readonly MarketEvent[]>;
  /** The files the data comes from, when several are replayed as one (src/backtest/data-set.ts). */
  readonly files?: readonly { readonly name: string }[];
  /** What reading the data noticed (a file without events), for the run's warnings. */
  readonly warnings?: readonly string[];
}

/** Backtest data from a file, read in batches with a running count of file bytes. */
export interface FileData extends BacktestData {
  readonly kind: 'recording' | 'store';
  readonly path: string;
  /** Size of the file on disk. */
  readonly bytes: number;
  batches(onBytes?: (bytesRead: number) => void): AsyncIterable<MarketEvent[]>;
}
