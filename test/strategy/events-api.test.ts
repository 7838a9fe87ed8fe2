import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { map } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { defineStrategy, fromMicros, px, qty, type EventInfo, type TradePrint } from 'clobot';
import { runStrategy, scriptedBooks, TestingError } from 'clobot/testing';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'clobot-events-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A neg-risk event of three outcome markets (one with a 3 s matching delay) and a plain market. */
function electionScript() {
  const script = scriptedBooks();
  const alice = script.market({ slug: 'alice', event: { slug: 'election', title: 'Who wins?', negRisk: true } });
  const bob = script.market({ slug: 'bob', event: 'election', secondsDelay: 3 });
  const carol = script.market({ slug: 'carol', event: 'election' });
  const rain = script.market({ slug: 'rain' });
  for (const m of [alice, bob, carol, rain]) script.at(0).book(m.yes, { bids: [['0.30', '10']], asks: [['0.32', '10']] });
  script.at(1_000).trade(bob.yes, { side: 'BUY', price: '0.32', size: '7' });
  script.at(2_000).trade(bob.yes, { side: 'SELL', price: '0.30', size: '2' });
  return { script, alice, bob, carol, rain };
}

describe('events, matching delays and trade prints in the strategy API', () => {
  it('a snapshot names its event and its delay; ctx.event gives every outcome of the event; ctx.events lists the events', async () => {
    const { script, alice, bob, carol, rain } = electionScript();
    const seen: { event: EventInfo | undefined; delay: number | undefined; outcomes: string[] | undefined; events: string[] }[] = [];
    const strategy = defineStrategy({
      name: 'event-reader',
      onStart({ ctx }) {
        const bobMarket = ctx.market(bob.yes)!;
        const whole = bobMarket.event === undefined ? undefined : ctx.event(bobMarket.event.id);
        seen.push({
          event: bobMarket.event,
          delay: bobMarket.rules.secondsDelay,
          outcomes: whole?.markets.map((m) => `${m.question}:${m.outcome}`),
          events: ctx.events().map((e) => e.slug),
        });
      },
    });
    const run = await runStrategy(strategy, { books: script });
    expect(run.faults).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.event).toEqual({ id: bob.eventId, slug: 'election', title: 'Who wins?', negRisk: true, augmented: false, marketConditionIds: [alice.conditionId, bob.conditionId, carol.conditionId] });
    expect(seen[0]!.delay).toBe(3);
    expect(seen[0]!.outcomes).toEqual(['alice?:Yes', 'alice?:No', 'bob?:Yes', 'bob?:No', 'carol?:Yes', 'carol?:No']);
    // the plain market has no event; the strategy trades all four markets, one event among them
    expect(seen[0]!.events).toEqual(['election']);
    expect(rain.eventId).toBeUndefined();
  });

  it('an unknown event id gives undefined', async () => {
    const { script } = electionScript();
    let got: unknown = 'unset';
    await runStrategy(defineStrategy({ name: 'x', onStart: ({ ctx }) => void (got = ctx.event('nope')) }), { books: script });
    expect(got).toBeUndefined();
  });

  it("public trade prints reach onTrade and the stream's trades$, and the snapshot's lastTrade", async () => {
    const { script, bob } = electionScript();
    const prints: { trade: TradePrint; last: TradePrint | undefined }[] = [];
    const hooks = defineStrategy({
      name: 'tape-reader',
      init: () => ({ volume: 0 }),
      onTrade({ ctx, state, market, trade }) {
        state.volume += Number(fromMicros(trade.size));
        prints.push({ trade, last: ctx.market(market.tokenId)?.lastTrade });
        ctx.log.info('print', { price: fromMicros(trade.price) });
      },
    });
    const run = await runStrategy(hooks, { books: script });
    expect(prints.map((p) => [p.trade.tokenId, p.trade.side, fromMicros(p.trade.price), fromMicros(p.trade.size)])).toEqual([
      [bob.yes, 'BUY', '0.32', '7'],
      [bob.yes, 'SELL', '0.3', '2'],
    ]);
    expect(prints.every((p) => p.last === p.trade)).toBe(true);
    // runStrategy hands back the strategy's own state and its log lines
    expect(run.strategyState).toEqual({ volume: 9 });
    expect(run.logs.map((l) => [l.t, l.level, l.msg, l.fields])).toEqual([
      [1_000, 'info', 'print', { price: '0.32' }],
      [2_000, 'info', 'print', { price: '0.3' }],
    ]);

    const streamed: string[] = [];
    const stream = defineStrategy({
      name: 'tape-stream',
      stream: ({ trades$ }) => trades$.pipe(map(({ market, trade }) => void streamed.push(`${market.tokenId}@${fromMicros(trade.price)}`)), map(() => ({ kind: 'cancelAll' as const }))),
    });
    await runStrategy(stream, { books: electionScript().script });
    expect(streamed).toEqual([`${bob.yes}@0.32`, `${bob.yes}@0.3`]);
  });

  it('a written script keeps its events and delays in the recording header, text and binary', async () => {
    const { script, bob } = electionScript();
    const path = join(dir, 'election.jsonl');
    await script.write(path);
    const data = await openBacktestData(path);
    expect(data.header.events).toEqual(script.header.events);
    expect(data.header.markets.find((m) => m.slug === 'bob')?.secondsDelay).toBe(3);
    let delay: number | undefined;
    await runStrategy(defineStrategy({ name: 'x', onStart: ({ ctx }) => void (delay = ctx.market(bob.yes)?.rules.secondsDelay) }), { recording: path });
    expect(delay).toBe(3);

    const binary = join(dir, 'election.bin');
    const writer = createRecordingWriter(binary, script.header, { form: 'binary' });
    for (const e of script.events) writer.write(e);
    await writer.close();
    const read = await openBacktestData(binary);
    expect(read.header.events).toEqual(script.header.events);
    expect(read.header.markets.find((m) => m.slug === 'bob')?.secondsDelay).toBe(3);
  });

  it('a recording without events (older files) reads as before: no event on any snapshot', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'plain' });
    script.at(0).book(m.yes, { bids: [['0.30', '10']], asks: [['0.32', '10']] });
    expect(script.header.events).toBeUndefined();
    const path = join(dir, 'plain.jsonl');
    await script.write(path);
    let snapshot: { event: unknown; delay: unknown; events: unknown } | undefined;
    await runStrategy(defineStrategy({ name: 'x', onBook: ({ ctx, market }) => void (snapshot = { event: market.event, delay: market.rules.secondsDelay, events: ctx.events() }) }), { recording: path });
    expect(snapshot).toEqual({ event: undefined, delay: undefined, events: [] });
  });

  it("a marketable order on a 3 s-delay market fills 3 s later in a backtest; on a market without a delay at once", async () => {
    const { script, alice, bob } = electionScript();
    // the data goes on past the delay (the same book again)
    script.at(4_000).book(bob.yes, { bids: [['0.30', '10']], asks: [['0.32', '10']] });
    const buyer = defineStrategy({
      name: 'taker',
      init: () => new Set<string>(),
      onBook({ state, market }) {
        if (market.tokenId !== alice.yes && market.tokenId !== bob.yes) return undefined;
        if (state.has(market.tokenId)) return undefined;
        state.add(market.tokenId);
        return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: px('0.32'), size: qty('5'), orderType: 'FAK' };
      },
    });
    const run = await runStrategy(buyer, { books: script });
    const filledAt = (tokenId: string) => run.fills.find((f) => f.tokenId === tokenId)!.tsInit - script.startMs;
    expect(filledAt(alice.yes)).toBeLessThan(1_000);
    expect(filledAt(bob.yes)).toBeGreaterThanOrEqual(3_000);
    expect(run.fills.map((f) => fromMicros(f.size))).toEqual(['5', '5']);
  });

  it('data.markets.events selects the recorded markets of an event; an event the recording lacks is one error naming it', async () => {
    const { script, alice, bob, carol } = electionScript();
    let tokens: readonly string[] = [];
    await runStrategy(defineStrategy({ name: 'x', onStart: ({ ctx }) => void (tokens = ctx.tokenIds) }), { books: script, config: { data: { markets: { events: ['election'] } } } });
    expect(tokens).toEqual([alice.yes, alice.no, bob.yes, bob.no, carol.yes, carol.no]);
    await expect(runStrategy(defineStrategy({ name: 'x' }), { books: script, config: { data: { markets: { events: ['nope'] } } } })).rejects.toThrow(/data\.markets: the recording holds no market for event nope/);
  });

  it('a market naming an event with other flags than an earlier one is an error naming both', () => {
    const script = scriptedBooks();
    script.market({ slug: 'a', event: { slug: 'e', negRisk: true } });
    expect(() => script.market({ slug: 'b', event: { slug: 'e', negRisk: false } })).toThrow(TestingError);
    expect(() => script.market({ slug: 'c', secondsDelay: -1 })).toThrow(/secondsDelay/);
  });
});
