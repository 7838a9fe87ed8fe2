import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DecodeError, ParameterError } from '../../../src/core/errors.ts';
import type { MarketEvent } from '../../../src/core/events.ts';
import { encodeHeaderLine } from '../../../src/data/recording/encode-line.ts';
import { openRecording, readRecordingSync } from '../../../src/data/recording/reader.ts';
import { createRecordingWriter } from '../../../src/data/recording/writer.ts';
import { SMALL_HEADER, tempDir } from './helpers.ts';

const tmp = tempDir();
afterAll(() => tmp.done());

const HEADER = encodeHeaderLine(SMALL_HEADER);
const BOOK = (tsInit: number, bids = '[["0.5","1"]]') =>
  `{"t":"book","tsEvent":${tsInit},"tsInit":${tsInit},"tokenId":"11","conditionId":"0xc1","hash":"h","bids":${bids},"asks":[]}`;

/** The error both readers give, checked to be one DecodeError line; returns its message. */
async function failure(path: string): Promise<string> {
  let syncError: unknown;
  try {
    readRecordingSync(path);
  } catch (err) {
    syncError = err;
  }
  let streamError: unknown;
  try {
    const rec = await openRecording(path);
    for await (const _ of rec.events()) void _;
  } catch (err) {
    streamError = err;
  }
  expect(syncError).toBeInstanceOf(DecodeError);
  expect(streamError).toBeInstanceOf(DecodeError);
  const message = (streamError as Error).message;
  expect(message).not.toContain('\n');
  expect((syncError as Error).message).toBe(message);
  return message;
}

