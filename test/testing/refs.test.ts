import { describe, expect, it } from 'vitest';
import { defineStrategy, px, qty, type OrderIntent } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

describe("clobot/testing reports refs and the strategy's own figures", () => {
  it("an intent's ref and group are on the run's orders, order events and fills", async () => {
    const taker = defineStrategy({
      name: 'taker',
      init: () => ({ sent: false }),
      onBook({ state, market }): OrderIntent | undefined {
        if (state.sent || market.bestAsk === undefined) return undefined;
        state.sent = true;
        return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty('10'), orderType: 'FAK', ref: 'first', group: 'entries' };
      },
    });
    const script = scriptedBooks();
    const m = script.market({ tickSize: '0.01' });
    script.at(0).book(m.yes, { bids: [['0.40', '50']], asks: [['0.45', '50']] });
    const run = await runStrategy(taker, { books: script });
    expect(run.orders.map((o) => [o.ref, o.group, o.status])).toEqual([['first', 'entries', 'FILLED']]);
    expect(run.events.map((e) => [e.type, e.ref, e.group])).toEqual([
      ['OrderAccepted', 'first', 'entries'],
      ['OrderFilled', 'first', 'entries'],
    ]);
    expect(run.positions).toEqual([{ tokenId: m.yes, size: qty('10'), avgPrice: px('0.45'), realizedPnl: 0 }]);
    expect(run.summary.strategies[0]).toMatchObject({ id: 'strategy', fills: 1, turnover: '4.5' });
  });
});
