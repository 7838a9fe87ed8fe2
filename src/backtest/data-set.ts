import type { MarketEvent } from '../core/events.ts';
import type { RecordedMarket, RecordingHeader } from '../data/recording/format.ts';
import type { BacktestData, FileData } from './backtest-data.ts';
import { openBacktestData, type OpenDataOptions } from './data-file.ts';
import { expandDataPaths } from './data-paths.ts';

/**
 * The data of one backtest: one file or several (`--data a b`, a glob), replayed as one stream in
 * `tsInit` order, as if one recorder had written them all.
 *
 * How several files become one: the events of all files are merged by `tsInit` (a tie goes to
 * the file named first), so days recorded one after another replay back to back and files that
 * overlap in time (two recorders of different markets) interleave. Text and binary recordings,
 * gzipped or not, and run stores mix freely; each file is read with its own reader and decoded
 * on its own header. A file is opened only when the replay reaches its first event, so a week of
 * daily files holds one open at a time. The run's header is that of the file whose first event
 * comes first; a market another file's header lists that the run does not know yet joins when
 * that file's first event is reached, as a `market` event (a recording's own way of adding a
 * market), so a strategy whose filter takes it trades it from then on. A market joins once: a
 * later `market` event for a market already known is dropped.
 */
export interface DataSet extends BacktestData {
  /** The files, in the order given. */
  readonly files: readonly FileData[];
  /** Their total size on disk (the progress bar's 100 %). */
  readonly bytes: number;
  batches(onBytes?: (bytesRead: number) => void): AsyncIterable<readonly MarketEvent[]>;
  /** What the reader noticed about the set (a file without events). */
  readonly warnings: readonly string[];
}

/** Opens `--data` (files or globs, see data-paths.ts) as one data set. */
export async function openDataSet(specs: readonly string[], options: OpenDataOptions = {}): Promise<DataSet> {
  const paths = expandDataPaths(specs);
  const files: FileData[] = [];
  for (const path of paths) files.push(await openBacktestData(path, options));
  return mergeData(files);
}

/** Events the merge hands out at a time when files interleave. */
const OUT_BATCH = 4096;

/** One file as the merge reads it. */
interface Lane {
  readonly index: number;
  readonly file: FileData;
  /** tsInit of the file's first event, read before the merge starts; undefined: no events. */
  readonly first: number | undefined;
  iterator?: AsyncIterator<readonly MarketEvent[]>;
  batch: readonly MarketEvent[];
  at: number;
  done: boolean;
}

/** Several files as one data set (see DataSet); one file is itself. */
export async function mergeData(files: readonly FileData[]): Promise<DataSet> {
  if (files.length === 0) throw new Error('mergeData: no files');
  if (files.length === 1) {
    const file = files[0]!;
    return {
      name: file.name,
      header: file.header,
      files,
      bytes: file.bytes,
      warnings: [],
      events: () => file.events(),
      batches: (onBytes) => file.batches(onBytes),
    };
  }
  const firsts: (number | undefined)[] = [];
  for (const file of files) firsts.push(await firstTsInit(file));
  const warnings = files.filter((_, i) => firsts[i] === undefined).map((f) => `${f.name}: no events`);
  // the run's header: the file that starts first (ties: the one named first)
  let base = 0;
  for (let i = 1; i < files.length; i++) if ((firsts[i] ?? Infinity) < (firsts[base] ?? Infinity)) base = i;
  const sources = [...new Set(files.map((f) => f.header.source))];
  const header: RecordingHeader = { ...files[base]!.header, source: sources.join(' + ') };
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const name = files.length === 2 ? `${files[0]!.name} + ${files[1]!.name}` : `${files.length} files (${files[0]!.name} … ${files[files.length - 1]!.name})`;
  const batches = (onBytes?: (bytesRead: number) => void): AsyncGenerator<MarketEvent[]> => mergeBatches(files, firsts, header, onBytes);
  return {
    name,
    header,
    files,
    bytes,
    warnings,
    events: () => flatten(batches()),
    batches,
  };
}

