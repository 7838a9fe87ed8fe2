import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../../src/core/clock.ts';
import { formatMicros } from '../../../src/core/fixed.ts';
import type { FillEvent } from '../../../src/core/events.ts';
import type { LiveExecutionClient } from '../../../src/execution/live-execution-client.ts';
import { replayUserChannel } from '../../../src/execution/live/user-channel-replay.ts';
import { RunStore } from '../../../src/store/run-store.ts';
import { JOURNAL_USER_CHANNEL, type UserChannelNote } from '../../../src/store/store-types.ts';
import { pickMarket, TestTrader } from '../../sandbox/trading/harness.ts';
import { startSandbox } from '../../../src/sandbox/server.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { hexToBytes } from '../../../src/venue/signing/hex.ts';
import { DEFAULT_MM, startE2E, TEST_PRIVATE_KEY, waitFor, type E2E } from './harness.ts';

/**
 * Issue 26 point 3, end to end against the sandbox over loopback: a live run with the user
 * channel on and polling off (no audit polls; only the gap reads) quotes one market; a second
 * account takes our resting bids one at a time. Each fill is learned from the channel: no fill
 * read is made while the channel is trusted, and the channel's fill count grows by each take
 * (how fast is measured by bench/user-channel.bench.ts, never by a timed assertion), and its settlement (MINED, CONFIRMED) comes from the channel too; every
 * trade message is sent twice (fault wsUserResendRate) and counted once. The sandbox then drops
 * every user socket: a trade made in the gap is found by the fallback poll or the gap read, the
 * channel is trusted again after a complete read, and at the end the store holds exactly the
 * venue's trades of ours, each CONFIRMED; the journal's recorded messages replay to the same.
 */

