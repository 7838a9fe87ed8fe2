import { createReadStream, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib';
import { ConfigError, DecodeError, fileErrorReason } from '../../core/errors.ts';
import type { MarketEvent } from '../../core/events.ts';
import { BINARY_MAGIC, isBinaryRecording } from './binary-codec.ts';
import { RecordingBinaryDecoder } from './binary-stream.ts';
import type { RecordingForm, RecordingHeader } from './format.ts';
import { RecordingTextDecoder } from './text-decoder.ts';

/** An opened recording: its header now, its events on demand (each call reads the file anew). */
export interface Recording {
  readonly path: string;
  readonly header: RecordingHeader;
  readonly form: RecordingForm;
  readonly gzip: boolean;
  /** Every event, decoded to the domain (Micros, books sorted), in file order. */
  events(): AsyncIterable<MarketEvent>;
  /**
   * The same events in arrays of a few hundred to a few thousand (one read chunk each): the fast
   * way to replay, without one promise per event.
   */
  /** Events in arrays (the fast way to replay); `onBytes` hears the running count of file bytes read. */
  batches(onBytes?: (bytesRead: number) => void): AsyncIterable<MarketEvent[]>;
}

/** Bytes read from disk (and out of gunzip) at a time. */
const CHUNK_BYTES = 1 << 20;
/**
 * Bytes decoded into one batch of events: about a hundred 20-level books as text lines (~700
 * bytes each). The binary form decodes whole blocks (the writer closes one at 32 KB), a few
 * hundred books of form 3 (~65 bytes each): pieces of 64 KB made batches of two blocks, whose
 * events were all alive, and so copied, at a young-generation collection (GC per run of a
 * one-off bench, not kept: median 120 -> ~80 ms; bench/backtest.bench.ts notes it).
 */
const BATCH_BYTES = 64 * 1024;
const BINARY_BATCH_BYTES = 32 * 1024;

/**
 * Opens a recording, text or binary, plain or gzipped (both told by their first bytes, whatever
 * the name). Reads and checks the header at once: another format or a newer version is one
 * DecodeError naming `file:line`. Events stream in constant memory.
 */
export async function openRecording(path: string): Promise<Recording> {
  const magic = sniff(path, 2);
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
  let header: RecordingHeader | undefined;
  let form: RecordingForm = 'text';
  // read only until the header is complete
  for await (const step of decodeFile(path, gzip, true)) {
    header = step.header;
    form = step.form;
    break;
  }
  if (header === undefined) throw new DecodeError(`${path}:1`, 'a recording header line', 'an empty file');
  const h = header;
  return {
    path,
    header: h,
    form,
    gzip,
    batches: (onBytes) => readRecordingBatches(path, gzip, onBytes),
    async *events() {
      for await (const step of decodeFile(path, gzip, false)) for (const e of step.events) yield e;
    },
  };
}

/**
 * The whole recording at once (the file, decompressed, held in memory): for small files and
 * tests. Same checks and errors as `openRecording`.
 */
export function readRecordingSync(path: string): { header: RecordingHeader; events: MarketEvent[]; form: RecordingForm } {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (err) {
    throw cannotRead(path, err);
  }
  let gzipFailure: unknown;
  if (raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      raw = gunzipSync(raw);
    } catch (err) {
      // decode what there is, so the error names the line where the data stops (as when streaming)
      gzipFailure = err;
      raw = gunzipSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    }
  }
  const events: MarketEvent[] = [];
  if (gzipFailure !== undefined) {
    if (isBinaryRecording(raw)) {
      new RecordingBinaryDecoder(path).push(raw, events);
      throw gzipError(path, gzipFailure);
    }
    const d = new RecordingTextDecoder(path);
    d.push(raw, events);
    throw gzipError(`${path}:${d.line + 1}`, gzipFailure);
  }
  if (isBinaryRecording(raw)) {
    const d = new RecordingBinaryDecoder(path);
    d.push(raw, events);
    d.end();
    return { header: d.header!, events, form: 'binary' };
  }
  const d = new RecordingTextDecoder(path);
  d.push(raw, events);
  d.end(events);
  return { header: d.header!, events, form: 'text' };
}

interface Step {
  readonly header: RecordingHeader;
  readonly form: RecordingForm;
  readonly events: MarketEvent[];
}

/** The events of a recording in arrays, streamed; `onBytes` hears the running count of file bytes read. */
export async function* readRecordingBatches(path: string, gzip: boolean, onBytes?: (bytesRead: number) => void): AsyncGenerator<MarketEvent[]> {
  for await (const step of decodeFile(path, gzip, false, onBytes)) if (step.events.length > 0) yield step.events;
}

/** How `plainChunks` hands out its chunks; `reuse` may be set while it runs. */
interface ChunkReuse {
  /**
   * One buffer for every chunk, each overwriting the last: only for a consumer that keeps no
   * piece of a chunk once it has taken the next (the text decoder copies the line it carries).
   */
  reuse: boolean;
}

