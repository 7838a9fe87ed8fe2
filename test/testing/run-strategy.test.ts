import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, map, take } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { defineStrategy, fromMicros, px, qty, z, type OrderIntent } from 'clobot';
import { runStrategy, scriptedBooks, TestingError } from 'clobot/testing';

const dir = mkdtempSync(join(tmpdir(), 'clobot-testing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Buys `size` once at the best ask (FAK) when it is at or below `below`, and counts its books in its state. */
const dipBuyer = defineStrategy({
  name: 'dip-buyer',
  params: z.object({ size: z.string().default('10'), below: z.string().default('0.60') }).strict(),
  init: () => ({ books: 0, bought: false }),
  onBook({ ctx, state, market }): OrderIntent | undefined {
    state.books++;
    if (state.bought || market.bestAsk === undefined || market.bestAsk > px(ctx.params.below)) return undefined;
    state.bought = true;
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(ctx.params.size), orderType: 'FAK' };
  },
  onStop({ state, ctx }) {
    ctx.log.info('books seen', { books: state.books });
  },
});

function oneMarketScript() {
  const script = scriptedBooks();
  const m = script.market({ slug: 'rain' });
  script.at(0).book(m.yes, { bids: [['0.60', '50']], asks: [['0.70', '50']] });
  script.at(1_000).book(m.yes, { bids: [['0.50', '50']], asks: [['0.55', '40'], ['0.56', '100']] });
  script.at(2_000).book(m.yes, { bids: [['0.50', '50']], asks: [['0.56', '100']] });
  return { script, m };
}

describe('runStrategy on scripted books', () => {
  it('returns the intents, the filled order, its fill after its acceptance, the position and the cash', async () => {
    const { script, m } = oneMarketScript();
    const run = await runStrategy(dipBuyer, { books: script, params: { size: '10' } });

    expect(run.intents).toHaveLength(1);
    expect(run.intents[0]).toMatchObject({ hook: 'onBook', t: 1_000, intent: { kind: 'place', side: 'BUY', price: px('0.55'), orderType: 'FAK' } });
    expect(run.orders).toHaveLength(1);
    expect(run.orders[0]).toMatchObject({ tokenId: m.yes, side: 'BUY', price: px('0.55'), size: qty('10'), filled: qty('10'), status: 'FILLED' });
    expect(run.fills.map((f) => [fromMicros(f.price), fromMicros(f.size), f.liquidity])).toEqual([['0.55', '10', 'TAKER']]);
    // causal order: the order's acceptance reaches the strategy before its fill
    const id = run.orders[0]!.clientOrderId;
    expect(run.events.filter((e) => e.clientOrderId === id).map((e) => e.type)).toEqual(['OrderAccepted', 'OrderFilled']);
    expect(run.positions.find((p) => p.tokenId === m.yes)).toMatchObject({ size: qty('10'), avgPrice: px('0.55') });
    expect(fromMicros(run.cash)).toBe('9994.5');
    expect(run.faults).toEqual([]);
    expect(run.summary.metrics.fills).toBe(1);
  });

  it('gives the same run for the same inputs', async () => {
    const a = await runStrategy(dipBuyer, { books: oneMarketScript().script });
    const b = await runStrategy(dipBuyer, { books: oneMarketScript().script });
    expect(b.events).toEqual(a.events);
    expect(b.orders).toEqual(a.orders);
  });

  it('reports a risk denial with its deny code, and no order reaches the venue', async () => {
    const offTick = defineStrategy({
      name: 'off-tick',
      onBook({ market }): OrderIntent {
        return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: px('0.505'), size: qty('10') };
      },
    });
    const script = scriptedBooks();
    const m = script.market({ tickSize: '0.01' });
    script.book(m.yes, { bids: [['0.50', '10']], asks: [['0.52', '10']] });
    const run = await runStrategy(offTick, { books: script });
    expect(run.orderEvents.map((e) => (e.type === 'OrderDenied' ? e.code : e.type))).toEqual(['PRICE_OFF_TICK']);
    expect(run.orders).toEqual([]);
    expect(run.fills).toEqual([]);
    expect(run.summary.orders).toMatchObject({ submitted: 0, denied: 1, deniedByCode: { PRICE_OFF_TICK: 1 } });
  });

  it('fills a resting GTC bid from a later trade print through its price', async () => {
    const bidder = defineStrategy({
      name: 'bidder',
      init: () => ({ placed: false }),
      onBook({ state, market }): OrderIntent | undefined {
        if (state.placed) return undefined;
        state.placed = true;
        return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: px('0.40'), size: qty('5') };
      },
    });
    const script = scriptedBooks();
    const m = script.market();
    script.at(0).book(m.yes, { bids: [['0.45', '100']], asks: [['0.50', '100']] });
    script.at(5_000).trade(m.yes, { side: 'SELL', price: '0.39', size: '500' });
    script.at(6_000).book(m.yes, { bids: [['0.38', '100']], asks: [['0.41', '100']] });
    const run = await runStrategy(bidder, { books: script });
    expect(run.orders[0]).toMatchObject({ status: 'FILLED', filled: qty('5') });
    expect(run.fills[0]).toMatchObject({ price: px('0.40'), liquidity: 'MAKER' });
    expect(run.events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderFilled']);
  });
});

