import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { textFrame, textFrameHeader } from '../../../src/sandbox/ws/text-frame.ts';

/** ws's own framing and parsing (exported by the package, not declared by @types/ws). */
const { Sender, Receiver } = createRequire(import.meta.url)('ws') as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/** The frame `ws` itself makes for a server's text message (the reference). */
function wsFrame(text: string): Buffer {
  const data = Buffer.from(text);
  const parts = Sender.frame(data, { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false });
  return Buffer.concat(parts);
}

/** What a `ws` client's receiver reads from `bytes`: the messages, as text. */
function received(bytes: Buffer): string[] {
  const out: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on('message', (data: Buffer, isBinary: boolean) => out.push(isBinary ? 'binary' : data.toString()));
  receiver.write(bytes);
  return out;
}

describe('textFrame', () => {
  // the three length encodings of RFC 6455 5.2 and their edges, with multi-byte UTF-8
  const lengths = [0, 1, 125, 126, 127, 65_535, 65_536, 300_000];
  for (const length of lengths) {
    it(`is byte for byte the frame ws makes, for a ${length}-byte text`, () => {
      const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
      expect(Buffer.byteLength(text)).toBe(length);
      const frame = textFrame(text);
      expect(frame.equals(wsFrame(text))).toBe(true);
      expect(Buffer.concat([textFrameHeader(length), Buffer.from(text)]).equals(frame)).toBe(true);
      expect(received(frame)).toEqual([text]);
    });
  }

  it('frames laid end to end are read as separate messages, in order', () => {
    const texts = ['PONG', '{"event_type":"book"}', 'z'.repeat(70_000)];
    expect(received(Buffer.concat(texts.map(textFrame)))).toEqual(texts);
  });
});