/**
 * A plain file's bytes, CHUNK_BYTES at a time, read synchronously (decodeFile lets the event loop
 * turn after each chunk): the replay that consumes them is synchronous anyway, and a read from the page cache takes a fraction of a millisecond, while
 * a stream's read waits for the thread pool (on a loaded machine, whole milliseconds of idle
 * wall time per chunk) and costs a promise and an event per chunk. Each chunk is a fresh buffer
 * (the binary decoder keeps the piece of a block that goes on in the next chunk) unless
 * `mode.reuse`: then one buffer is read into again and again, so a gigabyte of text is not a
 * thousand megabyte buffers waiting for the garbage collector.
 */
function* plainChunks(path: string, mode: ChunkReuse, onBytes?: (bytesRead: number) => void): Generator<Buffer, void, undefined> {
  const fd = openSync(path, 'r');
  try {
    let read = 0;
    let kept: Buffer | undefined;
    for (;;) {
      const chunk = mode.reuse ? (kept ??= Buffer.allocUnsafe(CHUNK_BYTES)) : Buffer.allocUnsafe(CHUNK_BYTES);
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) return;
      read += n;
      onBytes?.(read);
      yield n === CHUNK_BYTES ? chunk : chunk.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads the file (through gunzip when gzipped) into the decoder of its form. */
async function* decodeFile(path: string, gzip: boolean, headerOnly: boolean, onBytes?: (bytesRead: number) => void): AsyncGenerator<Step, void, undefined> {
  const file = gzip ? createReadStream(path, { highWaterMark: CHUNK_BYTES }) : undefined;
  if (file && onBytes) {
    let read = 0;
    file.on('data', (chunk) => {
      read += chunk.length;
      onBytes(read);
    });
  }
  const gunzip = file?.pipe(createGunzip({ chunkSize: 256 * 1024 }));
  if (file && gunzip) file.on('error', (err) => gunzip.destroy(err));
  const chunks: ChunkReuse = { reuse: false };
  const source: AsyncIterable<Buffer> | Iterable<Buffer> = gunzip ?? plainChunks(path, chunks, onBytes);
  let text: RecordingTextDecoder | undefined;
  let binary: RecordingBinaryDecoder | undefined;
  let head: Buffer | undefined; // the first bytes, until there are enough to tell the form
  try {
    try {
      for await (const piece of source) {
        let chunk = piece;
        if (text === undefined && binary === undefined) {
          chunk = head ? Buffer.concat([head, piece]) : piece;
          if (chunk.length < BINARY_MAGIC.length && chunk[0] === BINARY_MAGIC[0]) {
            head = chunk;
            continue;
          }
          head = undefined;
          if (isBinaryRecording(chunk)) binary = new RecordingBinaryDecoder(path);
          else {
            text = new RecordingTextDecoder(path);
            // the text decoder keeps no piece of a chunk (what it carries is a copy)
            chunks.reuse = true;
          }
        }
        // small batches: the events of a batch are still alive when the young generation is
        // collected, so a big batch would be copied (and promoted) by the garbage collector
        const batchBytes = binary ? BINARY_BATCH_BYTES : BATCH_BYTES;
        for (let at = 0; at < chunk.length; at += batchBytes) {
          const events: MarketEvent[] = [];
          const piece = at === 0 && chunk.length <= batchBytes ? chunk : chunk.subarray(at, Math.min(at + batchBytes, chunk.length));
          if (binary) binary.push(piece, events);
          else text!.push(piece, events);
          const header = binary ? binary.header : text!.header;
          if (header !== undefined) {
            yield { header, form: binary ? 'binary' : 'text', events };
            if (headerOnly) return;
          }
        }
        // a plain file is read synchronously: once a chunk, let the event loop turn, so a Ctrl-C,
        // a sweep's stop message or a timer is heard while a long replay runs
        if (gunzip === undefined) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      if (isZlibError(err)) throw gzipError(text ? `${path}:${text.line + 1}` : path, err);
      if (isFsError(err)) throw cannotRead(path, err);
      throw err;
    }
    const events: MarketEvent[] = [];
    if (head !== undefined) {
      binary = new RecordingBinaryDecoder(path);
      binary.push(head, events);
    }
    if (binary) binary.end();
    else if (text) text.end(events); else throw new DecodeError(`${path}:1`, 'a recording header line', 'an empty file');
    const header = binary ? binary.header! : text!.header!;
    yield { header, form: binary ? 'binary' : 'text', events };
  } finally {
    gunzip?.destroy();
    file?.destroy();
  }
}

function sniff(path: string, n: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw cannotRead(path, err);
  }
  try {
    const buf = Buffer.alloc(n);
    const got = readSync(fd, buf, 0, n, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

function isFsError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

function gzipError(where: string, err: unknown): DecodeError {
  const message = err instanceof Error ? err.message : String(err);
  return new DecodeError(where, 'gzip data that ends properly (the file is truncated or damaged)', message);
}

/** A recording that cannot be opened is bad input, like a config file that cannot be read. */
function cannotRead(path: string, err: unknown): ConfigError {
  return new ConfigError(`${path}: cannot read recording (${fileErrorReason(err)})`);
}
