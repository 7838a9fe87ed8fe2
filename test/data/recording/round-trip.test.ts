import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../../src/core/events.ts';
import { convertRecording } from '../../../src/data/recording/convert-recording.ts';
import { marketEventToRecorded, recordedToMarketEvent } from '../../../src/data/recording/convert.ts';
import { encodeEventLine, encodeHeaderLine } from '../../../src/data/recording/encode-line.ts';
import type { RecordingForm, RecordingHeader } from '../../../src/data/recording/format.ts';
import { openRecording, readRecordingSync } from '../../../src/data/recording/reader.ts';
import { createRecordingWriter } from '../../../src/data/recording/writer.ts';
import { syntheticEvents, syntheticHeader } from '../../../src/backtest/synthetic-recording.ts';
import { fixtureEvents, SMALL_HEADER, tempDir } from './helpers.ts';

const tmp = tempDir();
afterAll(() => tmp.done());

async function writeAll(path: string, header: RecordingHeader, events: readonly MarketEvent[], form: RecordingForm, flushBytes?: number) {
  const w = createRecordingWriter(path, header, { form, flushBytes });
  for (const e of events) w.write(e);
  await w.close();
  return w;
}

async function readAll(path: string): Promise<{ header: RecordingHeader; events: MarketEvent[]; batched: MarketEvent[]; form: RecordingForm; gzip: boolean }> {
  const rec = await openRecording(path);
  const events: MarketEvent[] = [];
  for await (const e of rec.events()) events.push(e);
  const batched: MarketEvent[] = [];
  for await (const b of rec.batches()) batched.push(...b);
  return { header: rec.header, events, batched, form: rec.form, gzip: rec.gzip };
}

