import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src/core/errors.ts';
import type { MarketEvent } from '../../../src/core/events.ts';
import { encodeEventLine, encodeHeaderLine } from '../../../src/data/recording/encode-line.ts';
import { RecordingTextDecoder } from '../../../src/data/recording/text-decoder.ts';
import { fixtureEvents } from './helpers.ts';

/** The text decoder takes its bytes in chunks of any size: lines cut anywhere decode the same. */

const { header, events } = fixtureEvents();
const text = Buffer.from([encodeHeaderLine(header), ...events.map(encodeEventLine)].join('\n') + '\n', 'utf8');

function decodeInChunks(bytes: Buffer, size: number): { events: MarketEvent[]; decoder: RecordingTextDecoder } {
  const decoder = new RecordingTextDecoder('x.jsonl');
  const out: MarketEvent[] = [];
  for (let at = 0; at < bytes.length; at += size) decoder.push(bytes.subarray(at, Math.min(at + size, bytes.length)), out);
  decoder.end(out);
  return { events: out, decoder };
}

describe('recording text decoder', () => {
  it.each([1, 2, 7, 64, 333, 4096, 1 << 20])('gives the same events fed in chunks of %i bytes', (size) => {
    const { events: got, decoder } = decodeInChunks(text, size);
    expect(got).toEqual(events);
    expect(decoder.line).toBe(events.length + 1);
  });

  it('decodes a last line without a newline', () => {
    const { events: got } = decodeInChunks(text.subarray(0, text.length - 1), 100);
    expect(got).toEqual(events);
  });

  it('names the right line of a bad event whatever the chunking', () => {
    const lines = [encodeHeaderLine(header), ...events.map(encodeEventLine)];
    lines.splice(4, 0, '{"t":"book","tsEvent":1'); // line 5
    const bad = Buffer.from(lines.join('\n') + '\n', 'utf8');
    for (const size of [1, 13, 4096]) {
      let err: unknown;
      try {
        decodeInChunks(bad, size);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DecodeError);
      expect((err as DecodeError).message).toMatch(/^x\.jsonl:5\b/);
    }
  });
});
