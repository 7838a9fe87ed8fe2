import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFileKind, openBacktestData, readBatches, workerBatches } from '../../src/backtest/data-file.ts';
import { packEvents, unpackEvents } from '../../src/backtest/packed-events.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { DecodeError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/data/market-events.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { bookEvent, COND, m, T0, TempDir, tradeEvent, YES } from './helpers.ts';

const tmp = new TempDir();
afterAll(() => tmp.remove());

const OPTIONS = { seed: 5, markets: 2, depth: 6, events: 2_500, meanGapMs: 100 };

async function write(path: string, form: 'text' | 'binary'): Promise<void> {
  const writer = createRecordingWriter(path, syntheticHeader(OPTIONS), { form });
  for (const event of syntheticEvents(OPTIONS)) writer.write(event);
  await writer.close();
}

async function collect(source: AsyncIterable<MarketEvent[]>): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const batch of source) out.push(...batch);
  return out;
}

describe('backtest data files', async () => {
  const text = tmp.path('rec.jsonl.gz');
  const binary = tmp.path('rec.bin');
  await write(text, 'text');
  await write(binary, 'binary');
  const header = syntheticHeader(OPTIONS);

  it('tells a recording, a store and anything else apart by the first bytes', () => {
    expect(dataFileKind(text)).toBe('recording');
    expect(dataFileKind(binary)).toBe('recording');
    expect(dataFileKind(tmp.write('plain.jsonl', '{"format":"clobot-recording"}\n'))).toBe('recording');
    expect(dataFileKind(tmp.write('db.sqlite', 'SQLite format 3\0rest'))).toBe('store');
    expect(dataFileKind(tmp.write('notes.txt', 'hello'))).toBe('unknown');
  });

  it('decodes the same events on a worker thread as on this one, counting file bytes to the end', async () => {
    for (const path of [text, binary]) {
      const here = await collect(readBatches(path, path.endsWith('.gz')));
      let seen = 0;
      const there = await collect(workerBatches(path, path.endsWith('.gz'), header, (b) => (seen = b)));
      expect(there.length).toBeGreaterThanOrEqual(OPTIONS.events);
      expect(there).toEqual(here);
      expect(seen).toBe(readFileSync(path).length);
    }
    const opened = await openBacktestData(binary, { decode: 'worker' });
    expect(opened.header).toEqual(header);
  });

  it('reports a damaged file from the worker as the same DecodeError', async () => {
    const bytes = readFileSync(binary);
    const damaged = tmp.path('damaged.bin');
    writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const thread = await collect(readBatches(damaged, false)).catch((err: unknown) => err);
    const worker = await collect(workerBatches(damaged, false, header)).catch((err: unknown) => err);
    expect(thread).toBeInstanceOf(DecodeError);
    expect(worker).toBeInstanceOf(DecodeError);
    expect((worker as Error).message).toBe((thread as Error).message);
  });
});

describe('packed event batches', () => {
  it('unpack(pack(events)) gives the events back, field for field', () => {
    const book = bookEvent(T0, [['0.50', '10'], ['0.49', '20']], [['0.51', '5']], { tickSize: '0.001', minOrderSize: '5' });
    const bare = bookEvent(T0 + 1, [], [['0.99', '1']]);
    const withLast: MarketEvent = book.type === 'book' ? { ...book, book: { ...book.book, negRisk: true, lastTradePrice: m('0.5'), hash: 'abc' } } : book;
    const events: MarketEvent[] = [
      book,
      bare,
      withLast,
      { type: 'prices', prices: [{ tokenId: YES, buy: m('0.5'), sell: undefined, tsInit: T0 + 2 }, { tokenId: 'stranger', buy: undefined, sell: m('0.6'), tsInit: T0 + 2 }], tsEvent: T0 + 1, tsInit: T0 + 2 },
      tradeEvent(T0 + 3, 'SELL', '0.5', '12.5'),
      tradeEvent(T0 + 4, 'BUY', '0.51', '1', 'other-token'),
      { type: 'tickSize', tokenId: YES, tickSize: m('0.01'), tsEvent: T0 + 5, tsInit: T0 + 5 },
      bookEvent(T0 + 6, [['0.5', '1']], [], { conditionId: '0xunknown', tokenId: 'also-unknown' }),
    ];
    const tables = { tokens: [YES, 'no'], conditions: [COND] };
    const packed = packEvents(events, tables);
    expect(unpackEvents(packed, tables)).toEqual(events);
    expect(packed.strings).toEqual([expect.any(String), expect.any(String), 'abc', 'stranger', 'other-token', 'also-unknown', '0xunknown', expect.any(String)]);
  });
});
