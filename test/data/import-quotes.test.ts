import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importQuotes, SYNTHETIC_SIZE, syntheticIds } from '../../src/data/import-quotes.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import { tempDir } from './recording/helpers.ts';

/** `clobot import` on the real third-party quotes (a few markets, so it stays fast). */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const QUOTES = '/work/shared/data/polymarket-top-of-book/quotes_dt=2026-07-10.parquet';
const FIRST_SLUG = 'aachc-fifa-wc-2026-07-19-esp-gs-fwcalegri';

const tmp = tempDir();
afterAll(() => tmp.done());

describe('importQuotes', () => {
  it('turns the first 5 markets of a real file into a replayable recording with sane books', async () => {
    const out = tmp.path('q5.jsonl.gz');
    const result = await importQuotes({ input: QUOTES, out, limitMarkets: 5 });
    expect(result.markets).toBe(5);
    expect(result.rowGroupsRead).toBeLessThan(result.rowGroupsTotal); // statistics skip the rest
    expect(result.quotes).toBeGreaterThan(100);
    expect(result.events).toBe(2 * result.quotes);

    const { header, events } = readRecordingSync(out);
    expect(header.source).toBe('import:quotes_dt=2026-07-10.parquet');
    expect(header.markets).toHaveLength(5);
    expect(header.markets[0]!.slug).toBe(FIRST_SLUG);
    expect(header.markets[0]!.question).toBe('Spain: Goal Scorers'); // from markets.parquet beside the file
    for (const m of header.markets) {
      const ids = syntheticIds(m.slug);
      expect(m.conditionId).toBe(ids.conditionId);
      expect(m.tokens).toEqual([
        { tokenId: ids.yesTokenId, outcome: 'Yes' },
        { tokenId: ids.noTokenId, outcome: 'No' },
      ]);
      expect(m.tickSize).toBe('0.01');
    }
    expect(events).toHaveLength(result.events);
    expect(header.createdAt).toBe(events[0]!.tsInit);

    // the first quote of the first market, as in the file: bid 0.02, ask 0.51 at 20:25:46 UTC
    const first = events.find((e) => e.type === 'book' && e.book.tokenId === header.markets[0]!.tokens[0]!.tokenId);
    expect(first).toMatchObject({
      tsEvent: Date.parse('2026-07-10T20:25:46Z'),
      tsInit: Date.parse('2026-07-10T20:25:46Z'),
      book: { bids: [{ price: 20_000, size: SYNTHETIC_SIZE }], asks: [{ price: 510_000, size: SYNTHETIC_SIZE }], tickSize: 10_000, minOrderSize: 5_000_000 },
    });

    let prev = 0;
    const yesOf = new Map(header.markets.map((m) => [m.tokens[0]!.tokenId, m.tokens[1]!.tokenId]));
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      expect(e.type).toBe('book');
      if (e.type !== 'book') continue;
      expect(e.tsInit).toBeGreaterThanOrEqual(prev);
      prev = e.tsInit;
      const { bids, asks } = e.book;
      expect(bids.length).toBeLessThanOrEqual(1);
      expect(asks.length).toBeLessThanOrEqual(1);
      for (const l of [...bids, ...asks]) {
        expect(l.price).toBeGreaterThan(0);
        expect(l.price).toBeLessThan(1_000_000);
        expect(l.price % e.book.tickSize!).toBe(0);
        expect(l.size).toBe(SYNTHETIC_SIZE);
      }
      if (bids[0] && asks[0]) expect(bids[0].price).toBeLessThan(asks[0].price);
      // YES then its NO mirror: NO bid = 1 - YES ask, NO ask = 1 - YES bid
      const no = yesOf.get(e.book.tokenId);
      if (no !== undefined) {
        const mirror = events[i + 1] as Extract<MarketEvent, { type: 'book' }>;
        expect(mirror.book.tokenId).toBe(no);
        expect(mirror.tsInit).toBe(e.tsInit);
        expect(mirror.book.bids.map((l) => l.price)).toEqual(asks.map((l) => 1_000_000 - l.price));
        expect(mirror.book.asks.map((l) => l.price)).toEqual(bids.map((l) => 1_000_000 - l.price));
      }
    }
  });

  it('writes the same events in the binary form', async () => {
    const text = await importQuotes({ input: QUOTES, out: tmp.path('q2.jsonl'), limitMarkets: 2, marketsFile: null });
    const bin = await importQuotes({ input: QUOTES, out: tmp.path('q2.clbr'), limitMarkets: 2, marketsFile: null, form: 'binary' });
    expect(bin.events).toBe(text.events);
    const a = readRecordingSync(tmp.path('q2.jsonl'));
    const b = readRecordingSync(tmp.path('q2.clbr'));
    expect(b.form).toBe('binary');
    expect(b.header).toEqual(a.header);
    expect(b.events).toEqual(a.events);
    expect(a.header.markets[0]!.question).toBe(FIRST_SLUG); // no markets file: the slug
  });

  it('derives the synthetic ids from the slug alone (stable across runs)', () => {
    const ids = syntheticIds(FIRST_SLUG);
    expect(ids.conditionId).toBe('0x9f3424b154c8177a07733f389a4219a4aa1811c6d08ae550b9a1ca350e3308cb');
    expect(ids.yesTokenId).toBe('68827287835252103623251587359527584154377048136884789664069871996711057261157');
    expect(syntheticIds(FIRST_SLUG)).toEqual(ids);
    expect(syntheticIds(`${FIRST_SLUG}x`).conditionId).not.toBe(ids.conditionId);
  });
});

