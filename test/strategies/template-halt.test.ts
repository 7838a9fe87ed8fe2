import { describe, expect, it } from 'vitest';
import { runStrategy, scriptedBooks } from 'clobot/testing';
import template from '../../templates/strategy.ts';

/**
 * The strategy `clobot init` and `clobot new-strategy` write, while trading is halted: it asked
 * for its quote on every book, and each order was denied TRADING_HALTED and logged twice (the
 * run's line and the strategy's), 233 denials in 15 s of a live run halted by its kill switch.
 */
describe('the strategy template while trading is halted', () => {
  it('quotes nothing from Halted until Resumed: no order denied book after book', async () => {
    const script = scriptedBooks();
    const market = script.market({ tickSize: '0.01' });
    script.at(0).book(market.yes, { bids: [['0.40', '100']], asks: [['0.50', '100']] });
    script.at(1_000).trade(market.yes, { side: 'SELL', price: '0.40', size: '200' });
    // the price falls away: the 10 bought lose more than the daily loss limit, and the kill switch halts
    for (let i = 0; i < 10; i++) script.at(2_000 + i * 1_000).book(market.yes, { bids: [['0.01', '100']], asks: [['0.04', '100']] });
    const run = await runStrategy(template, { books: script, params: { size: 10 }, config: { risk: { dailyLossLimit: 1 } } });

    expect(run.fills.length).toBeGreaterThan(0);
    // the quote of the book at 2 s was denied (its check tripped the kill switch: Halted); every
    // book and fill after it asked for nothing, until the stop's cancelAll
    const start = run.intents[0]!.at;
    expect(run.intents.filter((i) => i.at - start > 2_000).map((i) => i.hook)).toEqual(['onStop']);
    expect(new Set(run.events.flatMap((e) => (e.type === 'OrderDenied' ? [e.code] : [])))).toEqual(new Set(['TRADING_HALTED']));
  });
});
