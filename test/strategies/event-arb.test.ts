import { describe, expect, it } from 'vitest';
import { fromMicros, qty, toMicros } from 'clobot';
import { runStrategy, scriptedBooks, type ScriptedMarket } from 'clobot/testing';

const MODULE = 'strategies/event-arb.ts';

/** An event of three outcomes; YES asks (and bids one cent under) as given; the NO books mirror them. */
function event(asks: readonly (readonly [string, string])[], options: { augmented?: boolean; slug?: string; takerFeeBps?: number } = {}) {
  const script = scriptedBooks();
  const slug = options.slug ?? 'election';
  const markets: ScriptedMarket[] = asks.map((_, i) =>
    script.market({ slug: `${slug}-${i}`, event: { slug, negRisk: true, augmented: options.augmented ?? false }, takerFeeBps: options.takerFeeBps ?? 0 }),
  );
  const show = (at: number, yesAsks: readonly (readonly [string, string])[]) => {
    script.at(at);
    markets.forEach((m, i) => {
      const [ask, size] = yesAsks[i]!;
      const bid = (Number(ask) - 0.01).toFixed(2);
      script.book(m.yes, { bids: [[bid, '200']], asks: [[ask, size]] });
      script.book(m.no, { bids: [[(1 - Number(ask)).toFixed(2), size]], asks: [[(1 - Number(bid)).toFixed(2), '200']] });
    });
  };
  show(0, asks);
  return { script, markets, show };
}

describe('event-arb (clobot/testing)', () => {
  it('buys every outcome of a mispriced event in one basket, sized by depth, and holds the set', async () => {
    // asks sum to 0.30 + 0.25 + 0.40 = 0.95: five cents under the set's payout
    const { script, markets } = event([
      ['0.30', '40'],
      ['0.25', '30'],
      ['0.40', '100'],
    ]);
    const run = await runStrategy(MODULE, { books: script, params: { maxSets: 100, eventCap: 1000, exitAt: 0 } });
    expect(run.faults).toEqual([]);
    const baskets = run.intents.filter((i) => i.intent.kind === 'basket');
    expect(baskets).toHaveLength(1);
    const intent = baskets[0]!.intent;
    if (intent.kind !== 'basket') return;
    // one leg per outcome's YES, each the size of the thinnest book (30)
    expect(intent.legs.map((l) => l.tokenId)).toEqual(markets.map((m) => m.yes));
    expect(intent.legs.every((l) => l.size === qty('30') && l.side === 'BUY')).toBe(true);
    expect(run.baskets.map((b) => b.type)).toEqual(['BasketCompleted']);
    expect(fromMicros(run.baskets[0]!.cost)).toBe('28.5');
    expect(run.positions.filter((p) => p.size > 0).map((p) => p.size)).toEqual([qty('30'), qty('30'), qty('30')]);
  });

  it('never trades an augmented event, nor an event priced at or above its payout less the margin', async () => {
    const cheap = event([['0.30', '40'], ['0.25', '30'], ['0.40', '100']], { augmented: true });
    const augmented = await runStrategy(MODULE, { books: cheap.script });
    expect(augmented.intents).toEqual([]);
    const fair = event([['0.33', '40'], ['0.33', '30'], ['0.33', '100']]);
    const margin = await runStrategy(MODULE, { books: fair.script, params: { margin: 0.02, buyNoSets: false } });
    expect(margin.intents).toEqual([]);
  });

  it('counts taker fees against the edge', async () => {
    // 0.95 for the set, but 10% taker fees on min(p, 1-p) cost 0.095: no edge left
    const { script } = event([['0.30', '40'], ['0.25', '30'], ['0.40', '100']], { takerFeeBps: 1000 });
    const run = await runStrategy(MODULE, { books: script, params: { buyNoSets: false } });
    expect(run.intents).toEqual([]);
  });

  it('buys every NO when the YES bids sum above 1 plus costs (the NO set pays n - 1)', async () => {
    // YES asks 0.36, 0.36, 0.38: bids 0.35 + 0.35 + 0.37 = 1.07; NO asks 0.65 + 0.65 + 0.63 = 1.93 < 2
    const { script, markets } = event([['0.36', '40'], ['0.36', '40'], ['0.38', '40']]);
    const run = await runStrategy(MODULE, { books: script, params: { maxSets: 10 } });
    const intent = run.intents.find((i) => i.intent.kind === 'basket')?.intent;
    expect(intent?.kind === 'basket' && intent.legs.map((l) => l.tokenId)).toEqual(markets.map((m) => m.no));
    expect(run.baskets.map((b) => b.type)).toEqual(['BasketCompleted']);
  });

  it('keeps the event cap: at most eventCap of collateral per event', async () => {
    const { script } = event([['0.30', '400'], ['0.25', '300'], ['0.40', '1000']]);
    const run = await runStrategy(MODULE, { books: script, params: { maxSets: 1000, eventCap: 19, exitAt: 0 } });
    const b = run.baskets[0]!;
    expect(b.type).toBe('BasketCompleted');
    expect(b.cost).toBeLessThanOrEqual(toMicros('19'));
    expect(b.legs[0]!.size).toBe(qty('19'));
  });

  it('a leg whose depth went before its order arrived: the basket is unwound within its cap, no naked leg', async () => {
    const { script, markets, show } = event([['0.30', '40'], ['0.25', '30'], ['0.40', '100']]);
    // 50 ms later (before the orders arrive, latency 100 ms), the second outcome's asks are gone
    script.at(50).book(markets[1]!.yes, { bids: [['0.24', '200']], asks: [['0.60', '10']] });
    show(10_000, [['0.31', '40'], ['0.60', '30'], ['0.41', '100']]);
    const run = await runStrategy(MODULE, { books: script, latencyMs: 100, params: { maxSets: 100, eventCap: 1000, buyNoSets: false } });
    expect(run.baskets).toHaveLength(1);
    const b = run.baskets[0]!;
    expect(b.type).toBe('BasketUnwound');
    if (b.type !== 'BasketUnwound') return;
    expect(b.flat).toBe(true);
    expect(b.loss).toBeLessThanOrEqual(b.maxUnwindLoss);
    expect(run.positions.every((p) => p.size === 0)).toBe(true);
  });
});
