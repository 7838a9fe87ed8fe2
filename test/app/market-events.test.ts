import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/app/recorder.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { until } from './run-helpers.ts';
import { eventSightings } from './strategies/event-watcher.ts';

/**
 * What the venue knows about events reaches a strategy in a paper run against the sandbox, is
 * recorded in the recording's header and reaches the same strategy in a backtest of it; the
 * market's own matching delay (3 s on the sandbox's sports markets) holds a marketable paper
 * order as long as the venue would.
 */

const WATCHER = fileURLToPath(new URL('./strategies/event-watcher.ts', import.meta.url));
const TEST_PRIVATE_KEY = '0x' + '2d'.repeat(32);

let sandbox: RunningSandbox;
let dir: string;
/** The seed-1 world's neg-risk event of 9 sports markets (each with a 3 s delay). */
let eventSlug: string;
let eventMarkets: string[];
/** Each of its markets' end date as the venue's market listing (`endDate`) gives it, epoch ms. */
let endDates: Map<string, number>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 1, markets: 12, events: 4, flow: { enabled: true, intensity: 4 } });
  dir = mkdtempSync(join(tmpdir(), 'clobot-market-events-'));
  const events = (await (await fetch(`${sandbox.url}/events?limit=50`)).json()) as { slug: string; markets: { conditionId: string; endDate: string }[]; negRiskAugmented?: boolean; enableNegRisk?: boolean }[];
  const negRisk = events.find((e) => e.enableNegRisk === true && e.markets.length > 2);
  if (negRisk === undefined) throw new Error('the seed-1 sandbox has no neg-risk event');
  eventSlug = negRisk.slug;
  eventMarkets = negRisk.markets.map((m) => m.conditionId);
  endDates = new Map(negRisk.markets.map((m) => [m.conditionId, Date.parse(m.endDate)]));
});

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function writeConfig(tag: string, take: boolean): string {
  const path = join(dir, `${tag}.yaml`);
  writeFileSync(
    path,
    [
      'mode: paper',
      `venue: { baseUrl: '${sandbox.url}' }`,
      `data: { transport: ws, markets: { events: [${eventSlug}] } }`,
      `strategies: [{ id: watch, module: '${WATCHER}', params: { tag: ${tag}, take: ${take} } }]`,
      'backtest: { entryLatencyMs: 0, responseLatencyMs: 0 }',
      `risk: { haltFile: '${join(dir, 'HALT')}', maxOrderNotional: 5000, maxPositionPerToken: 5000, maxPositionPerMarket: 5000, maxGrossExposure: 5000, maxNegRiskEventExposure: 5000 }`,
      'logging: { level: silent }',
      '',
    ].join('\n'),
  );
  return path;
}


describe('events from the venue', () => {
  it('a paper run selected by event sees every market of it with its flags and delay, waits out the delay to fill, and a backtest of its recording sees the same', async () => {
    const tag = 'paper';
    const config = loadConfig(writeConfig(tag, true), { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY });
    const logger = createLogger({ level: 'silent' });
    const out = join(dir, 'events.jsonl');
    const recorder = await startRecorder({ config, out, logger });
    const session = await startRunSession({ config, logger });
    const seen = eventSightings(tag);
    try {
      await until('a fill of the delayed order and a trade print', () => seen.filledAt !== undefined && seen.trades > 0);
    } finally {
      await recorder.stop();
      await session.stop();
    }
    // data.markets.events took every market of the event, both outcomes each
    expect(new Set(session.tokens.map((t) => t.conditionId))).toEqual(new Set(eventMarkets));
    expect(seen.events).toHaveLength(1);
    const event = seen.events[0]!;
    expect(event).toMatchObject({ slug: eventSlug, negRisk: true, augmented: false, marketConditionIds: eventMarkets });
    expect(seen.eventTokens.get(event.id)).toHaveLength(eventMarkets.length * 2);
    // each market's end date: the trading listing's end_date_iso, the same instant as the market listing's endDate
    for (const m of seen.markets.values()) expect(m).toEqual({ event, secondsDelay: 3, endDate: endDates.get(m.conditionId), conditionId: m.conditionId });
    expect([...seen.markets.values()].every((m) => Number.isSafeInteger(m.endDate))).toBe(true);
    // the paper venue held the marketable order for the market's 3 s before it met the book
    expect(seen.filledAt! - seen.sentAt!).toBeGreaterThanOrEqual(3_000);

    // the recording's header carries the event and the delays; a backtest of it sees them too
    const data = await openBacktestData(out);
    expect(data.header.events).toEqual([event]);
    expect(data.header.markets.every((m) => m.secondsDelay === 3)).toBe(true);
    expect(data.header.markets.map((m) => m.endDate)).toEqual(data.header.markets.map((m) => endDates.get(m.conditionId)));
    await runBacktest({ config: { ...config, mode: 'backtest' } as never, data, overrides: [{ strategyId: 'watch', path: ['tag'], value: 'replay' }] });
    const replay = eventSightings('replay');
    expect(replay.events).toEqual([event]);
    expect([...replay.markets.values()].every((m) => m.secondsDelay === 3 && m.event?.id === event.id && m.endDate === endDates.get(m.conditionId))).toBe(true);
  });
});
