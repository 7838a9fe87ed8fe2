import { DecodeError } from '../../core/errors.ts';
import type { MarketEvent } from '../../core/events.ts';
import { BINARY_FORM_VERSION, BINARY_MAGIC, BinaryEventDecoder, isBinaryRecording } from './binary-codec.ts';
import { decodeRecordingHeader, headerTokens } from './decode-recorded.ts';
import type { RecordingHeader } from './format.ts';
import { located } from './text-decoder.ts';

const PREAMBLE_BYTES = 14;
const EMPTY = Buffer.alloc(0);
/** Larger blocks (or headers) than this are corruption, not data. */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

/**
 * Decodes the binary form fed in byte chunks of any size: the preamble and header, then whole
 * blocks as they complete. Errors are DecodeErrors naming `file@byte offset` (offsets in the
 * uncompressed bytes).
 */
export class RecordingBinaryDecoder {
  readonly #where: string;
  #pending: Buffer = EMPTY;
  /** File offset of `#pending[0]`. */
  #offset = 0;
  #header: RecordingHeader | undefined;
  #blocks: BinaryEventDecoder | undefined;
  #ended = false;

  constructor(where: string) {
    this.#where = where;
  }

  get header(): RecordingHeader | undefined {
    return this.#header;
  }

  push(chunk: Buffer, out: MarketEvent[]): void {
    let rest = chunk;
    if (this.#pending.length > 0) {
      // finish the block cut by the previous chunk on its own: only its missing bytes are
      // copied, not the whole chunk (a 64 KB copy per batch otherwise, ~2% of binary decoding),
      // and nothing when the two pieces lie side by side in one buffer (the reader's batches of
      // one read chunk)
      const take = this.#blocks !== undefined && !this.#ended ? Math.min(this.#missing(rest), rest.length) : rest.length;
      const pending = this.#pending;
      const adjacent = pending.buffer === rest.buffer && pending.byteOffset + pending.length === rest.byteOffset;
      const buf = adjacent ? Buffer.from(rest.buffer, pending.byteOffset, pending.length + take) : Buffer.concat([pending, rest.subarray(0, take)]);
      rest = rest.subarray(take);
      const pos = this.#consume(buf, out);
      this.#pending = pos === buf.length ? EMPTY : buf.subarray(pos);
      // the block is whole now (what is left of the chunk starts the next one), or the chunk is used up
    }
    if (rest.length === 0) return;
    const pos = this.#consume(rest, out);
    this.#pending = pos === rest.length ? EMPTY : rest.subarray(pos);
  }

  /** Bytes of `chunk` that complete the block begun in `#pending` (or at least its length field). */
  #missing(chunk: Buffer): number {
    const pending = this.#pending;
    if (pending.length >= 4) return 4 + pending.readUInt32LE(0) - pending.length;
    const head = Buffer.concat([pending, chunk.subarray(0, 4 - pending.length)]);
    return head.length < 4 ? chunk.length : 4 + head.readUInt32LE(0) - pending.length;
  }

  /** Decodes what `buf` holds whole (from the file offset `#offset`) and returns how far that was. */
  #consume(buf: Buffer, out: MarketEvent[]): number {
    let pos = 0;
    for (;;) {
      if (this.#ended) {
        if (pos < buf.length) throw this.#error(pos, 'end', 'nothing after the end marker', `${buf.length - pos} more bytes`);
        break;
      }
      if (this.#header === undefined) {
        if (buf.length - pos < PREAMBLE_BYTES) break;
        if (!isBinaryRecording(buf.subarray(pos))) throw this.#error(pos, 'magic', 'a binary clobot recording', buf.subarray(pos, pos + BINARY_MAGIC.length).toString('latin1'));
        const form = buf.readUInt16LE(pos + 8);
        if (form > BINARY_FORM_VERSION) {
          throw this.#error(pos + 8, 'form version', `at most ${BINARY_FORM_VERSION} (the file is from a newer clobot)`, form);
        }
        const length = buf.readUInt32LE(pos + 10);
        if (length > MAX_BLOCK_BYTES) throw this.#error(pos + 10, 'header length', 'a header of a sane size', length);
        if (buf.length - pos < PREAMBLE_BYTES + length) break;
        const text = buf.toString('utf8', pos + PREAMBLE_BYTES, pos + PREAMBLE_BYTES + length);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw this.#error(pos + PREAMBLE_BYTES, 'header', 'the JSON header of a clobot recording', text);
        }
        try {
          this.#header = decodeRecordingHeader(value);
        } catch (err) {
          throw located(err, `${this.#where}@byte ${this.#offset + pos + PREAMBLE_BYTES}`);
        }
        this.#blocks = new BinaryEventDecoder(this.#where, headerTokens(this.#header));
        pos += PREAMBLE_BYTES + length;
        continue;
      }
      if (buf.length - pos < 4) break;
      const length = buf.readUInt32LE(pos);
      if (length === 0) {
        this.#ended = true;
        pos += 4;
        continue;
      }
      if (length > MAX_BLOCK_BYTES) throw this.#error(pos, 'block length', 'a block of a sane size', length);
      if (buf.length - pos < 4 + length) break;
      this.#blocks!.decodeBlock(buf, pos + 4, pos + 4 + length, this.#offset + pos + 4, out);
      pos += 4 + length;
    }
    this.#offset += pos;
    return pos;
  }

  /** Checks that the file ended properly (header read, end marker seen, nothing left over). */
  end(): void {
    if (this.#header === undefined) throw this.#error(0, 'header', 'a complete binary recording header', 'a truncated file');
    if (!this.#ended) throw this.#error(this.#pending.length, 'end', 'the end marker (the file is truncated)', 'end of file');
  }

  #error(pos: number, field: string, expected: string, actual: unknown): DecodeError {
    return new DecodeError(`${this.#where}@byte ${this.#offset + pos}: ${field}`, expected, actual);
  }
}
