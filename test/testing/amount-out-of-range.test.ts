import { describe, expect, it } from 'vitest';
import { defineStrategy, type OrderIntent } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';

describe('an amount the venue cannot represent', () => {
  it('an intent of size 1e300 micros is denied AMOUNT_OUT_OF_RANGE; nothing is sent and the run goes on', async () => {
    const huge = defineStrategy({
      name: 'huge',
      init: () => ({ sent: 0 }),
      onBook({ state, market }): OrderIntent | undefined {
        if (state.sent >= 2 || market.bestAsk === undefined) return undefined;
        state.sent++;
        const size = state.sent === 1 ? 1e300 : 10_000_000;
        return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size, orderType: 'FAK', ref: `n${state.sent}` };
      },
    });
    const script = scriptedBooks();
    const m = script.market({ tickSize: '0.01' });
    script.at(0).book(m.yes, { bids: [['0.40', '50']], asks: [['0.45', '50']] });
    script.at(1000).book(m.yes, { bids: [['0.41', '50']], asks: [['0.45', '50']] });
    const run = await runStrategy(huge, { books: script });
    const denied = run.events.filter((e) => e.type === 'OrderDenied');
    expect(denied.map((e) => [e.ref, (e as { code?: string }).code])).toEqual([['n1', 'AMOUNT_OUT_OF_RANGE']]);
    expect(run.orders.map((o) => [o.ref, o.status])).toEqual([['n2', 'FILLED']]);
  });
});
