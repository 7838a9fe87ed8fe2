import { describe, expect, it } from 'vitest';
import { fromMicros, qty } from 'clobot';
import type { PlaceIntent } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

const MODULE = 'strategies/copy-trader.ts';
const LEADER = '0x00000000000000000000000000000000000000a1';
const OTHER = '0x00000000000000000000000000000000000000b2';

/** One market at 0.40/0.42 (YES), deep enough for every copy; books again every second until `until`. */
function market(until = 20_000) {
  const script = scriptedBooks();
  const m = script.market({ slug: 'rain' });
  const show = (at: number, bid = '0.40', ask = '0.42') => {
    script.at(at);
    script.book(m.yes, { bids: [[bid, '500']], asks: [[ask, '500']] });
    script.book(m.no, { bids: [[(1 - Number(ask)).toFixed(2), '500']], asks: [[(1 - Number(bid)).toFixed(2), '500']] });
  };
  show(0);
  return { script, m, show, until };
}

const places = (run: Awaited<ReturnType<typeof runStrategy>>) => run.intents.filter((i) => i.intent.kind === 'place') as { at: number; t: number; hook: string; intent: PlaceIntent }[];

describe('copy-trader (clobot/testing)', () => {
  it('copies a leader buy once per transaction: scaled, FAK at the leader price plus the slippage cap; the fills of one transaction merged, a late one ignored', async () => {
    const { script, m, show } = market();
    // one transaction, two fills (0.42 x 30, 0.43 x 10), heard together
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '30', txHash: '0xaa' });
    script.walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.43', size: '10', txHash: '0xaa' });
    // a third fill of it, heard a poll later, after the copy went out
    script.at(3_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.43', size: '20', txHash: '0xaa' });
    show(4_000);
    const run = await runStrategy(MODULE, { books: script, params: { scale: 0.5, maxSlippage: 0.02, delayMs: 500 } });
    expect(run.faults).toEqual([]);
    const copies = places(run);
    expect(copies).toHaveLength(1);
    const copy = copies[0]!;
    // 40 shares at an average 0.4225: half is 20, limit 0.4225 + 0.02 down to the tick = 0.44
    expect([copy.intent.side, fromMicros(copy.intent.size), fromMicros(copy.intent.price), copy.intent.orderType]).toEqual(['BUY', '20', '0.44', 'FAK']);
    // heard at 1 000, copied at the first timer tick 500 ms later
    expect(copy.t).toBeGreaterThanOrEqual(1_500);
    expect(copy.t).toBeLessThanOrEqual(1_600);
    expect(run.fills.reduce((a, f) => a + f.size, 0)).toBe(qty('20'));
    expect(run.logs.filter((l) => l.msg === 'copy')).toHaveLength(1);
  });

  it('with no delay the copy goes out in the hook that heard the trade', async () => {
    const { script, m, show } = market();
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '10' });
    show(2_000);
    const run = await runStrategy(MODULE, { books: script, params: { scale: 1 } });
    expect(places(run).map((c) => [c.hook, c.t, fromMicros(c.intent.size)])).toEqual([['onWalletTrade', 1_000, '10']]);
  });

  it('a trade heard before the first book of its token waits for the book (a run that just started), then is copied once', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'rain' });
    script.at(0).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '10', txHash: '0xbb' });
    script.at(700);
    script.book(m.yes, { bids: [['0.40', '500']], asks: [['0.42', '500']] });
    script.at(2_000);
    script.book(m.yes, { bids: [['0.40', '500']], asks: [['0.42', '500']] });
    const run = await runStrategy(MODULE, { books: script, params: { scale: 1 } });
    expect(places(run).map((c) => [c.hook, c.t, fromMicros(c.intent.size)])).toEqual([['onBook', 700, '10']]);
    // and not past maxTradeAgeMs: then it is skipped for want of a book
    const late = await runStrategy(MODULE, { books: script, params: { scale: 1, maxTradeAgeMs: 500 } });
    expect(places(late)).toEqual([]);
    expect(late.logs.some((l) => l.msg === 'leader trade not copied' && l.fields['why'] === 'no fresh book')).toBe(true);
  });

  it('keeps the per-trade and per-market caps, and skips what the caps leave under the minimum size', async () => {
    const { script, m, show } = market();
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '1000' });
    show(2_000);
    script.at(3_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '1000' });
    show(4_000);
    script.at(5_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '1000' });
    show(6_000);
    // per trade at most 10 USDC at the 0.44 limit: 22.72 shares; per market 15 USDC in all
    const run = await runStrategy(MODULE, { books: script, params: { scale: 1, maxTradeUsdc: 10, maxMarketUsdc: 15 } });
    const sizes = places(run).map((c) => fromMicros(c.intent.size));
    expect(sizes[0]).toBe('22.72');
    // the second copy gets what the market cap leaves (15 - 22.72 x 0.42 filled = 5.4576 USDC: 12.4 shares at 0.44)
    expect(sizes[1]).toBe('12.4');
    // the third: nothing left under the cap
    expect(sizes).toHaveLength(2);
    expect(run.logs.some((l) => l.msg === 'leader trade not copied' && /the caps' [0-9.]+ shares under the market's minimum/.test(String(l.fields['why'])))).toBe(true);
  });

  it('follows only its leaders, never a denied market nor one off the allow list', async () => {
    const { script, m, show } = market();
    script.at(1_000).walletTrade(m.yes, { wallet: OTHER, side: 'BUY', price: '0.42', size: '10' });
    script.walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '10' });
    show(2_000);
    const onlyLeader = await runStrategy(MODULE, { books: script, params: { scale: 1, leaders: [LEADER.toUpperCase().replace('0X', '0x')] } });
    expect(places(onlyLeader)).toHaveLength(1);
    const denied = await runStrategy(MODULE, { books: script, params: { scale: 1, deny: [m.conditionId] } });
    expect(places(denied)).toHaveLength(0);
    const allowedElsewhere = await runStrategy(MODULE, { books: script, params: { scale: 1, allow: ['0xelsewhere'] } });
    expect(places(allowedElsewhere)).toHaveLength(0);
    const allowed = await runStrategy(MODULE, { books: script, params: { scale: 1, allow: [m.conditionId] } });
    expect(places(allowed)).toHaveLength(2);
  });

  it('does not chase: a best ask past the leader price plus the slippage cap skips the copy; a trade heard too late is not copied', async () => {
    const { script, m, show } = market();
    // the leader bought at 0.38, the ask is now 0.42: four cents past, the cap is two
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.38', size: '10' });
    show(2_000);
    const chased = await runStrategy(MODULE, { books: script, params: { scale: 1, maxSlippage: 0.02 } });
    expect(places(chased)).toHaveLength(0);
    expect(chased.logs.some((l) => String(l.fields['why']).includes('past the slippage cap'))).toBe(true);
    const wider = await runStrategy(MODULE, { books: script, params: { scale: 1, maxSlippage: 0.05 } });
    expect(places(wider)).toHaveLength(1);
    show(4_000);
    const delayed = await runStrategy(MODULE, { books: script, params: { scale: 1, maxSlippage: 0.05, delayMs: 2_000, maxTradeAgeMs: 1_000 } });
    // the trade was fresh when heard: the delay does not make it stale
    expect(places(delayed)).toHaveLength(1);
    // heard 5 s after it happened (a slow poll): not copied with maxTradeAgeMs 1 s
    script.at(10_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '10', tradedAt: 5_000 });
    show(11_000);
    const late = await runStrategy(MODULE, { books: script, params: { scale: 1, maxSlippage: 0.05, maxTradeAgeMs: 1_000 } });
    expect(places(late)).toHaveLength(1);
    expect(late.logs.some((l) => l.fields['why'] === 'heard too late')).toBe(true);
  });

  it('exits when the leader exits: the same share of its position, then the rest', async () => {
    const { script, m, show } = market();
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.42', size: '40' });
    show(2_000);
    // the leader sells half of what it bought, then the rest
    script.at(3_000).walletTrade(m.yes, { wallet: LEADER, side: 'SELL', price: '0.41', size: '20' });
    show(4_000);
    script.at(5_000).walletTrade(m.yes, { wallet: LEADER, side: 'SELL', price: '0.40', size: '20' });
    show(6_000);
    // another wallet's sell, or a sell of a token we hold from nobody's copy, does nothing
    script.at(7_000).walletTrade(m.yes, { wallet: OTHER, side: 'SELL', price: '0.40', size: '20' });
    show(8_000);
    const run = await runStrategy(MODULE, { books: script, params: { scale: 0.5 } });
    const orders = places(run).map((c) => [c.intent.side, fromMicros(c.intent.size), fromMicros(c.intent.price)]);
    expect(orders).toEqual([
      ['BUY', '20', '0.44'],
      ['SELL', '10', '0.36'],
      ['SELL', '10', '0.35'],
    ]);
    expect(run.positions.find((p) => p.tokenId === m.yes)?.size).toBe(0);
  });
});
