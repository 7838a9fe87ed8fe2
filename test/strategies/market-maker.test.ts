import { describe, expect, it } from 'vitest';
import { fromMicros } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

/** The strategy `npm start` runs (README "Three steps"). */
const MODULE = 'strategies/market-maker.ts';

describe('market-maker (the default strategy)', () => {
  it('quotes a tick inside the spread on each outcome', async () => {
    const script = scriptedBooks();
    const market = script.market({ tickSize: '0.01' });
    script.at(0).book(market.yes, { bids: [['0.40', '100']], asks: [['0.50', '100']] });
    const run = await runStrategy(MODULE, { books: script, params: { size: 10 } });
    expect(run.orders.filter((o) => o.tokenId === market.yes).map((o) => [o.side, fromMicros(o.price)])).toEqual([['BUY', '0.41']]);
  });

  it('keeps its bid clear of its own bid on the other outcome (the pair pays 1): no SELF_CROSS denial', async () => {
    const script = scriptedBooks();
    const market = script.market({ tickSize: '0.01' });
    script.at(0).book(market.no, { bids: [['0.55', '100']], asks: [['0.65', '100']] });
    // YES moved up before NO's book did: a bid at 0.44 plus ours at 0.56 on NO would be 1
    script.at(1_000).book(market.yes, { bids: [['0.43', '100']], asks: [['0.47', '100']] });
    const run = await runStrategy(MODULE, { books: script, params: { size: 10 } });
    const yesBids = run.orders.filter((o) => o.tokenId === market.yes && o.side === 'BUY');
    expect(yesBids.map((o) => fromMicros(o.price))).toEqual(['0.43']);
    expect(run.events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
  });
});
