import { describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../src/core/events.ts';
import type { BookLevel } from '../../../src/core/types.ts';
import { BinaryEventEncoder, binaryEnd, encodeBinaryPreamble } from '../../../src/data/recording/binary-codec.ts';
import { RecordingBinaryDecoder } from '../../../src/data/recording/binary-stream.ts';
import { fixtureEvents, SMALL_HEADER } from './helpers.ts';

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

  const lv = (price: number, size: number): BookLevel => ({ price, size });
  const book = (t: number, bids: BookLevel[], asks: BookLevel[]): MarketEvent => ({
    type: 'book',
    tsEvent: t,
    tsInit: t,
    book: { tokenId: '11', conditionId: '0xc1', tsEvent: t, tsInit: t, hash: `h${t}`, bids, asks, tickSize: undefined, minOrderSize: undefined, negRisk: undefined, lastTradePrice: undefined },
  });
  const decodeAll = (file: Buffer): MarketEvent[] => {
    const decoder = new RecordingBinaryDecoder('x.bin');
    const got: MarketEvent[] = [];
    decoder.push(file, got);
    decoder.end();
    return got;
  };

  it('reads a form-2 file (every level written out, before books were written as runs)', () => {
    // written by form 2's encoder: two books of one token, the second a size and an ask apart
    const v2 = Buffer.from(
      'iUNMQlJFQwoCAC4BAAB7ImZvcm1hdCI6ImNsb2JvdC1yZWNvcmRpbmciLCJ2ZXJzaW9uIjoxLCJjcmVhdGVkQXQiOjEsInNvdXJjZSI6InRlc3QiLCJtYXJrZXRzIjpbeyJjb25kaXRpb25JZCI6IjB4YzEiLCJxdWVzdGlvbiI6IlE/Iiwic2x1ZyI6InEiLCJuZWdSaXNrIjpmYWxzZSwidGlja1NpemUiOiIwLjAxIiwibWluT3JkZXJTaXplIjoiNSIsIm1ha2VyQmFzZUZlZUJwcyI6MCwidGFrZXJCYXNlRmVlQnBzIjowLCJ0b2tlbnMiOlt7InRva2VuSWQiOiIxMSIsIm91dGNvbWUiOiJZZXMifSx7InRva2VuSWQiOiIyMiIsIm91dGNvbWUiOiJObyJ9XX1dfV8AAAABAAIxMQEBBDB4YzECAgAAAQACaDEDAqDCHsCEPZBOgIl6kE7AjbcBsJAfgJL0AZBOwJaxAgICAAABAAJoMgMCoMIewIQ9kE6gy5gBkE7AjbcBwN4fwJaxApBOgJvuAgAAAAA=',
      'base64',
    );
    expect(v2.readUInt16LE(8)).toBe(2);
    expect(decodeAll(v2)).toEqual([
      book(1, [lv(500_000, 1_000_000), lv(490_000, 2_000_000), lv(480_000, 3_000_000)], [lv(510_000, 4_000_000), lv(520_000, 5_000_000)]),
      book(2, [lv(500_000, 1_000_000), lv(490_000, 2_500_000), lv(480_000, 3_000_000)], [lv(520_000, 5_000_000), lv(530_000, 6_000_000)]),
    ]);
  });

  it("writes a book as runs against its token's last one: a changed level costs its bytes, the others a few in all", () => {
    const bids = Array.from({ length: 20 }, (_, i) => lv(500_000 - 10_000 * i, 1_000_000 * (i + 1)));
    const asks = Array.from({ length: 20 }, (_, i) => lv(510_000 + 10_000 * i, 2_000_000 * (i + 1)));
    const events = [
      book(1, bids, asks),
      // one size changed on each side
      book(2, bids.map((l, i) => (i === 3 ? lv(l.price, 7_000_000) : l)), asks.map((l, i) => (i === 0 ? lv(l.price, 1_000_000) : l))),
      // the mid moved a tick: a new best bid, the best ask gone, a new worst ask
      book(3, [lv(510_000, 9_000_000), ...bids.slice(0, 19)], [...asks.slice(1), lv(710_000, 3_000_000)]),
      // levels that come back after a book without them, repeated prices, empty sides
      book(4, [lv(510_000, 9_000_000), lv(510_000, 1_000_000), lv(490_000, 2_000_000), lv(490_000, 2_000_000)], []),
      book(5, [], [lv(520_000, 4_000_000), lv(520_000, 4_000_000)]),
      book(6, [lv(510_000, 9_000_000), lv(500_000, 1_000_000), lv(490_000, 2_000_000)], asks),
    ];
    const encoder = new BinaryEventEncoder();
    const written: Buffer[] = [];
    for (const e of events) {
      encoder.add(e);
      written.push(...encoder.flush());
    }
    const sizes = written.map((block) => block.length);
    // the first book has every level (2-5 bytes each); the second 4 bytes of runs around each
    // changed level, a changed level 5-6 bytes, and the rest of the record (times, refs, hash)
    expect(sizes[0]).toBeGreaterThan(200);
    expect(sizes[1]).toBeLessThan(50);
    expect(sizes[2]).toBeLessThan(50);
    const got = decodeAll(Buffer.concat([encodeBinaryPreamble(SMALL_HEADER), ...written, binaryEnd()]));
    expect(got).toEqual(events);
    // copied levels are the previous book's objects
    const [b1, b2] = got.map((e) => (e.type === 'book' ? e.book : undefined));
    expect(b2!.bids[19]).toBe(b1!.bids[19]);
    expect(b2!.asks[1]).toBe(b1!.asks[1]);
  });
});