describe('clobot import', () => {
  const run = (args: string[]) => spawnSync(process.execPath, ['bin/clobot.mjs', 'import', ...args], { cwd: ROOT, encoding: 'utf8' });

  it('--slugs keeps exactly the markets named; --match keeps the slugs the pattern accepts, then --limit-markets of them', () => {
    const one = tmp.path('slugs.jsonl.gz');
    const r1 = run([QUOTES, '--out', one, '--slugs', FIRST_SLUG]);
    expect(r1.status, r1.stderr).toBe(0);
    expect(readRecordingSync(one).header.markets.map((m) => m.slug)).toEqual([FIRST_SLUG]);
    const two = tmp.path('match.jsonl.gz');
    const r2 = run([QUOTES, '--out', two, '--match', '^[a-m]', '--limit-markets', '2']);
    expect(r2.status, r2.stderr).toBe(0);
    const slugs = readRecordingSync(two).header.markets.map((m) => m.slug);
    expect(slugs).toHaveLength(2);
    for (const slug of slugs) expect(slug).toMatch(/^[a-m]/);
    // the output says the depth is made up where the source has only the top of the book
    expect(r2.stdout + r2.stderr).toMatch(/synthes/i);
  });

  it('imports Parquet to the binary form, which converts back to text, each readable', async () => {
    const bin = tmp.path('cli.clbr.gz');
    const r = run([QUOTES, '--out', bin, '--limit-markets', '3', '--to-binary']);
    expect(r.stderr).not.toMatch(/clobot:/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*cli\.clbr\.gz \(binary, [\d.]+ KiB\)/);
    expect(r.stdout).toMatch(/^markets: 3 \(tick 3 at 0\.01\)$/m);
    expect(r.stdout).toMatch(/^skipped: 0 crossed or locked \(ask <= bid\), 0 invalid$/m);
    const text = tmp.path('cli.jsonl');
    await convertRecording(bin, text, 'text');
    expect(readRecordingSync(text).events).toEqual(readRecordingSync(bin).events);
    expect(readRecordingSync(text).header.markets).toHaveLength(3);
  });

  it('refuses a missing input with one line and exit code 2', () => {
    const r = run([tmp.path('nope.parquet'), '--out', tmp.path('x.jsonl')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`clobot: ${tmp.path('nope.parquet')}: cannot read (no such file: ENOENT)`]);
  });
});
