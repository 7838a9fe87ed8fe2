// The strategy on scripted books, in virtual time, through clobot's real backtest engine:
// `npm test` runs this in a second. Assert on what the strategy did: intents, orders and their
// final status, fills and order events in the order the strategy saw them, positions, cash.
import { describe, expect, it } from 'vitest';
import { fromMicros, px, qty } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';
import quoter from '../strategies/quoter.ts';

describe('quoter', () => {
  it('quotes a tick inside the spread and is filled when a trade prints through its bid', async () => {
    const script = scriptedBooks();
    const market = script.market({ slug: 'will-it-rain', tickSize: '0.01' });
    script.at(0).book(market.yes, { bids: [['0.40', '100']], asks: [['0.50', '100']] });
    script.at(2_000).trade(market.yes, { side: 'SELL', price: '0.40', size: '200' });

    const run = await runStrategy(quoter, { books: script, params: { size: 10 } });

    expect(run.intents[0]?.intent).toEqual({
      kind: 'quote',
      tokenId: market.yes,
      bids: [{ price: px('0.41'), size: qty('10') }],
      asks: [],
      group: 'quote',
    });
    expect(run.fills.map((f) => f.group)).toEqual(['quote']);
    expect(run.fills.map((f) => [f.side, fromMicros(f.price), fromMicros(f.size)])).toEqual([['BUY', '0.41', '10']]);
    // an order's acceptance always reaches the strategy before its fills
    const firstFill = run.events.findIndex((e) => e.type === 'OrderFilled');
    expect(run.events.slice(0, firstFill).some((e) => e.type === 'OrderAccepted' && e.clientOrderId === run.fills[0]?.clientOrderId)).toBe(true);
    expect(run.positions.find((p) => p.tokenId === market.yes)?.size).toBe(qty('10'));
    expect(fromMicros(run.cash)).toBe('9995.9');
  });

  it('keeps its bid clear of its own bid on the other outcome (the pair pays 1)', async () => {
    const script = scriptedBooks();
    const market = script.market();
    script.at(0).book(market.no, { bids: [['0.55', '100']], asks: [['0.65', '100']] });
    // YES moved up before NO's book did: a bid at 0.44 plus ours at 0.56 on NO would be 1
    script.at(1_000).book(market.yes, { bids: [['0.43', '100']], asks: [['0.47', '100']] });
    const run = await runStrategy(quoter, { books: script, params: { size: 10 } });
    const yesBids = run.orders.filter((o) => o.tokenId === market.yes && o.side === 'BUY');
    expect(yesBids.map((o) => fromMicros(o.price))).toEqual(['0.43']);
    expect(run.events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });

  it('does not buy past maxInventory', async () => {
    const script = scriptedBooks();
    const market = script.market();
    script.at(0).book(market.yes, { bids: [['0.40', '100']], asks: [['0.50', '100']] });
    const run = await runStrategy(quoter, { books: script, params: { size: 10, maxInventory: 5 } });
    expect(run.intents[0]?.intent).toMatchObject({ kind: 'quote', bids: [], asks: [] });
    expect(run.orders).toEqual([]);
  });
});
