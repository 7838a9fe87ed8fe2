import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFileKind, openBacktestData, workerBatches } from '../../src/backtest/data-file.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { DecodeError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { readRecordingBatches as readBatches } from '../../src/data/recording/reader.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { TempDir } from './helpers.ts';

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
    expect(opened.kind === 'recording' && opened.decodeOn).toBe('worker');
    // by default: never for a plain binary file, nor for a small one
    for (const path of [text, binary]) {
      const auto = await openBacktestData(path);
      expect(auto.kind === 'recording' && auto.decodeOn).toBe('thread');
    }
  });

  it('reports a damaged file from the worker as the same DecodeError', async () => {
    const bytes = readFileSync(binary);
    const damaged = tmp.path('damaged.bin');
    writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    // a text file with a bad line in the middle: the error names the line either way
    const lines = (await collect(readBatches(text, true))).length;
    expect(lines).toBeGreaterThan(100);
    const badText = tmp.path('damaged.jsonl');
    const textLines = (await import('node:zlib')).gunzipSync(readFileSync(text)).toString('utf8').split('\n');
    textLines[1000] = textLines[1000]!.replace('"bids":[[', '"bids":[["x",');
    writeFileSync(badText, textLines.join('\n'));
    for (const path of [damaged, badText]) {
      const thread = await collect(readBatches(path, false)).catch((err: unknown) => err);
      const worker = await collect(workerBatches(path, false, header)).catch((err: unknown) => err);
      expect(thread).toBeInstanceOf(DecodeError);
      expect(worker).toBeInstanceOf(DecodeError);
      expect((worker as Error).message).toBe((thread as Error).message);
    }
    expect(String(await collect(workerBatches(badText, false, header)).catch((err: unknown) => err))).toContain(`${badText}:1001`);
  });
});
