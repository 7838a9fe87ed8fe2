import { describe, expect, it } from 'vitest';
import { defineStrategy, px, qty, toMicros, type BasketEvent, type BasketIntent } from '../../../src/index.ts';
import { runStrategy, scriptedBooks, type ScriptedMarket } from '../../../src/testing/index.ts';

/** Three outcome markets; each YES ask as given (undefined: no asks), bids one cent under. */
function threeMarkets(asks: readonly (readonly [string, string] | undefined)[], bidSize = '200') {
  const script = scriptedBooks();
  const markets: ScriptedMarket[] = asks.map((_, i) => script.market({ slug: `outcome-${i}`, takerFeeBps: i === 0 ? 100 : 0 }));
  script.at(0);
  markets.forEach((m, i) => {
    const ask = asks[i];
    const bid = ask === undefined ? '0.20' : (Number(ask[0]) - 0.01).toFixed(2);
    script.book(m.yes, { bids: [[bid, bidSize]], asks: ask === undefined ? [] : [ask] });
  });
  script.at(5_000).book(markets[0]!.yes, { bids: [['0.29', bidSize]], asks: [['0.30', '100']] });
  return { script, markets };
}

/** Sends one basket on its first book, buying 10 YES of each market. */
function buyer(tokens: readonly string[], policy: Pick<BasketIntent, 'orderType' | 'onPartial'> & { cap?: string; price?: string }) {
  return defineStrategy({
    name: 'basket-buyer',
    init: () => ({ sent: false, heard: [] as BasketEvent[] }),
    onBook({ ctx, state }) {
      if (state.sent || !tokens.every((t) => ctx.market(t)?.book !== undefined)) return;
      state.sent = true;
      const intent: BasketIntent = {
        kind: 'basket',
        legs: tokens.map((tokenId) => ({ tokenId, side: 'BUY' as const, price: px(policy.price ?? '0.40'), size: qty('10') })),
        orderType: policy.orderType,
        onPartial: policy.onPartial,
        maxUnwindLoss: toMicros(policy.cap ?? '0.5'),
        ref: 'set-1',
      };
      return intent;
    },
  });
}

describe('basket intent (backtest edge, virtual time)', () => {
  it('buys every leg in one batch and tells BasketCompleted with legs, fills and cost', async () => {
    const { script, markets } = threeMarkets([['0.30', '100'], ['0.25', '100'], ['0.40', '100']]);
    const run = await runStrategy(buyer(markets.map((m) => m.yes), { orderType: 'FOK', onPartial: 'unwind' }), { books: script });
    expect(run.faults).toEqual([]);
    expect(run.baskets).toHaveLength(1);
    const event = run.baskets[0]!;
    expect(event.type).toBe('BasketCompleted');
    expect(event.ref).toBe('set-1');
    expect(event.legs.map((l) => l.filled)).toEqual([qty('10'), qty('10'), qty('10')]);
    // 10 × (0.30 + 0.25 + 0.40) plus the first market's 1% taker fee on min(p, 1-p) = 0.30 × 10 × 0.01
    expect(event.cost).toBe(toMicros('9.5') + toMicros('0.03'));
    // the strategy heard every leg's fill before the basket's outcome
    expect(run.fills).toHaveLength(3);
    expect(run.positions.filter((p) => p.size > 0)).toHaveLength(3);
  });

  it('unwinds the filled legs of a partial basket within its loss cap (FOK, one leg without depth)', async () => {
    const { script, markets } = threeMarkets([['0.30', '100'], undefined, ['0.40', '100']]);
    const run = await runStrategy(buyer(markets.map((m) => m.yes), { orderType: 'FOK', onPartial: 'unwind', cap: '0.5' }), { books: script });
    expect(run.baskets).toHaveLength(1);
    const event = run.baskets[0]!;
    expect(event.type).toBe('BasketUnwound');
    if (event.type !== 'BasketUnwound') return;
    expect(event.legs.map((l) => l.filled)).toEqual([qty('10'), 0, qty('10')]);
    expect(event.flat).toBe(true);
    expect(event.residual).toEqual([]);
    // sold back one cent under: 2 × 10 × 0.01 = 0.20, plus the first market's fees both ways (0.03 + 0.029)
    expect(event.loss).toBe(toMicros('0.2') + toMicros('0.03') + toMicros('0.029'));
    expect(event.loss).toBeLessThanOrEqual(event.maxUnwindLoss);
    // no naked leg: every position is flat
    expect(run.positions.every((p) => p.size === 0)).toBe(true);
  });

  it('leaves what cannot be unwound within the cap, and says so (flat: false)', async () => {
    const { script, markets } = threeMarkets([['0.30', '100'], undefined, ['0.40', '100']]);
    // a cap of 0.01 cannot pay a cent under on 20 shares: the limits sit above the bids
    const run = await runStrategy(buyer(markets.map((m) => m.yes), { orderType: 'FOK', onPartial: 'unwind', cap: '0.01' }), { books: script });
    const event = run.baskets[0]!;
    expect(event.type).toBe('BasketUnwound');
    if (event.type !== 'BasketUnwound') return;
    expect(event.flat).toBe(false);
    expect(event.residual.map((r) => r.size)).toEqual([qty('10'), qty('10')]);
    expect(event.loss).toBeLessThanOrEqual(event.maxUnwindLoss + event.cost);
  });

  it('holds a partial basket when told to (BasketPartial), FAK legs taking what there is', async () => {
    const { script, markets } = threeMarkets([['0.30', '100'], ['0.25', '4'], ['0.40', '100']]);
    const run = await runStrategy(buyer(markets.map((m) => m.yes), { orderType: 'FAK', onPartial: 'hold' }), { books: script });
    const event = run.baskets[0]!;
    expect(event.type).toBe('BasketPartial');
    if (event.type !== 'BasketPartial') return;
    expect(event.filledLegs).toBe(2);
    expect(event.legs.map((l) => l.filled)).toEqual([qty('10'), qty('4'), qty('10')]);
    expect(run.positions.filter((p) => p.size > 0).map((p) => p.size).sort()).toEqual([qty('10'), qty('10'), qty('4')].sort());
  });

  it('faults a strategy whose basket has more than 15 legs, naming why', async () => {
    const { script, markets } = threeMarkets([['0.30', '100'], ['0.25', '100'], ['0.40', '100']]);
    const tokens = Array.from({ length: 16 }, (_, i) => markets[i % 3]!.yes);
    await expect(runStrategy(buyer(tokens, { orderType: 'FOK', onPartial: 'hold' }), { books: script })).rejects.toThrow(/returned a basket intent whose legs are not a list of 1 to 15 legs/);
  });
});