describe('recording round trip', () => {
  const { header, events } = fixtureEvents();

  it.each([
    ['text, plain', 'f.jsonl', 'text'],
    ['text, gzip', 'f.jsonl.gz', 'text'],
    ['binary, plain', 'f.clbr', 'binary'],
    ['binary, gzip', 'f.clbr.gz', 'binary'],
  ] as const)('%s: every event kind reads back identical (streamed, batched and at once)', async (_, name, form) => {
    const path = tmp.path(name);
    const w = await writeAll(path, header, events, form);
    expect(w.events).toBe(events.length);
    const back = await readAll(path);
    expect(back.form).toBe(form);
    expect(back.gzip).toBe(name.endsWith('.gz'));
    expect(back.header).toEqual(header);
    expect(back.events).toEqual(events);
    expect(back.batched).toEqual(events);
    expect(readRecordingSync(path).events).toEqual(events);
    // every kind is there, and the fixture book whose levels came worst-first is sorted
    expect(new Set(back.events.map((e) => e.type))).toEqual(new Set(['walletTrade', 'book', 'prices', 'trade', 'tickSize', 'marketClosed', 'marketResolved', 'marketAdded', 'feeRate', 'marketCleared']));
    const b2024 = back.events[1]!;
    if (b2024.type !== 'book') throw new Error('expected a book');
    expect(b2024.book.bids.map((l) => l.price)).toEqual([...b2024.book.bids.map((l) => l.price)].sort((a, b) => b - a));
    expect(b2024.book.asks.map((l) => l.price)).toEqual([...b2024.book.asks.map((l) => l.price)].sort((a, b) => a - b));
  });

  it.each(['text', 'binary'] as const)('%s: a file of many read chunks streams the same events as the whole file read at once (lines and blocks across chunk ends; text reads every chunk into one buffer)', async (form) => {
    const options = { seed: 3, markets: 3, depth: 20, events: form === 'text' ? 12_000 : 40_000 };
    const path = tmp.path(`many-chunks.${form}`);
    const w = createRecordingWriter(path, syntheticHeader(options), { form });
    for (const e of syntheticEvents(options)) w.write(e);
    await w.close();
    // several 1 MB chunks (the reader's CHUNK_BYTES)
    expect(readFileSync(path).length).toBeGreaterThan(2 << 20);
    const streamed: MarketEvent[] = [];
    for await (const batch of (await openRecording(path)).batches()) streamed.push(...batch);
    const whole = readRecordingSync(path).events;
    expect(streamed.length).toBe(whole.length);
    expect(streamed).toEqual(whole);
  });

  it('writes gzip as complete members: the file read at any flush is a valid recording of what was flushed', async () => {
    const path = tmp.path('live.jsonl.gz');
    const w = createRecordingWriter(path, header, { flushBytes: 1 << 30 });
    const copy = tmp.path('live-copy.jsonl.gz');
    copyFileSync(path, copy);
    expect(readRecordingSync(copy).events).toEqual([]); // the header alone, right after creation
    for (const e of events.slice(0, 5)) w.write(e);
    w.flush();
    for (const e of events.slice(5)) w.write(e); // buffered, not flushed
    copyFileSync(path, copy);
    expect(readRecordingSync(copy).events).toEqual(events.slice(0, 5));
    await w.close();
    expect(readRecordingSync(path).events).toEqual(events);
    expect(gunzipSync(readFileSync(path)).toString('utf8').split('\n')).toHaveLength(events.length + 2); // header, events, final newline
  });

  it('the text form is the JSON of marketEventToRecorded, and the converters invert each other', () => {
    for (const e of events) {
      const recorded = marketEventToRecorded(e);
      expect(encodeEventLine(e)).toBe(JSON.stringify(recorded));
      expect(recordedToMarketEvent(recorded)).toEqual(e);
      expect(recordedToMarketEvent(JSON.parse(JSON.stringify(recorded)))).toEqual(e);
    }
    expect(JSON.parse(encodeHeaderLine(header))).toEqual(header);
  });

  it('converts text -> binary -> text back to the same bytes, gzip or not', async () => {
    const text = tmp.path('c.jsonl');
    await writeAll(text, header, events, 'text');
    await convertRecording(text, tmp.path('c.clbr.gz'), 'binary');
    const again = await convertRecording(tmp.path('c.clbr.gz'), tmp.path('c2.jsonl'), 'text');
    expect(again.events).toBe(events.length);
    expect(readFileSync(tmp.path('c2.jsonl'), 'utf8')).toBe(readFileSync(text, 'utf8'));
    await convertRecording(text, tmp.path('c3.jsonl.gz'), 'text');
    expect(gunzipSync(readFileSync(tmp.path('c3.jsonl.gz'))).toString('utf8')).toBe(readFileSync(text, 'utf8'));
  });

  it('reads lines written by hand: keys in any order, spaces, CRLF, unsorted levels, blank lines, no final newline', async () => {
    const path = tmp.path('hand.jsonl');
    const lines = [
      encodeHeaderLine(SMALL_HEADER),
      // the scanner's shape, with extra spaces and CRLF
      ' { "t" : "book" , "tsEvent":5, "tsInit":10, "tokenId":"11", "conditionId":"0xc1", "hash":"h1", "bids":[ ["0.4","1"], ["0.5","2"] ], "asks":[["0.7","3"],["0.6","4.5"]] }\r',
      '',
      // keys in another order: the generic path
      '{"asks":[],"bids":[["0.1","10"]],"hash":"h2","conditionId":"0xc1","tokenId":"22","tsInit":11,"tsEvent":11,"t":"book","lastTradePrice":"0.1"}',
      '{"t":"prices","tsEvent":12,"tsInit":12,"prices":[{"tokenId":"11","sell":"0.6"}]}',
      '{"t":"trade","tsEvent":12,"tsInit":13,"tokenId":"22","price":"0.1","size":"10","side":"BUY"}',
      '{"t":"tick","tsEvent":14,"tsInit":14,"tokenId":"11","tickSize":"0.001"}',
    ];
    writeFileSync(path, lines.join('\n'));
    const { events: got } = readRecordingSync(path);
    expect(got).toEqual([
      {
        type: 'book',
        tsEvent: 5,
        tsInit: 10,
        book: {
          tokenId: '11',
          conditionId: '0xc1',
          tsEvent: 5,
          tsInit: 10,
          hash: 'h1',
          bids: [
            { price: 500_000, size: 2_000_000 },
            { price: 400_000, size: 1_000_000 },
          ],
          asks: [
            { price: 600_000, size: 4_500_000 },
            { price: 700_000, size: 3_000_000 },
          ],
          tickSize: undefined,
          minOrderSize: undefined,
          negRisk: undefined,
          lastTradePrice: undefined,
        },
      },
      {
        type: 'book',
        tsEvent: 11,
        tsInit: 11,
        book: {
          tokenId: '22',
          conditionId: '0xc1',
          tsEvent: 11,
          tsInit: 11,
          hash: 'h2',
          bids: [{ price: 100_000, size: 10_000_000 }],
          asks: [],
          tickSize: undefined,
          minOrderSize: undefined,
          negRisk: undefined,
          lastTradePrice: 100_000,
        },
      },
      { type: 'prices', tsEvent: 12, tsInit: 12, prices: [{ tokenId: '11', buy: undefined, sell: 600_000, tsInit: 12 }] },
      { type: 'trade', tsEvent: 12, tsInit: 13, tokenId: '22', price: 100_000, size: 10_000_000, side: 'BUY' },
      { type: 'tickSize', tsEvent: 14, tsInit: 14, tokenId: '11', tickSize: 1_000 },
    ]);
    expect((await readAll(path)).events).toEqual(got);
  });

  it('any valid books survive every form (property)', async () => {
    const level = fc.record({ price: fc.integer({ min: 0, max: 1_000_000 }), size: fc.integer({ min: 0, max: 2 ** 50 }) });
    const bookArb = fc.record({
      token: fc.constantFrom('11', '22'),
      bids: fc.uniqueArray(level, { selector: (l) => l.price, maxLength: 25 }),
      asks: fc.uniqueArray(level, { selector: (l) => l.price, maxLength: 25 }),
      hash: fc.oneof(fc.constant('same'), fc.string({ maxLength: 12 }), fc.stringMatching(/^[0-9a-f]{0,40}$/)),
      tick: fc.option(fc.constantFrom(10_000, 1_000, 1), { nil: undefined }),
      ltp: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }),
      negRisk: fc.option(fc.boolean(), { nil: undefined }),
      dt: fc.integer({ min: 0, max: 5_000 }),
      lag: fc.integer({ min: 0, max: 2_000 }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(bookArb, { minLength: 1, maxLength: 30 }), async (specs) => {
        let t = 1_700_000_000_000;
        const events: MarketEvent[] = specs.map((s) => {
          t += s.dt;
          return {
            type: 'book',
            tsEvent: t - s.lag,
            tsInit: t,
            book: {
              tokenId: s.token,
              conditionId: '0xc1',
              tsEvent: t - s.lag,
              tsInit: t,
              hash: s.hash,
              bids: [...s.bids].sort((a, b) => b.price - a.price),
              asks: [...s.asks].sort((a, b) => a.price - b.price),
              tickSize: s.tick,
              minOrderSize: 5_000_000,
              negRisk: s.negRisk,
              lastTradePrice: s.ltp,
            },
          };
        });
        n++;
        for (const [name, form] of [
          [`p${n}.jsonl`, 'text'],
          [`p${n}.clbr.gz`, 'binary'],
        ] as const) {
          await writeAll(tmp.path(name), SMALL_HEADER, events, form, 512);
          expect(readRecordingSync(tmp.path(name)).events).toEqual(events);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a level unchanged since the token\'s last book is the same object; the events are still exact (property)', async () => {
    // each book is the token's last one with a few edits: sizes changed, levels dropped or added,
    // the whole side shifted a tick (what a venue's snapshots look like)
    const edit = fc.record({
      token: fc.constantFrom('11', '22'),
      side: fc.constantFrom('bids', 'asks'),
      at: fc.nat(30),
      kind: fc.constantFrom('size', 'drop', 'add', 'shift'),
      size: fc.integer({ min: 1, max: 1_000_000_000 }),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 40 }), async (edits) => {
        const sides = new Map<string, { bids: { price: number; size: number }[]; asks: { price: number; size: number }[] }>();
        for (const token of ['11', '22']) {
          sides.set(token, {
            bids: Array.from({ length: 10 }, (_, i) => ({ price: 500_000 - 10_000 * i, size: 1_000_000 * (i + 1) })),
            asks: Array.from({ length: 10 }, (_, i) => ({ price: 510_000 + 10_000 * i, size: 2_000_000 * (i + 1) })),
          });
        }
        let t = 1_700_000_000_000;
        const events: MarketEvent[] = edits.map((e) => {
          const book = sides.get(e.token)!;
          const levels = [...book[e.side]];
          const i = levels.length === 0 ? 0 : e.at % levels.length;
          const dir = e.side === 'bids' ? -1 : 1;
          if (e.kind === 'size' && levels.length > 0) levels[i] = { price: levels[i]!.price, size: e.size };
          else if (e.kind === 'drop' && levels.length > 0) levels.splice(i, 1);
          else if (e.kind === 'shift') levels.forEach((l, k) => (levels[k] = { price: l.price + dir * 10_000, size: l.size }));
          else {
            const last = levels.at(-1)?.price ?? 500_000;
            levels.push({ price: last + dir * 10_000, size: e.size });
          }
          book[e.side] = levels.filter((l) => l.price >= 0 && l.price <= 1_000_000);
          t += 7;
          return {
            type: 'book',
            tsEvent: t,
            tsInit: t,
            book: { tokenId: e.token, conditionId: '0xc1', tsEvent: t, tsInit: t, hash: 'h', bids: [...book.bids], asks: [...book.asks], tickSize: undefined, minOrderSize: undefined, negRisk: undefined, lastTradePrice: undefined },
          };
        });
        n++;
        for (const [name, form] of [
          [`s${n}.jsonl`, 'text'],
          [`s${n}.clbr`, 'binary'],
        ] as const) {
          await writeAll(tmp.path(name), SMALL_HEADER, events, form, 512);
          const back = readRecordingSync(tmp.path(name)).events;
          expect(back).toEqual(events);
          // sharing: every level equal to one of the token's previous book is that object
          const previous = new Map<string, Map<string, object>>();
          for (const e of back) {
            if (e.type !== 'book') continue;
            const before = previous.get(e.book.tokenId);
            const now = new Map<string, object>();
            for (const [side, levels] of [['b', e.book.bids], ['a', e.book.asks]] as const) {
              for (const l of levels) {
                const key = `${side}${l.price}:${l.size}`;
                const old = before?.get(key);
                if (old !== undefined) expect(l).toBe(old);
                now.set(key, l);
              }
            }
            previous.set(e.book.tokenId, now);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('recording versions', () => {
  it('a version-2 file (text, and binary form 3) without the venue events reads unchanged', async () => {
    const { header, events } = fixtureEvents();
    const v2Events = events.filter((e) => e.type !== 'feeRate' && e.type !== 'marketCleared' && e.type !== 'walletTrade');
    const v2Header: RecordingHeader = { ...header, version: 2, markets: header.markets };
    const text = tmp.path('v2.jsonl');
    writeFileSync(text, [encodeHeaderLine(v2Header), ...v2Events.map(encodeEventLine)].join('\n') + '\n');
    const fromText = await readAll(text);
    expect(fromText.header.version).toBe(2);
    expect(fromText.events).toEqual(v2Events);
    const bin = tmp.path('v2.clbr');
    await writeAll(bin, v2Header, v2Events, 'binary');
    const bytes = readFileSync(bin);
    expect(bytes.readUInt16LE(8)).toBe(4);
    bytes.writeUInt16LE(3, 8); // the form version before the venue events
    writeFileSync(bin, bytes);
    const fromBinary = await readAll(bin);
    expect(fromBinary.events).toEqual(v2Events);
  });
});
