import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { staleDataWarning } from '../../src/backtest/stale-data.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { EventInfo } from '../../src/core/types.ts';
import { familyStem, syntheticIds } from '../../src/data/import-markets.ts';
import { importQuotes } from '../../src/data/import-quotes.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';
import { defineStrategy } from '../../src/strategy/index.ts';
import { runStrategy } from '../../src/testing/index.ts';
import { tempDir } from './recording/helpers.ts';

/**
 * `clobot import` keeps a family of markets (one question, the outcomes' slugs differing in their
 * last part) as one event of the header, not neg-risk; and says how often the data updates a
 * market, which a backtest compares with risk.staleBookMs. On the real third-party quotes.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const QUOTES = '/work/shared/data/polymarket-top-of-book/quotes_dt=2026-07-10.parquet';
/** The four teams of one division: mutually exclusive outcomes, whose quoted YES asks sum to 0.35 at times in this data. */
const AFC_SOUTH = 'tec-nfl-afcsouth-2027-01-10-w';
/** "Returns to normal by Jul 15 / Jul 31 / Aug 31": nested dates, not exclusive outcomes; the YES asks sum to 0.6 or so, no arbitrage at all. */
const HORMUZ = 'stsc-hormuz-normal';
const EVENT_ARB = fileURLToPath(new URL('../../strategies/event-arb.ts', import.meta.url));

const tmp = tempDir();
afterAll(() => tmp.done());

/** Notes what ctx.events() and ctx.event() show on the first book. */
const eventWatcher = defineStrategy({
  name: 'event-watcher',
  init: () => ({ events: undefined as readonly EventInfo[] | undefined, outcomes: [] as string[], markets: [] as string[] }),
  onBook({ ctx, state }) {
    if (state.events !== undefined) return;
    state.events = ctx.events();
    state.markets = [...new Set(ctx.markets().map((m) => m.conditionId))];
    const first = state.events[0];
    if (first !== undefined) state.outcomes = (ctx.event(first.id)?.markets ?? []).map((m) => `${m.conditionId}:${m.outcome}`);
  },
});

describe('import: a family of markets is one event', () => {
  it('tells a family slug from a dated one', () => {
    expect(familyStem('aachc-bun-2027-05-22-relegation-bvb')).toBe('aachc-bun-2027-05-22-relegation');
    expect(familyStem(`${AFC_SOUTH}-hou`)).toBe(AFC_SOUTH);
    // the same question on another date is another game
    expect(familyStem('aec-mlb-mia-nym-2026-07-31')).toBeUndefined();
    expect(familyStem('nodash')).toBeUndefined();
  });

  it('writes the family as one event, not neg-risk, which a backtest of the import shows the strategy', async () => {
    const out = tmp.path('afc-south.jsonl');
    const result = await importQuotes({ input: QUOTES, out, selectSlug: (s) => s.startsWith(`${AFC_SOUTH}-`) });
    expect(result.markets).toBe(4);
    expect(result.families).toBe(1);
    const { header } = readRecordingSync(out);
    const ids = header.markets.map((m) => m.conditionId);
    expect(header.events).toEqual([
      {
        id: expect.stringMatching(/^import-[0-9a-f]{16}$/),
        slug: AFC_SOUTH,
        title: 'AFC South Division Winner',
        negRisk: false,
        augmented: false,
        marketConditionIds: header.markets.map((m) => m.slug).sort().map((s) => syntheticIds(s).conditionId),
      },
    ]);
    expect([...header.events![0]!.marketConditionIds].sort()).toEqual([...ids].sort());

    const run = await runStrategy(eventWatcher, { recording: out });
    const seen = run.strategyState as { events: EventInfo[]; outcomes: string[] };
    expect(seen.events).toEqual(header.events);
    // every outcome market of the family, YES and NO of each, in the event's order
    expect(seen.outcomes).toEqual(header.events![0]!.marketConditionIds.flatMap((c) => [`${c}:Yes`, `${c}:No`]));
  });

  it('data.markets.events selects an imported family by its slug', async () => {
    const out = tmp.path('two-families.jsonl');
    const result = await importQuotes({ input: QUOTES, out, selectSlug: (s) => s.startsWith(`${AFC_SOUTH}-`) || s.startsWith(`${HORMUZ}-`) });
    expect(result.families).toBe(2);
    const { header } = readRecordingSync(out);
    const afc = header.events!.find((e) => e.slug === AFC_SOUTH)!;
    const run = await runStrategy(eventWatcher, { recording: out, config: { data: { markets: { events: [AFC_SOUTH] } } } });
    const seen = run.strategyState as { events: EventInfo[]; markets: string[] };
    expect(seen.events).toEqual([afc]);
    expect([...seen.markets].sort()).toEqual([...afc.marketConditionIds].sort());
  });

  it('lists the markets of the family the import left out, and two imports give the same event id', async () => {
    const a = tmp.path('one-of-four.jsonl');
    await importQuotes({ input: QUOTES, out: a, selectSlug: (s) => s.startsWith(`${AFC_SOUTH}-`), limitMarkets: 1 });
    const b = tmp.path('all-four.clbr');
    await importQuotes({ input: QUOTES, out: b, selectSlug: (s) => s.startsWith(`${AFC_SOUTH}-`), form: 'binary' });
    const one = readRecordingSync(a).header;
    const all = readRecordingSync(b).header;
    expect(one.markets).toHaveLength(1);
    expect(one.events).toHaveLength(1);
    expect(one.events![0]!.marketConditionIds).toHaveLength(4);
    expect(one.events).toEqual(all.events);
  });

  it('event-arb never trades an imported family; the same data flagged neg-risk would bait it into a false arbitrage', async () => {
    const out = tmp.path('hormuz.jsonl');
    await importQuotes({ input: QUOTES, out, selectSlug: (s) => s.startsWith(`${HORMUZ}-`) });
    // books of sampled quotes are minutes old, their spreads wide: let event-arb trade on them (small sets), so only the flag differs
    const params = { maxBookAgeMs: 600_000, maxSets: 5 };
    const run = await runStrategy(EVENT_ARB, { recording: out, params });
    expect(run.faults).toEqual([]);
    expect(run.intents).toHaveLength(0);

    // control: the same recording with the family claimed neg-risk (what the import must not do)
    const { header, events } = readRecordingSync(out);
    const flagged = tmp.path('hormuz-negrisk.jsonl');
    const w = createRecordingWriter(flagged, { ...header, events: header.events!.map((e) => ({ ...e, negRisk: true })) });
    for (const e of events) w.write(e);
    await w.close();
    const baited = await runStrategy(EVENT_ARB, { recording: flagged, params });
    expect(baited.intents.length).toBeGreaterThan(0);
  });
});