const TAKE_SIZE = 5;

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: the user channel as the fill source', () => {
  it('learns each fill from the channel with no fill read, counts re-sends once, and its store equals the venue after a forced disconnect', async () => {
    const sandboxOptions = { port: 0, seed: 4, markets: 200, events: 40, flow: { enabled: false }, faults: { settlementMinedMs: 300, settlementConfirmedMs: 300, wsUserResendRate: 1 } };
    // the market, chosen in the same world before the run: a spread wide enough that our improved bid stands alone at its price
    const probe = await startSandbox(sandboxOptions);
    const conditionId = pickMarket(probe, { minSpreadTicks: 3 }).conditionId;
    await probe.close();
    run = await startE2E({
      sandbox: sandboxOptions,
      strategies: [{ ...DEFAULT_MM, markets: { conditionIds: [conditionId] } }],
      config: {
        execution: { userChannel: { enabled: true, auditPollMs: 0 } },
        store: { path: 'state.sqlite' },
      },
    });
    const e = run;
    const market = e.sandbox.world.marketByConditionId(conditionId)!;
    const execution = e.session.execution as LiveExecutionClient;
    const channel = () => execution.counters.userChannel!;
    const taker = await new TestTrader(e.sandbox.url, 'interface', new LiveClock(), 0x77).login();

    // the sandbox's match instant of each trade (its clock is the machine's, as the run's is)
    const matchedAt = new Map<string, number>();
    e.sandbox.engine.onEvent((event) => {
      if (event.type === 'TradeExecuted') matchedAt.set(event.trade.id, event.ts);
    });
    const fills = (): FillEvent[] => e.events.flatMap((ev) => (ev.type === 'fill' ? [ev.fill] : []));
    await waitFor('the channel to be trusted', () => channel().mode === 'up', 30_000);
    const apiKey = await waitFor('our first order at the venue', async () => (await e.adminOrders())[0]?.apiKey);
    // the reads so far: the start's and the gap read after the subscription; none while the channel is trusted
    const readsAtStart = execution.counters.fillPolls.polls;

    /** Takes TAKE_SIZE of one of our resting bids (buying the other token at the complement); returns the trade id. */
    async function takeOne(): Promise<string> {
      // ours at the best bid of its token with nobody else's order at that price, so the take meets ours only
      const ours = await waitFor('a bid of ours at the best price, with room', () =>
        e.sandbox.engine.openOrders({ owner: apiKey, conditionId }).find((o, _i, all) => {
          if (o.side !== 'BUY' || o.status !== 'LIVE' || o.openSize < TAKE_SIZE * 1_000_000) return false;
          const best = e.sandbox.engine.book(o.tokenId, Date.now()).bids[0];
          // the level holds our orders only: this bid and a sell of the other token at the complement
          const oursThere = all
            .filter((x) => x.status === 'LIVE' && ((x.tokenId === o.tokenId && x.side === 'BUY' && x.price === o.price) || (x.tokenId !== o.tokenId && x.side === 'SELL' && x.price === 1_000_000 - o.price)))
            .reduce((sum, x) => sum + x.openSize, 0);
          return best !== undefined && best.price === o.price && best.size === oursThere;
        }),
      );
      const other = market.tokens[0].tokenId === ours.tokenId ? 1 : 0;
      const before = matchedAt.size;
      const answer = await taker.post({ market, outcome: other, side: 'BUY', price: (1_000_000 - ours.price) / 1_000_000, size: TAKE_SIZE, orderType: 'FAK' });
      expect(answer.body[0]).toMatchObject({ success: true, status: 'matched' });
      expect(matchedAt.size).toBe(before + 1);
      const tradeId = [...matchedAt.keys()].at(-1)!;
      expect(e.sandbox.engine.trades({ owner: apiKey }).some((t) => t.id === tradeId)).toBe(true);
      return tradeId;
    }
    // 1. channel up, polling off: each fill learned from the channel, with no fill read
    const channelFillsAtStart = channel().channelFills;
    const early: string[] = [];
    for (let i = 0; i < 4; i++) {
      const tradeId = await takeOne();
      await waitFor(`the fill of trade ${tradeId}`, () => fills().some((f) => f.tradeId === tradeId), 10_000, 10);
      early.push(tradeId);
    }
    expect(execution.counters.fillPolls.polls).toBe(readsAtStart);
    expect(channel().channelFills - channelFillsAtStart).toBeGreaterThanOrEqual(early.length);

    // 2. forced disconnect: a trade in the gap is found by polling; the channel is trusted again after a complete read
    const dropped = await e.admin<{ dropped: number }>('/admin/ws/user/drop', {});
    expect(dropped.dropped).toBe(1);
    const gapTrade = await takeOne();
    await waitFor('the gap trade to be found', () => fills().some((f) => f.tradeId === gapTrade), 20_000, 10);
    await waitFor('the channel trusted again', () => channel().connects === 2 && channel().mode === 'up', 30_000);
    expect(channel().drops).toBe(1);

    const readsAfterGap = execution.counters.fillPolls.polls;
    const channelFillsAfterGap = channel().channelFills;
    const late: string[] = [];
    for (let i = 0; i < 3; i++) {
      const tradeId = await takeOne();
      await waitFor(`the fill of trade ${tradeId}`, () => fills().some((f) => f.tradeId === tradeId), 10_000, 10);
      late.push(tradeId);
    }
    expect(execution.counters.fillPolls.polls).toBe(readsAfterGap);
    expect(channel().channelFills - channelFillsAfterGap).toBeGreaterThanOrEqual(late.length);

    // settlement from the channel: every fill CONFIRMED; every trade message came twice and counted once
    const trades = early.length + 1 + late.length;
    // our fills at the venue (a take may meet two orders of ours at one price: a bid and the other token's ask)
    const total = e.sandbox.engine.trades({ owner: apiKey }).reduce((n, t) => n + t.makerOrders.filter((m) => m.owner === apiKey).length, 0);
    expect(total).toBeGreaterThanOrEqual(trades);
    await waitFor('every fill confirmed', () => e.summary().fillsBySettlement.confirmed === total, 30_000);
    expect(channel().duplicates).toBeGreaterThanOrEqual(trades);
    expect(fills()).toHaveLength(total);
    await e.stop();
    // closing the socket at our own stop is not a drop
    expect(channel().drops).toBe(1);

    // the store equals the venue: our trades (by trade and order id, price, size), each CONFIRMED
    const venue = e.sandbox.engine
      .trades({ owner: apiKey })
      .flatMap((t) => t.makerOrders.filter((m) => m.owner === apiKey).map((m) => ({ tradeId: t.id, orderId: m.orderId, price: formatMicros(m.price), size: formatMicros(m.matchedAmount), confirmed: e.sandbox.engine.tradeStatus(t) === 'CONFIRMED' })));
    const store = RunStore.open(join(e.dir, 'state.sqlite'));
    try {
      const stored = store.load().fills.map((f) => ({ tradeId: f.tradeId, orderId: f.orderId, price: formatMicros(f.price), size: formatMicros(f.size), confirmed: f.confirmed }));
      const byId = (a: { tradeId: string }, b: { tradeId: string }) => a.tradeId.localeCompare(b.tradeId);
      expect(stored.sort(byId)).toEqual(venue.sort(byId));
      expect(venue).toHaveLength(total);
      expect(venue.every((v) => v.confirmed)).toBe(true);

      // recorded: the journal holds every channel message; replayed, they give each channel-learned trade once per status, CONFIRMED last
      const notes = [...store.journalEvents()].filter((r) => r.type === JOURNAL_USER_CHANNEL).map((r) => r.event as UserChannelNote);
      const replay = replayUserChannel(notes, { apiKey, makerAddress: privateKeyToAddress(hexToBytes(TEST_PRIVATE_KEY, 32) as Uint8Array) });
      const replayed = (id: string) => [...replay.finalStatus].find(([key]) => key.startsWith(`${id}:`))?.[1];
      // the early trades' later statuses may have come while the socket was down (then polled, not recorded)
      for (const id of early) expect(replayed(id)).toBeDefined();
      for (const id of late) expect(replayed(id)).toBe('CONFIRMED');
      expect(replay.fills.map((f) => f.tradeId).filter((id, i, all) => all.indexOf(id) === i).every((id) => venue.some((v) => v.tradeId === id))).toBe(true);
      expect(replay.duplicates).toBeGreaterThanOrEqual(early.length + late.length);
    } finally {
      store.close();
    }
  }, 120_000);
});
