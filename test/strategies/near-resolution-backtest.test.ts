import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStrategy, scriptedBooks, SCRIPT_START_MS } from 'clobot/testing';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';

const MODULE = 'strategies/near-resolution.ts';
const dir = mkdtempSync(join(tmpdir(), 'near-resolution-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A recording of four markets ending one after another, a book every second: in the last three
 * minutes before its end each favourite drifts from about 0.88 toward 0.97 with seeded noise, then
 * the market closes and resolves to it; the third market's favourite (its NO) collapses a minute
 * before the end and the YES wins.
 */
function recording() {
  const script = scriptedBooks();
  const ends = [240_000, 360_000, 480_000, 600_000];
  const markets = ends.map((end, i) => script.market({ slug: `ending-${i}`, endDate: SCRIPT_START_MS + end, takerFeeBps: i === 1 ? 100 : 0 }));
  let seed = 7;
  const rand = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  // the favourite's price per market and second (NO is the favourite of market 2)
  const favourite = (i: number, t: number): number => {
    const left = ends[i]! - t;
    if (left > 180_000) return 0.6 + 0.1 * rand();
    if (i === 2 && left < 60_000) return Math.max(0.2, 0.9 - (60_000 - left) / 10_000);
    return 0.88 + (0.09 * (180_000 - left)) / 180_000 + (rand() - 0.5) * 0.01;
  };
  for (let t = 0; t <= 602_000; t += 1_000) {
    script.at(t);
    markets.forEach((m, i) => {
      if (t >= ends[i]!) return;
      const p = Math.round(favourite(i, t) * 100) / 100;
      const yes = i === 2 ? 1 - p : p;
      script.book(m.yes, { bids: [[(yes - 0.01).toFixed(2), '200']], asks: [[yes.toFixed(2), '200']] });
      script.book(m.no, { bids: [[(1 - yes).toFixed(2), '200']], asks: [[(1 - yes + 0.01).toFixed(2), '200']] });
    });
    markets.forEach((m, i) => {
      if (t === ends[i]!) script.close(m);
      if (t === ends[i]! + 2_000) script.resolve(m, m.yes);
    });
  }
  return { script, markets };
}

describe('near-resolution backtest on a recording', () => {
  it('buys each favourite near its end, stops out of the collapse, settles the rest; text and binary the same; two runs the same summary.json', async () => {
    const { script, markets } = recording();
    const text = join(dir, 'near-end.jsonl');
    await script.write(text);
    const binary = join(dir, 'near-end.bin');
    await convertRecording(text, binary, 'binary');
    const params = { windowMs: 150_000, size: 20, maxPerMarket: 50, maxTotal: 120, stopPrice: 0.8 };
    const run = (path: string) => runStrategy(MODULE, { recording: path, latencyMs: 100, params });
    const first = await run(text);
    expect(first.faults).toEqual([]);
    const entries = first.orders.filter((o) => o.ref === 'nr-entry' && o.filled > 0);
    // every market's favourite bought, none of the other outcomes
    expect(new Set(entries.map((o) => o.tokenId))).toEqual(new Set([markets[0]!.yes, markets[1]!.yes, markets[2]!.no, markets[3]!.yes]));
    // the collapse sold under the stop; nothing else sold
    const sells = first.orders.filter((o) => o.side === 'SELL' && o.filled > 0);
    expect(sells.length).toBeGreaterThan(0);
    expect(sells.every((o) => o.tokenId === markets[2]!.no && o.ref === 'nr-stop' && o.price < 800_000)).toBe(true);
    // everything settled or sold by the end; the metrics say so
    expect(first.positions.every((p) => p.size === 0)).toBe(true);
    expect(first.summary.strategies[0]!.metrics).toMatchObject({ stopped: 1, won: 3 });
    const fromBinary = await run(binary);
    expect(fromBinary.orders).toEqual(first.orders);
    // the same summary but for the data file's name
    expect(serializeSummary(fromBinary.summary).replaceAll('near-end.bin', 'near-end.jsonl')).toBe(serializeSummary(first.summary));
    const again = await run(text);
    expect(serializeSummary(again.summary)).toBe(serializeSummary(first.summary));
  });
});
