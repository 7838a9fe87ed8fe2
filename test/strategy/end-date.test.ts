import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineStrategy } from 'clobot';
import { runStrategy, scriptedBooks, SCRIPT_START_MS, TestingError } from 'clobot/testing';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';

/**
 * A market's end date (`MarketRules.endDate`, epoch ms) reaches the strategy from a script, from a
 * written recording (text and binary), and is absent, not an error, in an older recording.
 */

const dir = mkdtempSync(join(tmpdir(), 'clobot-end-date-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const END = SCRIPT_START_MS + 3_600_000;

function script() {
  const s = scriptedBooks();
  const ending = s.market({ slug: 'ending', endDate: END });
  const open = s.market({ slug: 'open' });
  for (const m of [ending, open]) s.at(0).book(m.yes, { bids: [['0.93', '10']], asks: [['0.95', '10']] });
  return { s, ending, open };
}

/** Each token's rules.endDate as the strategy's snapshots give it. */
async function endDatesSeen(source: Parameters<typeof runStrategy>[1]): Promise<Map<string, number | undefined>> {
  const seen = new Map<string, number | undefined>();
  await runStrategy(defineStrategy({ name: 'x', onBook: ({ ctx, market }) => void seen.set(market.tokenId, ctx.market(market.tokenId)?.rules.endDate) }), source);
  return seen;
}

describe('the market end date in the strategy API', () => {
  it('scriptedBooks().market({ endDate }) gives the snapshot rules.endDate; a market without one has none', async () => {
    const { s, ending, open } = script();
    const seen = await endDatesSeen({ books: s });
    expect(seen.get(ending.yes)).toBe(END);
    expect(seen.get(open.yes)).toBeUndefined();
    expect(s.header.markets.find((m) => m.slug === 'ending')?.endDate).toBe(END);
    expect(s.header.markets.find((m) => m.slug === 'open')).not.toHaveProperty('endDate');
  });

  it('a written recording keeps it in the header, text and binary, and a backtest of either sees it', async () => {
    const { s, ending } = script();
    const text = join(dir, 'ending.jsonl');
    await s.write(text);
    const binary = join(dir, 'ending.bin');
    const writer = createRecordingWriter(binary, s.header, { form: 'binary' });
    for (const e of s.events) writer.write(e);
    await writer.close();
    for (const path of [text, binary]) {
      const data = await openBacktestData(path);
      expect(data.header.markets.map((m) => m.endDate)).toEqual([END, undefined]);
      expect((await endDatesSeen({ recording: path })).get(ending.yes)).toBe(END);
    }
  });

  it('an older recording without end dates reads as before: no endDate on any snapshot', async () => {
    const { s, ending } = script();
    const path = join(dir, 'older.jsonl');
    await s.write(path);
    const [head, ...rest] = readFileSync(path, 'utf8').split('\n');
    const header = JSON.parse(head!) as { markets: Record<string, unknown>[] };
    for (const m of header.markets) delete m['endDate'];
    writeFileSync(path, [JSON.stringify(header), ...rest].join('\n'));
    expect((await endDatesSeen({ recording: path })).get(ending.yes)).toBeUndefined();
  });

  it('a header end date that is not epoch ms is one error naming the field', async () => {
    const { s } = script();
    const path = join(dir, 'bad.jsonl');
    await s.write(path);
    const [head, ...rest] = readFileSync(path, 'utf8').split('\n');
    const header = JSON.parse(head!) as { markets: Record<string, unknown>[] };
    header.markets[0]!['endDate'] = '2026-01-01T00:00:00Z';
    writeFileSync(path, [JSON.stringify(header), ...rest].join('\n'));
    await expect(openBacktestData(path)).rejects.toThrow(/markets\[0\]\.endDate.*epoch milliseconds/);
  });

  it('scriptedBooks().close and .resolve script the lifecycle: the header says version 2; a winner not of the market is an error', async () => {
    const { s, ending } = script();
    s.at(1_000).close(ending).at(2_000).resolve(ending, ending.yes);
    expect(s.header.version).toBe(2);
    const heard: string[] = [];
    await runStrategy(defineStrategy({ name: 'x', onLifecycle: ({ event }) => void heard.push(event.type) }), { books: s });
    expect(heard).toEqual(['MarketClosed', 'MarketResolved']);
    expect(() => s.resolve(ending, 'nope')).toThrow(/winner 'nope' is not one of the market's tokens/);
    expect(() => s.close('0xnot-a-market')).toThrow(/'0xnot-a-market' is not a market of this script/);
  });

  it('a script end date that is not epoch ms is an error naming the market', () => {
    expect(() => scriptedBooks().market({ slug: 'bad', endDate: -1 })).toThrow(TestingError);
    expect(() => scriptedBooks().market({ slug: 'bad', endDate: 1.5 })).toThrow(/market 'bad' endDate must be epoch milliseconds/);
  });
});
