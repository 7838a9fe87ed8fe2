import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { expandDataPaths } from '../../src/backtest/data-paths.ts';
import { mergeData, openDataSet, type DataSet } from '../../src/backtest/data-set.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { RecordingHeader } from '../../src/data/recording/format.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { bandQuoterYaml, TempDir } from './helpers.ts';

/** `--data a b`: several recordings replayed as one stream (src/backtest/data-set.ts). */

const tmp = new TempDir();
afterAll(() => tmp.remove());

const OPTIONS = { seed: 7, markets: 3, depth: 5, events: 3_000, meanGapMs: 300 };
const FULL = syntheticHeader(OPTIONS);
const [M1, M2, M3] = FULL.markets;
const M3_TOKENS = new Set(M3!.tokens.map((t) => t.tokenId));

const CONFIG = bandQuoterYaml('data-set', undefined, 3);

function touchesM3(e: MarketEvent): boolean {
  return (e.type === 'book' && M3_TOKENS.has(e.book.tokenId)) || (e.type === 'trade' && M3_TOKENS.has(e.tokenId));
}

/**
 * One recording's events: markets 1 and 2 from the start; market 3 joins (a `market` event) at
 * `joinAt`, and its events come after that.
 */
function recordedEvents(joinAt: number): MarketEvent[] {
  const out: MarketEvent[] = [];
  let joined = false;
  for (const e of syntheticEvents(OPTIONS)) {
    if (!joined && e.tsInit >= joinAt) {
      out.push({ type: 'marketAdded', market: M3!, tsEvent: e.tsInit, tsInit: e.tsInit });
      joined = true;
    }
    if (!joined && touchesM3(e)) continue;
    out.push(e);
  }
  return out;
}

async function write(path: string, header: RecordingHeader, events: readonly MarketEvent[], form: 'text' | 'binary' = 'text'): Promise<string> {
  const writer = createRecordingWriter(path, header, { form });
  for (const e of events) writer.write(e);
  await writer.close();
  return path;
}

async function all(data: DataSet | Awaited<ReturnType<typeof openBacktestData>>): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const batch of data.batches()) out.push(...batch);
  return out;
}

function config() {
  const path = tmp.write('data-set.yaml', CONFIG);
  return parseConfig(CONFIG, path, {}, { cwd: tmp.dir });
}

/** What must not change when a recording is cut in files: every fill, the curve and the figures. */
function outcome(r: Awaited<ReturnType<typeof runBacktest>>) {
  return { fills: r.fills, curve: r.curve, metrics: r.summary.metrics, orders: r.summary.orders, markets: r.summary.markets, strategies: r.summary.strategies };
}

