/**
 * Reading recordings: 50,000 book events of 20 levels a side over 20 tokens (77-digit token ids,
 * 40-hex hashes, 2- and 3-decimal prices, sizes with cents), written once in each form to a
 * temporary folder. Compares, on the same events in the same run:
 *   - bare line-by-line `JSON.parse` of the text file (the yardstick: read, split, parse; it
 *     yields no domain objects),
 *   - our reader on the text form (`openRecording(...).batches()` and `.events()`: the line
 *     scanner, to domain MarketEvents with Micros and sorted books),
 *   - our reader on the binary form (`clobot import --to-binary`),
 * each plain and gzipped (gzip against the yardstick on the gzipped text). Best of 3 passes.
 * Goal: the binary form well above 1.5x the yardstick, so the replay engine can outrun it.
 */
import { randomDigits as digits, randomHex as hex, seededRandom as prng } from '../src/core/seeded-random.ts';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { MarketEvent } from '../src/core/events.ts';
import type { RecordingHeader } from '../src/data/recording/format.ts';
import { openRecording } from '../src/data/recording/reader.ts';
import { createRecordingWriter } from '../src/data/recording/writer.ts';
import type { BenchTable } from './table.ts';

const EVENTS = 50_000;
const TOKENS = 20;
const LEVELS = 20;
const PASSES = 3;

function makeData(): { header: RecordingHeader; events: MarketEvent[] } {
  const rand = prng(42);
  const markets = [];
  const tokens: { tokenId: string; conditionId: string; tick: number; mid: number }[] = [];
  for (let m = 0; m < TOKENS / 2; m++) {
    const conditionId = `0x${hex(rand, 64)}`;
    const tick = m % 4 === 0 ? 1_000 : 10_000;
    const ids = [digits(rand, 77), digits(rand, 77)];
    markets.push({
      conditionId,
      question: `Market ${m}?`,
      slug: `market-${m}`,
      negRisk: false,
      tickSize: tick === 1_000 ? '0.001' : '0.01',
      minOrderSize: '5',
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: ids[0]!, outcome: 'Yes' },
        { tokenId: ids[1]!, outcome: 'No' },
      ],
    });
    const mid = 200_000 + Math.floor(rand() * 600_000);
    tokens.push({ tokenId: ids[0]!, conditionId, tick, mid }, { tokenId: ids[1]!, conditionId, tick, mid: 1_000_000 - mid });
  }
  const header: RecordingHeader = { format: 'clobot-recording', version: 1, createdAt: 1_786_000_000_000, source: 'bench', markets };
  const events: MarketEvent[] = [];
  let t = 1_786_000_000_000;
  for (let i = 0; i < EVENTS; i++) {
    const tok = tokens[i % TOKENS]!;
    const best = Math.round(tok.mid / tok.tick) * tok.tick;
    const bids = [];
    const asks = [];
    for (let l = 1; l <= LEVELS; l++) {
      bids.push({ price: best - l * tok.tick, size: (5 + Math.floor(rand() ** 3 * 50_000)) * 1_000_000 + Math.floor(rand() * 100) * 10_000 });
      asks.push({ price: best + l * tok.tick, size: (5 + Math.floor(rand() ** 3 * 50_000)) * 1_000_000 + Math.floor(rand() * 100) * 10_000 });
    }
    t += Math.floor(rand() * 20);
    const book = {
      tokenId: tok.tokenId,
      conditionId: tok.conditionId,
      tsEvent: t - 5,
      tsInit: t,
      hash: hex(rand, 40),
      bids,
      asks,
      tickSize: tok.tick,
      minOrderSize: 5_000_000,
      negRisk: false,
      lastTradePrice: best,
    };
    events.push({ type: 'book', book, tsEvent: book.tsEvent, tsInit: t });
  }
  return { header, events };
}

/** The yardstick: read, split into lines, JSON.parse each (header included). */
async function bareJsonParse(path: string, gzip: boolean): Promise<number> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = gzip ? file.pipe(createGunzip({ chunkSize: 256 * 1024 })) : file;
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let n = 0;
  let sink = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const text = carry + decoder.write(chunk);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const value = JSON.parse(text.slice(start, nl)) as { tsInit?: number };
      sink += value.tsInit ?? 0;
      n++;
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (sink === 0.5) console.log(sink);
  return n - 1; // events, not the header
}

