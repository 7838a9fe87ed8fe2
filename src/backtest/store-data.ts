import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import type { MarketEvent } from '../core/events.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedMarket, type RecordingHeader } from '../data/recording/format.ts';
import { StoreReader } from '../store/store-reader.ts';
import { JOURNAL_MARKET, JOURNAL_MARKETS, type JournalRow } from '../store/store-types.ts';
import type { FileData } from './backtest-data.ts';

/** A run store as backtest data: the markets and market events its run journaled. */
export interface StoreData extends FileData {
  readonly kind: 'store';
  /** Journaled market events (what a replay of the whole store hands the engine). */
  readonly marketEvents: number;
}

/** Events handed to the replay at a time (one page of journal rows). */
const STORE_BATCH = 1_000;

/**
 * Opens a run store (`clobot run --store`, live or paper) as backtest data, read-only and without
 * its lock (it may still be running). The header is built from the `Markets` notes the run
 * session journals at each start (a market in several keeps its newest rules; the order is that
 * of first appearance); the events are the `Market` rows in journal order, the very events the
 * run's engine applied. A store without them (a run of an older build) is refused in one line.
 */
export function openStoreData(path: string): StoreData {
  const reader = StoreReader.open(path);
  let header: RecordingHeader;
  let count: number;
  try {
    const byId = new Map<string, RecordedMarket>();
    let createdAt: number | undefined;
    for (const row of reader.journalOfType(JOURNAL_MARKETS)) {
      if (row.event.type !== 'markets') continue;
      createdAt ??= row.at;
      for (const m of row.event.markets) byId.set(m.conditionId, m);
    }
    count = reader.countJournal(JOURNAL_MARKET);
    if (byId.size === 0 || count === 0) {
      const what = byId.size === 0 ? 'no market list' : 'no market events';
      throw new ConfigError(`${path}: this run store holds ${what} to replay (written by a build that did not journal market data, or a run that received none)`);
    }
    header = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      createdAt: createdAt ?? reader.snapshot(0).run.createdAt,
      source: `journal:${reader.file}`,
      markets: [...byId.values()],
    };
  } finally {
    reader.close();
  }
  const bytes = statSync(path).size;
  const total = count;
  return {
    kind: 'store',
    name: basename(path),
    path,
    header,
    bytes,
    marketEvents: count,
    events: () => storeEvents(path),
    batches: (onBytes) => storeBatches(path, (read) => onBytes?.(Math.min(bytes, Math.round((bytes * read) / total)))),
  };
}

function marketEventOf(row: JournalRow): MarketEvent | undefined {
  return row.event.type === 'market' ? row.event.event : undefined;
}

/** The journaled market events, oldest first, from a fresh read-only connection closed at the end. */
function* storeEvents(path: string): Generator<MarketEvent> {
  const reader = StoreReader.open(path);
  try {
    for (const row of reader.journalOfType(JOURNAL_MARKET)) {
      const e = marketEventOf(row);
      if (e) yield e;
    }
  } finally {
    reader.close();
  }
}

/** The same events in batches, reporting the number of rows read so far. */
// eslint-disable-next-line @typescript-eslint/require-await -- batches are an AsyncIterable like the recording readers'; SQLite reads are synchronous
async function* storeBatches(path: string, onRows: (rows: number) => void): AsyncGenerator<MarketEvent[]> {
  let batch: MarketEvent[] = [];
  let rows = 0;
  for (const e of storeEvents(path)) {
    batch.push(e);
    if (batch.length === STORE_BATCH) {
      rows += batch.length;
      onRows(rows);
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) {
    rows += batch.length;
    onRows(rows);
    yield batch;
  }
}