describe('import: the update interval against risk.staleBookMs', () => {
  it("writes the data's median update interval, and a backtest of it warns once, naming it and the config's value", async () => {
    const out = tmp.path('stale.jsonl');
    const result = await importQuotes({ input: QUOTES, out, selectSlug: (s) => s.startsWith(`${AFC_SOUTH}-`) });
    // the source sweeps every market about every 2 minutes
    expect(result.medianUpdateMs).toBeGreaterThan(100_000);
    expect(result.medianUpdateMs).toBeLessThan(150_000);
    const { header } = readRecordingSync(out);
    expect(header.medianUpdateMs).toBe(result.medianUpdateMs);

    const line = staleDataWarning(header, { checks: ['staleBook'], staleBookMs: 10_000 });
    expect(line).toContain(`every ${Math.round(result.medianUpdateMs! / 1000)} s (median)`);
    expect(line).toContain('risk.staleBookMs 10 s');
    // no warning when the limit is longer, when the check is off, or for data without an interval (a venue's recording)
    expect(staleDataWarning(header, { checks: ['staleBook'], staleBookMs: 300_000 })).toBeUndefined();
    expect(staleDataWarning(header, { checks: ['maxOrderNotional'] as never, staleBookMs: 10_000 })).toBeUndefined();
    expect(staleDataWarning({ source: 'http://venue', medianUpdateMs: undefined }, { checks: ['staleBook'], staleBookMs: 10_000 })).toBeUndefined();

    const config = tmp.path('stale.yaml');
    writeFileSync(config, ['mode: backtest', 'data: { markets: { filter: { maxCount: 10 } } }', `strategies: [{ id: arb, module: '${EVENT_ARB}' }]`, ''].join('\n'));
    expect(loadConfig(config, {}).risk.staleBookMs).toBe(10_000);
    const r = spawnSync(process.execPath, ['bin/clobot.mjs', 'backtest', config, '--data', out, '--out', tmp.path('bt'), '--no-progress'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const warned = r.stderr.split('\n').filter((l) => l.includes('risk.staleBookMs'));
    expect(warned).toEqual([`warning: ${line}`]);
  });
});
