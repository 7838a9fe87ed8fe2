import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../src/core/events.ts';
import { BinaryEventEncoder, binaryEnd, encodeBinaryPreamble } from '../../../src/data/recording/binary-codec.ts';
import { RecordingBinaryDecoder } from '../../../src/data/recording/binary-stream.ts';
import { fixtureEvents } from './helpers.ts';

/**
 * The binary decoder takes its bytes in chunks of any size: blocks (one per event here, so
 * chunks cut many of them, their length fields included) decode the same as the whole file.
 */

const { header, events } = fixtureEvents();
const encoder = new BinaryEventEncoder();
const blocks: Buffer[] = [];
for (const e of events) {
  encoder.add(e);
  blocks.push(...encoder.flush());
}
const bytes = Buffer.concat([encodeBinaryPreamble(header), ...blocks, binaryEnd()]);

describe('recording binary decoder', () => {
  // views of one buffer (the reader's batches: a block cut between two is joined without a
  // copy) and copies (separate read chunks: the cut block is copied together)
  it.each([1, 2, 3, 5, 7, 64, 333, 4096, 1 << 20].flatMap((size) => [[size, 'views'] as const, [size, 'copies'] as const]))('gives the same events fed in chunks of %i bytes (%s)', (size, kind) => {
    const decoder = new RecordingBinaryDecoder('x.bin');
    const got: MarketEvent[] = [];
    for (let at = 0; at < bytes.length; at += size) {
      const chunk = bytes.subarray(at, Math.min(at + size, bytes.length));
      decoder.push(kind === 'views' ? chunk : Buffer.from(chunk), got);
    }
    decoder.end();
    expect(blocks.length).toBe(events.length);
    expect(got).toEqual(events);
    expect(decoder.header).toEqual(header);
  });

  it('refuses bytes after the end marker, naming their offset, whatever the chunking', () => {
    const extra = Buffer.concat([bytes, Buffer.from([1, 2, 3])]);
    for (const size of [1, 6, 4096]) {
      const decoder = new RecordingBinaryDecoder('x.bin');
      const push = (): void => {
        for (let at = 0; at < extra.length; at += size) decoder.push(extra.subarray(at, Math.min(at + size, extra.length)), []);
      };
      expect(push).toThrow(`x.bin@byte ${bytes.length}: end`);
    }
  });
});
