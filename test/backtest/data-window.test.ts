import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { parseWindowTime, windowBatches } from '../../src/backtest/data-window.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { ConfigError } from '../../src/core/errors.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import { readTime } from '../../src/config/window-time.ts';
import { backtestConfig, TempDir } from './helpers.ts';

const tmp = new TempDir();
afterAll(() => tmp.remove());

async function collect(source: AsyncIterable<readonly MarketEvent[]>): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const b of source) out.push(...b);
  return out;
}
async function* batchesOf(events: readonly MarketEvent[], size: number): AsyncGenerator<readonly MarketEvent[]> {
  for (let i = 0; i < events.length; i += size) yield await Promise.resolve(events.slice(i, i + size));
}

const options = { seed: 3, markets: 2, depth: 6, events: 1_500, meanGapMs: 400 };
const events = [...syntheticEvents(options)];
const header = syntheticHeader(options);
const t = (i: number) => events[i]!.tsInit;

describe('the data window (backtest.from / backtest.to, --from / --to)', () => {
  it('replays [from, to): nothing before from, nothing at or after to, whatever the batches', async () => {
    const from = t(300);
    const to = t(900);
    const inside = events.filter((e) => e.tsInit >= from && e.tsInit < to);
    for (const size of [1, 7, 4096]) {
      expect(await collect(windowBatches(batchesOf(events, size), { from, to }))).toEqual(inside);
    }
    expect(await collect(windowBatches(batchesOf(events, 50), { from: undefined, to }))).toEqual(events.filter((e) => e.tsInit < to));
    expect(await collect(windowBatches(batchesOf(events, 50), { from, to: undefined }))).toEqual(events.filter((e) => e.tsInit >= from));
  });

  it('applies the market structure before from (a market added, a tick size) at the window\'s first event', async () => {
    const added: MarketEvent = { type: 'marketAdded', market: { conditionId: '0x01' } as never, tsEvent: t(10), tsInit: t(10) };
    const tick: MarketEvent = { type: 'tickSize', tokenId: 'x', tickSize: 1_000, tsEvent: t(20), tsInit: t(20) };
    const all = [...events.slice(0, 10), added, ...events.slice(10, 20), tick, ...events.slice(20)];
    const from = t(400);
    const out = await collect(windowBatches(batchesOf(all, 64), { from, to: undefined }));
    expect(out.slice(0, 2)).toEqual([
      { ...added, tsInit: from },
      { ...tick, tsInit: from },
    ]);
    expect(out.slice(2)).toEqual(events.filter((e) => e.tsInit >= from));
  });

  it('a windowed backtest replays only the window; the whole window is the run without one', async () => {
    const config = backtestConfig(
      tmp,
      `mode: backtest
name: window
data: { markets: { filter: { maxCount: 2 } } }
strategies:
  - { id: bq, module: ${join(process.cwd(), 'strategies/02-band-quoter.ts')}, params: { size: 10, halfSpreadTicks: 1, requoteTicks: 1 } }
backtest: { latencyMs: 25, equityIntervalMs: 10000 }
`,
    );
    const data = { name: 'rec.jsonl', header, events: () => events };
    const whole = await runBacktest({ config, data });
    const open = await runBacktest({ config, data, window: { from: t(0), to: t(events.length - 1) + 1 } });
    expect(open.summary).toEqual(whole.summary);
    const part = await runBacktest({ config, data, window: { from: t(500), to: t(1000) } });
    expect(part.summary.data.events).toBe(events.filter((e) => e.tsInit >= t(500) && e.tsInit < t(1000)).length);
    expect(part.summary.data.from).toBe(new Date(t(500)).toISOString());
    expect(Date.parse(part.summary.data.to!)).toBeLessThan(t(1000));
    expect(part.warnings).toEqual([]);
    const after = t(events.length - 1) + 1;
    const none = await runBacktest({ config, data, window: { from: after, to: undefined } });
    expect(none.summary.data.events).toBe(0);
    expect(none.warnings).toEqual([`rec.jsonl: no events in the window [${new Date(after).toISOString()}, …)`]);
  });

  it('reads times as ISO 8601 with a zone, a date or epoch ms; the config and flags name what is wrong', () => {
    expect(readTime('2026-11-28T06:00:00Z')).toBe(Date.UTC(2026, 10, 28, 6));
    expect(readTime('2026-11-28T07:00:00.250+01:00')).toBe(Date.UTC(2026, 10, 28, 6, 0, 0, 250));
    expect(readTime('2026-11-28')).toBe(Date.UTC(2026, 10, 28));
    expect(readTime('1795845600000')).toBe(1_795_845_600_000);
    expect(readTime(1_795_845_600_000)).toBe(1_795_845_600_000);
    for (const bad of ['2026-11-28T06:00:00', 'yesterday', '2026-13-01', '', -5, 1.5]) expect(readTime(bad)).toBeUndefined();
    expect(() => parseWindowTime('noon', '--from')).toThrow(new ConfigError("--from: must be an ISO 8601 time with a zone (2026-11-28T06:00:00Z), a date (2026-11-28) or epoch milliseconds, was 'noon'"));
    const yaml = (bt: string) => `mode: backtest\nname: w\ndata: { markets: { filter: { maxCount: 1 } } }\nstrategies:\n  - { id: s, module: x.ts }\nbacktest: ${bt}\n`;
    expect(backtestConfig(tmp, yaml('{ from: "2026-11-28T06:00:00Z", to: 2026-11-29 }')).backtest).toMatchObject({ from: Date.UTC(2026, 10, 28, 6), to: Date.UTC(2026, 10, 29) });
    expect(() => backtestConfig(tmp, yaml('{ from: "noon" }'))).toThrow(/^backtest\.from \(.*bt\.yaml:6\): must be an ISO 8601 time with a zone/);
    expect(() => backtestConfig(tmp, yaml('{ from: 2026-11-29, to: 2026-11-28 }'))).toThrow(/^backtest\.to \(.*bt\.yaml:6\): must be after backtest\.from/);
  });
});