function textFile(name: string, lines: string[]): string {
  const path = tmp.path(name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('recording errors', () => {
  it('refuses another format on line 1, naming file and line', async () => {
    const path = textFile('other.jsonl', [JSON.stringify({ ...SMALL_HEADER, format: 'nautilus-catalog' }), BOOK(1)]);
    expect(await failure(path)).toBe(`${path}:1: format: expected 'clobot-recording' (this is not a clobot recording), got string "nautilus-catalog"`);
  });

  it('refuses a newer version, naming file and line', async () => {
    const path = textFile('v4.jsonl', [JSON.stringify({ ...SMALL_HEADER, version: 4 }), BOOK(1)]);
    expect(await failure(path)).toBe(`${path}:1: version: expected at most 3 (the file is from a newer clobot; this one reads version 3), got number 4`);
  });

  it('refuses a newer version inside gzip and inside the binary form the same way', async () => {
    const gz = tmp.path('v2.jsonl.gz');
    writeFileSync(gz, gzipSync(JSON.stringify({ ...SMALL_HEADER, version: 4 }) + '\n'));
    expect(await failure(gz)).toBe(`${gz}:1: version: expected at most 3 (the file is from a newer clobot; this one reads version 3), got number 4`);
    // a binary file whose header says version 4
    const bin = tmp.path('v4.clbr');
    const w = createRecordingWriter(bin, SMALL_HEADER, { form: 'binary' });
    await w.close();
    const bytes = readFileSync(bin);
    const at = bytes.indexOf('"version":1');
    bytes.write('"version":4', at, 'latin1');
    writeFileSync(bin, bytes);
    expect(await failure(bin)).toMatch(new RegExp(`^${escape(bin)}@byte 14: version: expected at most 3 .*got number 4$`));
  });

  it('refuses a file that is not a recording at all', async () => {
    expect(await failure(textFile('csv.jsonl', ['ts,slug,bid,ask', '1,x,0.1,0.2']))).toMatch(/csv\.jsonl:1: expected the JSON header of a clobot recording, got string "ts,slug,bid,ask"$/);
    const empty = tmp.path('empty.jsonl');
    writeFileSync(empty, '');
    expect(await failure(empty)).toMatch(/empty\.jsonl:1: expected a recording header line/);
  });

  it.each([
    ['a bad decimal', BOOK(2, '[["0.5","1"],["abc","2"]]'), 'bids[1][0]: expected a non-negative decimal string with at most 6 decimals, got string "abc"'],
    ['a negative size', BOOK(2, '[["0.5","-1"]]'), 'bids[0][1]: expected a non-negative decimal string with at most 6 decimals, got string "-1"'],
    ['an unknown token', '{"t":"trade","tsEvent":2,"tsInit":2,"tokenId":"99","price":"0.5","size":"1","side":"BUY"}', `tokenId: expected a token of the header's markets or of an earlier market event, got string "99"`],
    ['a bad side', '{"t":"trade","tsEvent":2,"tsInit":2,"tokenId":"11","price":"0.5","size":"1","side":"buy"}', `side: expected 'BUY' or 'SELL', got string "buy"`],
    ['an unknown kind', '{"t":"quote","tsEvent":2,"tsInit":2}', `t: expected one of 'book', 'prices', 'trade', 'walletTrade', 'tick', 'close', 'resolve', 'market', 'fee', 'clear', got string "quote"`],
    ['a close of an unknown token', '{"t":"close","tsEvent":2,"tsInit":2,"conditionId":"0xc1","tokenIds":["11","99"]}', `tokenIds[1]: expected a token of the header's markets or of an earlier market event, got string "99"`],
    ['a resolve without tokens', '{"t":"resolve","tsEvent":2,"tsInit":2,"conditionId":"0xc1","tokenIds":[],"winner":null}', 'tokenIds: expected a non-empty array of token ids, got array(0)'],
    ['a winner outside the market', '{"t":"resolve","tsEvent":2,"tsInit":2,"conditionId":"0xc1","tokenIds":["11","22"],"winner":"33"}', 'winner: expected one of tokenIds, or null (no winner), got string "33"'],
    ['a market re-listing a known token', `{"t":"market","tsEvent":2,"tsInit":2,"market":${JSON.stringify({ ...SMALL_HEADER.markets[0], conditionId: '0xc2', tokens: [{ tokenId: '33', outcome: 'Yes' }, { tokenId: '22', outcome: 'No' }] })}}`, 'market.tokens[1].tokenId: expected a token id listed once, got string "22"'],
    ['a market without a tick size', `{"t":"market","tsEvent":2,"tsInit":2,"market":${JSON.stringify({ ...SMALL_HEADER.markets[0], conditionId: '0xc2', tickSize: '0', tokens: [{ tokenId: '33', outcome: 'Yes' }] })}}`, 'market.tickSize: expected a positive decimal string with at most 6 decimals, got string "0"'],
    ['a zero tick', '{"t":"tick","tsEvent":2,"tsInit":2,"tokenId":"11","tickSize":"0"}', 'tickSize: expected a positive decimal string with at most 6 decimals, got string "0"'],
    ['a time going back', BOOK(0), `tsInit: expected >= the previous event's tsInit (1); events are in tsInit order, got number 0`],
    ['broken JSON', '{"t":"book",', 'expected one JSON object (an event), got string "{\\"t\\":\\"book\\","'],
  ])('names file, line and field for %s', async (name, bad, expected) => {
    const path = textFile(`bad-${name.replace(/\W+/g, '-')}.jsonl`, [HEADER, BOOK(1), bad, BOOK(3)]);
    const message = await failure(path);
    expect(message).toBe(`${path}:3: ${expected}`);
  });

  it('refuses a truncated gzip file, after the events before the cut', async () => {
    const path = tmp.path('cut.jsonl.gz');
    const w = createRecordingWriter(path, SMALL_HEADER);
    for (let i = 1; i <= 200; i++) w.write(bookEvent(i));
    await w.close();
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 10));
    expect(await failure(path)).toMatch(new RegExp(`^${escape(path)}:\\d+: expected gzip data that ends properly \\(the file is truncated or damaged\\), got string "unexpected end of file"$`));
    // streaming hands out the events before the cut, then throws
    const seen: MarketEvent[] = [];
    const rec = await openRecording(path);
    await expect(
      (async () => {
        for await (const e of rec.events()) seen.push(e);
      })(),
    ).rejects.toThrow(DecodeError);
    expect(seen.length).toBeGreaterThan(100);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => bookEvent(i + 1)));
  });

  /** A binary recording of `n` books, its bytes, and where its first record starts. */
  async function binaryBooks(name: string, n: number): Promise<{ path: string; whole: Buffer; firstRecord: number }> {
    const path = tmp.path(name);
    const w = createRecordingWriter(path, SMALL_HEADER, { form: 'binary' });
    for (let i = 1; i <= n; i++) w.write(bookEvent(i));
    await w.close();
    const whole = readFileSync(path);
    return { path, whole, firstRecord: 14 + whole.readUInt32LE(10) + 4 }; // preamble, header, block length
  }

  it('a binary market record is checked as the text one: a token of the header re-listed, or a token used before its market joined, is refused naming the byte', async () => {
    const joined = { ...SMALL_HEADER.markets[0]!, conditionId: '0xc2', tokens: [{ tokenId: '33', outcome: 'Yes' }, { tokenId: '44', outcome: 'No' }] };
    const write = async (name: string, events: MarketEvent[]): Promise<string> => {
      const path = tmp.path(name);
      const w = createRecordingWriter(path, SMALL_HEADER, { form: 'binary' });
      for (const e of events) w.write(e);
      await w.close();
      return path;
    };
    const trade = (tokenId: string, t: number): MarketEvent => ({ type: 'trade', tokenId, price: 500_000, size: 1_000_000, side: 'BUY', tsEvent: t, tsInit: t });
    const ok = await write('joined.clbr', [bookEvent(1), { type: 'marketAdded', market: joined, tsEvent: 2, tsInit: 2 }, trade('33', 3), trade('11', 4)]);
    expect(readRecordingSync(ok).events.map((e) => e.type)).toEqual(['book', 'marketAdded', 'trade', 'trade']);
    const relisted = await write('relisted.clbr', [bookEvent(1), { type: 'marketAdded', market: { ...joined, tokens: [{ tokenId: '22', outcome: 'No' }] }, tsEvent: 2, tsInit: 2 }]);
    expect(await failure(relisted)).toMatch(new RegExp(`^${escape(relisted)}@byte \\d+: market.tokens\\[0\\].tokenId: expected a token id listed once, got string "22"$`));
    const early = await write('early.clbr', [bookEvent(1), trade('33', 2), { type: 'marketAdded', market: joined, tsEvent: 3, tsInit: 3 }]);
    expect(await failure(early)).toMatch(/@byte \d+: tokenId: expected a token of the header's markets or of an earlier market event, got string "33"$/);
  });

  it('refuses a truncated or damaged binary file, naming the byte offset', async () => {
    const { path, whole, firstRecord } = await binaryBooks('cut.clbr', 200);
    writeFileSync(path, whole.subarray(0, whole.length - 4)); // the end marker is gone
    expect(await failure(path)).toMatch(new RegExp(`^${escape(path)}@byte \\d+: end: expected the end marker \\(the file is truncated\\), got string "end of file"$`));
    const damaged = Buffer.from(whole);
    expect(damaged[firstRecord]).toBe(1); // a string definition
    damaged[firstRecord] = 0x7f;
    writeFileSync(path, damaged);
    expect(await failure(path)).toMatch(new RegExp(`^${escape(path)}@byte ${firstRecord}: kind: expected a record kind 1..11, got number 127$`));
  });

  it('a binary file with any one byte damaged decodes or is refused with a DecodeError, never anything else', async () => {
    const { path, whole, firstRecord } = await binaryBooks('flip.clbr', 50);
    let refused = 0;
    // every byte of the records, set to values that break varints, counts and kinds
    for (let at = firstRecord; at < whole.length - 4; at += 3) {
      for (const value of [0x00, 0x7f, 0x80, 0xff]) {
        if (whole[at] === value) continue;
        const damaged = Buffer.from(whole);
        damaged[at] = value;
        writeFileSync(path, damaged);
        try {
          readRecordingSync(path);
        } catch (err) {
          expect(err).toBeInstanceOf(DecodeError);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
  });

  it('a missing file is bad input (ConfigError), not a decode error', async () => {
    await expect(openRecording(tmp.path('nope.jsonl'))).rejects.toThrow(ConfigError);
    await expect(openRecording(tmp.path('nope.jsonl'))).rejects.toThrow(/nope\.jsonl: cannot read recording \(no such file: ENOENT\)/);
    expect(() => readRecordingSync(tmp.path('nope.jsonl'))).toThrow(ConfigError);
  });
});

describe('recording writer refusals', () => {
  it.each(['text', 'binary'] as const)('%s: refuses a tsInit going back and a negative amount, and the file stays valid', async (form) => {
    const path = tmp.path(`refuse.${form}`);
    const w = createRecordingWriter(path, SMALL_HEADER, { form });
    w.write(bookEvent(5));
    expect(() => w.write(bookEvent(4))).toThrow(ParameterError);
    const bad = bookEvent(6);
    const negative: MarketEvent = { ...bad, type: 'book', book: { ...(bad.type === 'book' ? bad.book : ({} as never)), asks: [{ price: 600_000, size: -1 }] } };
    expect(() => w.write(negative)).toThrow(/size/);
    expect(() => w.write({ type: 'trade', tokenId: 'new-token', price: 1, size: -5, side: 'BUY', tsEvent: 6, tsInit: 6 })).toThrow(ParameterError);
    w.write(bookEvent(7));
    await w.close();
    expect(() => w.write(bookEvent(8))).toThrow(/closed/);
    expect(readRecordingSync(path).events).toEqual([bookEvent(5), bookEvent(7)]);
  });
});

function bookEvent(t: number): MarketEvent {
  return {
    type: 'book',
    tsEvent: t,
    tsInit: t,
    book: {
      tokenId: t % 2 === 0 ? '11' : '22',
      conditionId: '0xc1',
      tsEvent: t,
      tsInit: t,
      hash: `h${t}`,
      bids: [{ price: 500_000, size: t * 1_000_000 }],
      asks: [{ price: 510_000, size: 1_000_000 }],
      tickSize: 10_000,
      minOrderSize: undefined,
      negRisk: undefined,
      lastTradePrice: undefined,
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