async function ourBatches(path: string): Promise<number> {
  const rec = await openRecording(path);
  let n = 0;
  let sink = 0;
  for await (const batch of rec.batches()) {
    for (let i = 0; i < batch.length; i++) sink += batch[i]!.tsInit;
    n += batch.length;
  }
  if (sink === 0.5) console.log(sink);
  return n;
}

async function ourEvents(path: string): Promise<number> {
  const rec = await openRecording(path);
  let n = 0;
  let sink = 0;
  for await (const e of rec.events()) {
    sink += e.tsInit;
    n++;
  }
  if (sink === 0.5) console.log(sink);
  return n;
}

/** Runs every reader once per pass, in turn (so load on the machine hits them alike); best rate each. */
async function bestOf(readers: readonly (() => Promise<number>)[]): Promise<number[]> {
  const top = readers.map(() => 0);
  for (let pass = 0; pass < PASSES; pass++) {
    for (let r = 0; r < readers.length; r++) {
      const t0 = performance.now();
      const n = await readers[r]!();
      const s = (performance.now() - t0) / 1000;
      if (n !== EVENTS) throw new Error(`read ${n} events, expected ${EVENTS}`);
      top[r] = Math.max(top[r]!, n / s);
    }
  }
  return top;
}

/** Writes the four files; the events are dropped afterwards so the heap is small while reading. */
async function writeFiles(files: Record<'text' | 'textGz' | 'bin' | 'binGz', string>): Promise<void> {
  const { header, events } = makeData();
  for (const [path, form] of [
    [files.text, 'text'],
    [files.textGz, 'text'],
    [files.bin, 'binary'],
    [files.binGz, 'binary'],
  ] as const) {
    const w = createRecordingWriter(path, header, { form });
    for (const e of events) w.write(e);
    await w.close();
  }
}

export async function run(): Promise<BenchTable> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-rec-'));
  try {
    const files = {
      text: join(dir, 'books.jsonl'),
      textGz: join(dir, 'books.jsonl.gz'),
      bin: join(dir, 'books.clbr'),
      binGz: join(dir, 'books.clbr.gz'),
    };
    await writeFiles(files);
    const mb = (p: string) => (statSync(p).size / 1e6).toFixed(1);
    const plan: [string, string, () => Promise<number>, 'plain' | 'gzip'][] = [
      ['JSON.parse per line (yardstick)', files.text, () => bareJsonParse(files.text, false), 'plain'],
      ['  text reader, batches()', files.text, () => ourBatches(files.text), 'plain'],
      ['  text reader, events()', files.text, () => ourEvents(files.text), 'plain'],
      ['  binary reader, batches()', files.bin, () => ourBatches(files.bin), 'plain'],
      ['  binary reader, events()', files.bin, () => ourEvents(files.bin), 'plain'],
      ['gzip: JSON.parse per line (yardstick)', files.textGz, () => bareJsonParse(files.textGz, true), 'gzip'],
      ['  gzip text reader, batches()', files.textGz, () => ourBatches(files.textGz), 'gzip'],
      ['  gzip binary reader, batches()', files.binGz, () => ourBatches(files.binGz), 'gzip'],
      ['  gzip binary reader, events()', files.binGz, () => ourEvents(files.binGz), 'gzip'],
    ];
    const rates = await bestOf(plan.map((p) => p[2]));
    const yard = { plain: rates[0]!, gzip: rates[5]! };
    const rows = plan.map(([what, file, , kind], i) => [what, `${mb(file)} MB`, Math.round(rates[i]!), rates[i]! / yard[kind]]);
    return {
      title: `Reading a recording: ${EVENTS.toLocaleString('en-US')} books, ${LEVELS} levels a side, ${TOKENS} tokens (best of ${PASSES})`,
      columns: ['reader', 'file', 'events/s', 'x yardstick'],
      rows,
      notes: [
        'yardstick: read + split lines + JSON.parse, no domain objects; ours: domain MarketEvents (Micros, sorted books, tokens checked against the header)',
        'gzip rows are compared with the yardstick on the gzipped text file',
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
