import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStrategy, scriptedBooks, type ScriptedMarket } from 'clobot/testing';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';

const MODULE = 'strategies/event-arb.ts';
const dir = mkdtempSync(join(tmpdir(), 'event-arb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A recording of two neg-risk events of three outcomes: `election` (listed outcomes only) and
 * `weather` (augmented: an unlisted "Other"). Both are offered below 1 at times; at 0 s the
 * second election outcome's asks vanish 50 ms after they were shown (a partial basket), at 20 s
 * the set is cheap again and stays.
 */
function recording() {
  const script = scriptedBooks();
  const outcomes = (slug: string, augmented: boolean): ScriptedMarket[] =>
    [0, 1, 2].map((i) => script.market({ slug: `${slug}-${i}`, event: { slug, negRisk: true, augmented }, takerFeeBps: i === 0 ? 100 : 0 }));
  const election = outcomes('election', false);
  const weather = outcomes('weather', true);
  const show = (at: number, markets: readonly ScriptedMarket[], asks: readonly (readonly [string, string])[]) => {
    script.at(at);
    markets.forEach((m, i) => {
      const [ask, size] = asks[i]!;
      const bid = (Number(ask) - 0.01).toFixed(2);
      script.book(m.yes, { bids: [[bid, '300']], asks: [[ask, size], [(Number(ask) + 0.05).toFixed(2), '500']] });
      script.book(m.no, { bids: [[(1 - Number(ask)).toFixed(2), size]], asks: [[(1 - Number(bid)).toFixed(2), '300']] });
    });
  };
  show(0, weather, [['0.20', '100'], ['0.30', '100'], ['0.25', '100']]);
  show(0, election, [['0.30', '40'], ['0.25', '30'], ['0.40', '100']]);
  script.at(50).book(election[1]!.yes, { bids: [['0.24', '300']], asks: [['0.45', '500']] });
  // fair in between (each book of a show arrives in turn: no state half way is cheap either)
  show(10_000, election, [['0.36', '40'], ['0.36', '30'], ['0.45', '100']]);
  show(20_000, election, [['0.31', '40'], ['0.26', '30'], ['0.40', '100']]);
  show(40_000, election, [['0.36', '40'], ['0.36', '30'], ['0.45', '100']]);
  show(60_000, weather, [['0.20', '100'], ['0.30', '100'], ['0.25', '100']]);
  return { script, election, weather };
}

describe('event-arb backtest on a recording', () => {
  it('unwinds the partial basket within its cap, completes the next, never trades the augmented event; text and binary give the same basket events; two runs the same summary.json', async () => {
    const { script, weather } = recording();
    const text = join(dir, 'arb.jsonl');
    await script.write(text);
    const binary = join(dir, 'arb.bin');
    await convertRecording(text, binary, 'binary');
    const params = { maxSets: 100, eventCap: 500, buyNoSets: false, exitAt: 0, cooldownMs: 1_000 };
    const run = (recordingPath: string) => runStrategy(MODULE, { recording: recordingPath, latencyMs: 100, params });

    const first = await run(text);
    expect(first.faults).toEqual([]);
    expect(first.baskets.map((b) => b.type)).toEqual(['BasketUnwound', 'BasketCompleted']);
    const unwound = first.baskets[0]!;
    if (unwound.type !== 'BasketUnwound') throw new Error('not unwound');
    expect(unwound.legs.map((l) => l.filled > 0)).toEqual([true, false, true]);
    expect(unwound.flat).toBe(true);
    expect(unwound.loss).toBeGreaterThan(0);
    expect(unwound.loss).toBeLessThanOrEqual(unwound.maxUnwindLoss);
    // the augmented event's outcomes were never ordered
    const weatherTokens = new Set(weather.flatMap((m) => [m.yes, m.no]));
    expect(first.orders.some((o) => weatherTokens.has(o.tokenId))).toBe(false);
    // held: 40 complete sets (as deep as the edge goes), nothing naked
    expect(first.baskets[1]!.legs.map((l) => l.filled)).toEqual([40_000_000, 40_000_000, 40_000_000]);
    expect(first.positions.filter((p) => p.size > 0).map((p) => p.size)).toEqual([40_000_000, 40_000_000, 40_000_000]);

    const fromBinary = await run(binary);
    expect(fromBinary.baskets).toEqual(first.baskets);
    const again = await run(text);
    expect(serializeSummary(again.summary)).toBe(serializeSummary(first.summary));
  });
});