/** tsInit of a file's first event (undefined when it has none), read and closed at once. */
async function firstTsInit(file: FileData): Promise<number | undefined> {
  const events = file.events();
  const iterator = Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : events[Symbol.iterator]();
  try {
    const step = await iterator.next();
    return step.done === true ? undefined : step.value.tsInit;
  } finally {
    await iterator.return?.();
  }
}

async function* flatten(source: AsyncIterable<readonly MarketEvent[]>): AsyncGenerator<MarketEvent> {
  for await (const batch of source) yield* batch;
}

/**
 * The k-way merge of the files' batches by tsInit. The lane with the earliest next event hands out
 * every event before the next lane's head (up to and including it when the lane was named first),
 * so files that do not overlap pass their batches through whole.
 */
async function* mergeBatches(
  files: readonly FileData[],
  firsts: readonly (number | undefined)[],
  header: RecordingHeader,
  onBytes: ((bytesRead: number) => void) | undefined,
): AsyncGenerator<MarketEvent[]> {
  const known = new Set(header.markets.map((m) => m.conditionId));
  const read = files.map(() => 0);
  const lanes: Lane[] = files.map((file, index) => ({ index, file, first: firsts[index], batch: [], at: 0, done: firsts[index] === undefined }));
  const head = (lane: Lane): number => (lane.iterator === undefined ? lane.first! : lane.batch[lane.at]!.tsInit);
  let out: MarketEvent[] = [];
  try {
    for (;;) {
      let best: Lane | undefined;
      let next: Lane | undefined;
      for (const lane of lanes) {
        if (lane.done) continue;
        const t = head(lane);
        if (best === undefined || t < head(best)) {
          next = best;
          best = lane;
        } else if (next === undefined || t < head(next)) {
          next = lane;
        }
      }
      if (best === undefined) break;
      if (best.iterator === undefined) {
        // the replay reached this file: open it, and let the markets only it lists join
        best.iterator = best.file.batches((b) => {
          read[best.index] = b;
          onBytes?.(read.reduce((s, x) => s + x, 0));
        })[Symbol.asyncIterator]();
        await advance(best);
        if (best.done) continue;
        const t = head(best);
        for (const market of best.file.header.markets) {
          if (known.has(market.conditionId)) continue;
          known.add(market.conditionId);
          out.push(joined(market, t));
        }
        continue;
      }
      // hand out this lane's events up to the next lane's head
      const limit = next === undefined ? Infinity : head(next);
      const inclusive = next === undefined || best.index < next.index;
      const batch = best.batch;
      let end = best.at;
      let joins = false;
      while (end < batch.length) {
        const e = batch[end]!;
        if (end > best.at && (inclusive ? e.tsInit > limit : e.tsInit >= limit)) break;
        if (e.type === 'marketAdded') joins = true;
        end++;
      }
      if (!joins && out.length === 0 && best.at === 0 && end === batch.length) {
        yield batch as MarketEvent[];
      } else {
        for (let i = best.at; i < end; i++) {
          const e = batch[i]!;
          if (e.type === 'marketAdded') {
            if (known.has(e.market.conditionId)) continue;
            known.add(e.market.conditionId);
          }
          out.push(e);
        }
      }
      best.at = end;
      if (end === batch.length) await advance(best);
      if (out.length >= OUT_BATCH) {
        yield out;
        out = [];
      }
    }
    if (out.length > 0) yield out;
  } finally {
    for (const lane of lanes) await lane.iterator?.return?.();
  }
}

/** Moves a lane to its next non-empty batch, or marks it done. */
async function advance(lane: Lane): Promise<void> {
  for (;;) {
    const step = await lane.iterator!.next();
    if (step.done === true) {
      lane.done = true;
      lane.batch = [];
      lane.at = 0;
      return;
    }
    if (step.value.length > 0) {
      lane.batch = step.value;
      lane.at = 0;
      return;
    }
  }
}

/** A market a file's header lists, joining the run at `t` as a recording's `market` event does. */
function joined(market: RecordedMarket, t: number): MarketEvent {
  return { type: 'marketAdded', market, tsEvent: t, tsInit: t };
}
