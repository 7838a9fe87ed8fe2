import { DecodeError } from '../../core/errors.ts';
import type { MarketEvent } from '../../core/events.ts';
import { BINARY_FORM_VERSION, BINARY_MAGIC, BinaryEventDecoder, isBinaryRecording } from './binary-codec.ts';
import { decodeRecordingHeader, headerTokens } from './decode-recorded.ts';
import type { RecordingHeader } from './format.ts';
import { located } from './text-decoder.ts';

const PREAMBLE_BYTES = 14;
/** Larger blocks (or headers) than this are corruption, not data. */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

/**
 * Decodes the binary form fed in byte chunks of any size: the preamble and header, then whole
 * blocks as they complete. Errors are DecodeErrors naming `file@byte offset` (offsets in the
 * uncompressed bytes).
 */
export class RecordingBinaryDecoder {
  readonly #where: string;
  #pending: Buffer = Buffer.alloc(0);
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
    const buf = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
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
    this.#pending = pos === buf.length ? Buffer.alloc(0) : buf.subarray(pos);
    this.#offset += pos;
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