describe('runStrategy on a stream strategy', () => {
  it('records the intents of its stream and the events it receives', async () => {
    const streamer = defineStrategy({
      name: 'streamer',
      stream: ({ books$ }) =>
        books$.pipe(
          filter(({ market }) => market.bestAsk !== undefined && market.bestAsk <= px('0.55')),
          take(1),
          map(({ market }): OrderIntent => ({ kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk!, size: qty('5'), orderType: 'FOK' })),
        ),
    });
    const run = await runStrategy(streamer, { books: oneMarketScript().script });
    expect(run.intents.map((i) => [i.hook, i.t])).toEqual([['stream', 1_000]]);
    expect(run.events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderFilled']);
  });
});

describe('runStrategy on a recording and a module path', () => {
  it('runs a module file on a recording written from a script', async () => {
    const { script } = oneMarketScript();
    const recording = join(dir, 'rain.jsonl.gz');
    await script.write(recording);
    const module = join(dir, 'dip.ts');
    writeFileSync(
      module,
      [
        "import { defineStrategy, px, qty, z } from 'clobot';",
        'export default defineStrategy({',
        "  name: 'module-dip',",
        '  params: z.object({ size: z.number().positive() }).strict(),',
        '  onBook({ ctx, market }) {',
        "    if (market.bestAsk === undefined || market.bestAsk > px('0.55') || ctx.position(market.tokenId).size > 0 || ctx.openOrders().length > 0) return;",
        "    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price: market.bestAsk, size: qty(ctx.params.size), orderType: 'FOK' };",
        '  },',
        '});',
        '',
      ].join('\n'),
    );
    const run = await runStrategy(module, { recording, params: { size: 20 } });
    expect(run.orders.map((o) => [o.orderType, o.status, fromMicros(o.filled)])).toEqual([['FOK', 'FILLED', '20']]);
    expect(run.events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderFilled']);
  });

  it('refuses params the strategy schema refuses, naming the key', async () => {
    await expect(runStrategy(dipBuyer, { books: oneMarketScript().script, params: { size: '10', sizee: 1 } })).rejects.toThrow(/sizee/);
  });
});

describe('bad input', () => {
  it('names what is wrong', async () => {
    await expect(runStrategy(dipBuyer, {})).rejects.toThrow(TestingError);
    await expect(runStrategy({ nope: true }, { books: oneMarketScript().script })).rejects.toThrow(/runStrategy/);
    const script = scriptedBooks();
    expect(() => script.book('1', {})).toThrow(/market\(\)/);
    const m = script.market();
    expect(() => script.book('999', {})).toThrow(/'999' is not a token/);
    expect(() => script.book(m.yes, { bids: [['0.1234567', '1']] })).toThrow(/bids\[0\] price/);
    script.at(10);
    expect(() => script.at(5)).toThrow(/never goes back/);
  });
});
