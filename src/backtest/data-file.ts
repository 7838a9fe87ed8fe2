import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ClobotError, ConfigError, DecodeError, fileErrorReason } from '../core/errors.ts';
import type { MarketEvent } from '../core/events.ts';
import { BinaryEventDecoder, isBinaryRecording } from '../data/recording/binary-codec.ts';
import { headerTokens } from '../data/recording/decode-recorded.ts';
import type { RecordingForm, RecordingHeader } from '../data/recording/format.ts';
import { openRecording, readRecordingBatches } from '../data/recording/reader.ts';
import type { FromDecodeWorker, ToDecodeWorker } from './decode-worker-protocol.ts';
import type { FileData } from './backtest-data.ts';
import { openStoreData, type StoreData } from './store-data.ts';

/** What a `--data` file is, told by its first bytes (never by its name). */
export type DataFileKind = 'recording' | 'store' | 'unknown';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export function dataFileKind(path: string): DataFileKind {
  let head: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      head = Buffer.alloc(16);
      head = head.subarray(0, readSync(fd, head, 0, 16, 0));
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new ConfigError(`${path}: cannot read data file (${fileErrorReason(err)})`);
  }
  if (head.length >= SQLITE_MAGIC.length && head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'store';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'recording'; // gzip: a recording is the only gzipped data we read
  if (isBinaryRecording(head)) return 'recording';
  // the text form: a JSON object on line 1 (possibly after a byte-order mark or blanks)
  const text = head.toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (text.startsWith('{')) return 'recording';
  return 'unknown';
}

/** A recording on disk as backtest data. */
export interface RecordingData extends FileData {
  readonly kind: 'recording';
  readonly form: RecordingForm;
  readonly gzip: boolean;
  /** Where `batches()` decodes the recording (see `OpenDataOptions.decode`). */
  readonly decodeOn: 'worker' | 'thread';
}

/**
 * Options of `openBacktestData`: `--data` is a recording (text or binary, gzipped or not, read
 * with the recording reader's decoders) or a run store of a live or paper run (its journaled
 * market events, see store-data.ts); any other file is refused with one line saying what the
 * file is and what is expected.
 */
export interface OpenDataOptions {
  /**
   * Where the recording is decoded: `worker` on a worker thread while the main thread replays
   * (the main thread then decodes only the binary blocks the worker sends), `thread` on the main
   * thread, `auto` (default) a worker for a text or gzipped recording of WORKER_MIN_BYTES or
   * more on a machine with WORKER_MIN_CORES or more. Never for a plain binary file: the main
   * thread would decode the same binary form anyway. Smaller files do not repay the worker's
   * start (about 0.25 s), and with fewer cores the two threads mostly take turns (measured in
   * `npm run bench -- backtest.bench`). The events are the same.
   */
  readonly decode?: DecodePlace;
}

/** Where a recording may be decoded (`--decode`; see `OpenDataOptions.decode`). */
export const DECODE_PLACES = ['auto', 'worker', 'thread'] as const;
export type DecodePlace = (typeof DECODE_PLACES)[number];

/** Files at least this large are decoded on a worker thread by default... */
export const WORKER_MIN_BYTES = 64 * 1024 * 1024;
/** ...when the machine has at least this many cores. */
export const WORKER_MIN_CORES = 4;

export async function openBacktestData(path: string, options: OpenDataOptions = {}): Promise<RecordingData | StoreData> {
  const kind = dataFileKind(path);
  if (kind === 'store') return openStoreData(path);
  if (kind === 'unknown') {
    throw new ConfigError(`${path}: not a recording (expected a clobot recording: JSON lines or the binary form, optionally gzipped)`);
  }
  const recording = await openRecording(path);
  const bytes = statSync(path).size;
  const decode = options.decode ?? 'auto';
  const plainBinary = recording.form === 'binary' && !recording.gzip;
  const inWorker = decode === 'worker' || (decode === 'auto' && !plainBinary && bytes >= WORKER_MIN_BYTES && availableParallelism() >= WORKER_MIN_CORES);
  return {
    kind: 'recording',
    name: basename(path),
    path,
    header: recording.header,
    form: recording.form,
    gzip: recording.gzip,
    decodeOn: inWorker ? 'worker' : 'thread',
    bytes,
    events: () => recording.events(),
    batches: (onBytes) => (inWorker ? workerBatches(path, recording.gzip, recording.header, onBytes) : readRecordingBatches(path, recording.gzip, onBytes)),
  };
}

/** Messages of blocks kept decoded ahead of the replay by the decode worker. */
const WORKER_AHEAD = 4;
const DECODE_WORKER_URL = new URL('./decode-worker.mjs', import.meta.url);

/**
 * The same events as `readRecordingBatches`, decoded on a worker thread: the file is read, gunzipped and
 * decoded there (with every check and error of the reader) while the main thread replays, and
 * the events come over as blocks of the binary recording form, which the main thread decodes
 * (the cheapest decoding there is; see binary-codec.ts). Memory stays bounded: the worker runs
 * at most a few messages ahead.
 */
export async function* workerBatches(path: string, gzip: boolean, header: RecordingHeader, onBytes?: (bytesRead: number) => void): AsyncGenerator<MarketEvent[]> {
  const worker = new Worker(DECODE_WORKER_URL);
  const blocks = new BinaryEventDecoder(`${path} (from the decode worker)`, headerTokens(header));
  const inbox: FromDecodeWorker[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  worker.on('message', (msg: FromDecodeWorker) => {
    inbox.push(msg);
    notify();
  });
  worker.on('error', (err) => {
    failure = new ClobotError(`recording decode worker failed: ${err.message}`, { cause: err });
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new ClobotError(`recording decode worker exited (code ${code})`);
    notify();
  });
  try {
    const open: ToDecodeWorker = { kind: 'open', path, gzip };
    worker.postMessage(open);
    worker.postMessage({ kind: 'credit', n: WORKER_AHEAD } satisfies ToDecodeWorker);
    let offset = 0;
    for (;;) {
      const msg = inbox.shift();
      if (msg === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (msg.kind === 'blocks') {
        worker.postMessage({ kind: 'credit', n: 1 } satisfies ToDecodeWorker);
        onBytes?.(msg.bytes);
        for (const bytes of msg.blocks) {
          const block = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          const events: MarketEvent[] = [];
          blocks.decodeBlock(block, 4, block.length, offset + 4, events);
          offset += block.length;
          yield events;
        }
      } else if (msg.kind === 'end') {
        onBytes?.(msg.bytes);
        return;
      } else {
        if (msg.name === 'DecodeError' && msg.path !== undefined) throw new DecodeError(msg.path, msg.expected ?? '', msg.actual);
        if (msg.name === 'ConfigError') throw new ConfigError(msg.message);
        throw new ClobotError(`${msg.name}: ${msg.message}`);
      }
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