describe('several data files as one run', async () => {
  const events = recordedEvents(FULL.createdAt + 300_000);
  const header12: RecordingHeader = { ...FULL, markets: [M1!, M2!] };
  const single = await write(tmp.path('whole.jsonl'), header12, events);
  const whole = await runBacktest({ config: config(), data: await openBacktestData(single) });

  it('a recording split in two (text and binary) gives the same events, fills, curve and figures as the whole', async () => {
    expect(whole.fills.length).toBeGreaterThan(10);
    expect(whole.summary.markets.length).toBe(3);
    // split after market 3 joined: the second file's header lists it, as a recorder restarted then would
    const cut = events[Math.floor(events.length * 0.6)]!.tsInit;
    const first = await write(tmp.path('day1.jsonl.gz'), header12, events.filter((e) => e.tsInit < cut));
    const second = await write(tmp.path('day2.bin'), { ...FULL, createdAt: cut }, events.filter((e) => e.tsInit >= cut), 'binary');
    for (const order of [
      [first, second],
      [second, first],
    ]) {
      const data = await openDataSet(order);
      expect(data.header.markets.map((m) => m.conditionId)).toEqual([M1!.conditionId, M2!.conditionId]);
      expect(await all(data)).toEqual(events);
      const split = await runBacktest({ config: config(), data });
      expect(outcome(split)).toEqual(outcome(whole));
      expect(split.summary.data.files).toEqual(order.map((p) => p.split('/').pop()));
      expect(split.summary.data.file).toBe(`${order[0]!.split('/').pop()} + ${order[1]!.split('/').pop()}`);
    }
  });

  it('a market only a later file lists joins when that file begins, as a market event', async () => {
    // day 1 without market 3 at all; day 2's header lists it from its start
    const cut = FULL.createdAt + 300_000;
    const before = events.filter((e) => e.tsInit < cut);
    const after = events.filter((e) => e.tsInit >= cut && e.type !== 'marketAdded');
    const first = await write(tmp.path('a.jsonl'), header12, before);
    const second = await write(tmp.path('b.jsonl'), { ...FULL, markets: [M3!, M1!, M2!], createdAt: cut }, after);
    const merged = await all(await openDataSet([first, second]));
    // the same stream as the whole recording's (there market 3 joins at the first event after the cut)
    expect(merged).toEqual(events);
    const split = await runBacktest({ config: config(), data: await openDataSet([first, second]) });
    expect(outcome(split)).toEqual(outcome(whole));
  });

  it('files that overlap in time interleave by tsInit, ties to the file named first, each market joining once', async () => {
    const m1 = new Set(M1!.tokens.map((t) => t.tokenId));
    const ofM1 = (e: MarketEvent) => (e.type === 'book' && m1.has(e.book.tokenId)) || (e.type === 'trade' && m1.has(e.tokenId));
    // market 1's file starts first (its header is the run's), the other file lists all three
    const start = [...syntheticEvents(OPTIONS)].find(ofM1)!.tsInit;
    const base = [...syntheticEvents(OPTIONS)].filter((e) => e.tsInit > start || ofM1(e));
    const a = await write(tmp.path('m1.jsonl'), { ...FULL, markets: [M1!] }, base.filter(ofM1));
    const b = await write(tmp.path('rest.bin'), { ...FULL, markets: [M2!, M3!, M1!] }, base.filter((e) => !ofM1(e)), 'binary');
    const merged = await all(await openDataSet([a, b]));
    const joins = merged.filter((e) => e.type === 'marketAdded');
    expect(joins.map((e) => e.type === 'marketAdded' && e.market.conditionId)).toEqual([M2!.conditionId, M3!.conditionId]);
    const rest = merged.filter((e) => e.type !== 'marketAdded');
    expect(rest.length).toBe(base.length);
    for (let i = 1; i < rest.length; i++) expect(rest[i]!.tsInit).toBeGreaterThanOrEqual(rest[i - 1]!.tsInit);
    // the merge is stable: within one tsInit, market 1's file (named first) comes first
    const key = (e: MarketEvent) => `${e.tsInit}:${ofM1(e) ? 0 : 1}`;
    expect(rest.map(key)).toEqual([...rest].sort((x, y) => x.tsInit - y.tsInit || Number(!ofM1(x)) - Number(!ofM1(y))).map(key));
  });

  it('counts the bytes of every file to the total, and says which file had no events', async () => {
    const cut = events[Math.floor(events.length / 2)]!.tsInit;
    const first = await write(tmp.path('p1.jsonl'), header12, events.filter((e) => e.tsInit < cut));
    const second = await write(tmp.path('p2.jsonl'), FULL, events.filter((e) => e.tsInit >= cut));
    const empty = await write(tmp.path('p3.jsonl'), header12, []);
    const data = await mergeData([await openBacktestData(first), await openBacktestData(second), await openBacktestData(empty)]);
    let seen = 0;
    for await (const _ of data.batches((b) => (seen = b))) void _;
    expect(seen).toBe(data.bytes - data.files[2]!.bytes);
    expect(data.warnings).toEqual(['p3.jsonl: no events']);
    expect(data.name).toBe('3 files (p1.jsonl … p3.jsonl)');
  });

  it('expands globs in name order, reads a file named twice once, and names what matched nothing', async () => {
    const dir = tmp.path('days');
    const names = ['2026-11-02.jsonl', '2026-11-01.jsonl', '2026-11-03.bin'];
    for (const n of names) await write(join(dir, n), header12, []);
    expect(expandDataPaths([join(dir, '2026-11-0[12].jsonl'), join(dir, '*')])).toEqual([join(dir, '2026-11-01.jsonl'), join(dir, '2026-11-02.jsonl'), join(dir, '2026-11-03.bin')]);
    expect(() => expandDataPaths([join(dir, '*.gz')])).toThrow(`--data: '${join(dir, '*.gz')}' matches no file`);
    expect(() => expandDataPaths([join(dir, 'nope.jsonl')])).toThrow(`--data: ${join(dir, 'nope.jsonl')}: cannot read data file (no such file: ENOENT)`);
    expect(() => expandDataPaths([dir])).toThrow(`--data: ${dir} is a directory`);
  });
});
