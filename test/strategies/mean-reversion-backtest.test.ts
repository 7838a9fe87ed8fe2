import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStrategy, scriptedBooks } from 'clobot/testing';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';

const MODULE = 'strategies/mean-reversion.ts';
const dir = mkdtempSync(join(tmpdir(), 'mean-reversion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A recording of two markets over 20 minutes, a book a second: each YES mid an Ornstein-Uhlenbeck
 * walk (pulled back to its mean, seeded), with a jump down every few minutes that half reverts.
 */
function recording() {
  const script = scriptedBooks();
  const markets = [script.market({ slug: 'rain' }), script.market({ slug: 'snow', takerFeeBps: 100 })];
  let seed = 42;
  const rand = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const mids = [0.5, 0.35];
  for (let s = 0; s < 1_200; s++) {
    script.at(s * 1_000);
    markets.forEach((m, i) => {
      const mean = i === 0 ? 0.5 : 0.35;
      let mid = mids[i]! + 0.15 * (mean - mids[i]!) + (rand() - 0.5) * 0.02;
      if (s % 240 === 120 + i * 30) mid -= 0.06;
      mid = Math.min(0.85, Math.max(0.15, mid));
      mids[i] = mid;
      const bid = (Math.round(mid * 100) / 100 - 0.01).toFixed(2);
      const ask = (Math.round(mid * 100) / 100 + 0.01).toFixed(2);
      script.book(m.yes, { bids: [[bid, '300']], asks: [[ask, '300']] });
      script.book(m.no, { bids: [[(1 - Number(ask)).toFixed(2), '300']], asks: [[(1 - Number(bid)).toFixed(2), '300']] });
    });
  }
  return script;
}

describe('mean-reversion backtest on a recording', () => {
  it('trades the jumps back; text and binary give the same orders; two runs the same summary.json', async () => {
    const text = join(dir, 'mr.jsonl');
    await recording().write(text);
    const binary = join(dir, 'mr.bin');
    await convertRecording(text, binary, 'binary');
    const params = { window: 30, sampleMs: 2_000, entryZ: 2, exitZ: 0, stopLoss: 0.05, maxHoldMs: 120_000, size: 10, cooldownMs: 10_000 };
    const run = (path: string) => runStrategy(MODULE, { recording: path, latencyMs: 100, params });
    const first = await run(text);
    expect(first.faults).toEqual([]);
    const entries = first.orders.filter((o) => o.ref === 'mr-entry');
    const exits = first.orders.filter((o) => o.ref?.startsWith('mr-exit-'));
    expect(entries.length).toBeGreaterThan(0);
    // every entry that filled was closed by the end (reverted, stopped or timed out)
    expect(first.positions.every((p) => p.size === 0)).toBe(true);
    expect(exits.length).toBeGreaterThan(0);
    const fromBinary = await run(binary);
    expect(fromBinary.orders).toEqual(first.orders);
    const again = await run(text);
    expect(serializeSummary(again.summary)).toBe(serializeSummary(first.summary));
  });
});
