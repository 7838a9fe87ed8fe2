import { describe, expect, it } from 'vitest';
import { defineStrategy, type WalletTrade } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

const LEADER = '0x00000000000000000000000000000000000000AA';

/** Hears every followed wallet's trade; buys its own copy of a BUY in a market it trades. */
const listener = defineStrategy({
  name: 'listener',
  init: () => ({ heard: [] as WalletTrade[] }),
  onWalletTrade({ ctx, state, trade }) {
    state.heard.push(trade);
    const market = ctx.market(trade.tokenId);
    if (market === undefined || trade.side !== 'BUY') return;
    return { kind: 'place', tokenId: trade.tokenId, side: 'BUY', price: trade.price, size: 5_000_000, orderType: 'GTC' };
  },
});

describe('wallet trades in clobot/testing', () => {
  it('reach onWalletTrade in order, with the script time, any market, and the strategy can act on them', async () => {
    const script = scriptedBooks();
    const m = script.market({ slug: 'rain' });
    script.at(0).book(m.yes, { bids: [['0.40', '100']], asks: [['0.45', '100']] });
    script.at(1_000).walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.45', size: '30', txHash: '0xt1' });
    script.walletTrade(m.yes, { wallet: LEADER, side: 'BUY', price: '0.46', size: '10', txHash: '0xt1' });
    script.at(2_000).walletTrade('777', { wallet: LEADER, side: 'SELL', price: '0.2', size: '3', conditionId: '0xother' });
    const run = await runStrategy(listener, { books: script });
    const heard = (run.strategyState as { heard: WalletTrade[] }).heard;
    expect(heard.map((t) => [t.wallet, t.txHash, t.tokenId, t.side, t.price, t.size, t.ts - script.startMs])).toEqual([
      [LEADER.toLowerCase(), '0xt1', m.yes, 'BUY', 450_000, 30_000_000, 1_000],
      [LEADER.toLowerCase(), '0xt1', m.yes, 'BUY', 460_000, 10_000_000, 1_000],
      [LEADER.toLowerCase(), heard[2]!.txHash, '777', 'SELL', 200_000, 3_000_000, 2_000],
    ]);
    expect(heard[2]!.conditionId).toBe('0xother');
    // the strategy's copies went through the engine: two BUY orders at the leader's prices
    expect(run.orders.map((o) => [o.side, o.price])).toEqual([
      ['BUY', 450_000],
      ['BUY', 460_000],
    ]);
  });

  it('refuses a wallet trade with a bad wallet, or outside the script without a condition id, in one line', () => {
    const script = scriptedBooks();
    const m = script.market();
    expect(() => script.walletTrade(m.yes, { wallet: '0x12', side: 'BUY', price: '0.5', size: '1' })).toThrow(/wallet: '0x12' is not a 0x address/);
    expect(() => script.walletTrade('999', { wallet: LEADER, side: 'BUY', price: '0.5', size: '1' })).toThrow(/give its conditionId/);
  });
});
