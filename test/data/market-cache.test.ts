import { describe, expect, it } from 'vitest';
import { MarketCache, type TrackedToken } from '../../src/data/market-cache.ts';
import type { OrderBook } from '../../src/core/types.ts';

const token: TrackedToken = {
  tokenId: 't1',
  conditionId: '0xc',
  outcome: 'Yes',
  outcomeIndex: 0,
  complementTokenId: 't2',
  question: 'q',
  negRiskMarketId: undefined,
  rules: { conditionId: '0xc', tickSize: 10_000, minOrderSize: 5_000_000, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true },
};

function book(hash: string, tsEvent: number, tsInit: number, extra: Partial<OrderBook> = {}): OrderBook {
  return {
    tokenId: 't1',
    conditionId: '0xc',
    tsEvent,
    tsInit,
    hash,
    bids: [{ price: 400_000, size: 1_000_000 }],
    asks: [{ price: 420_000, size: 1_000_000 }],
    tickSize: 10_000,
    minOrderSize: 5_000_000,
    negRisk: false,
    lastTradePrice: undefined,
    ...extra,
  };
}

const ev = (b: OrderBook) => ({ type: 'book' as const, book: b, tsEvent: b.tsEvent, tsInit: b.tsInit });

describe('MarketCache', () => {
  it('drops an unchanged book but counts it as fresh', () => {
    const cache = new MarketCache();
    cache.track(token);
    expect(cache.apply(ev(book('h1', 100, 1_000)))).toHaveLength(1);
    expect(cache.apply(ev(book('h1', 100, 5_000)))).toEqual([]);
    expect(cache.get('t1')?.bookSeenAt).toBe(5_000);
    expect(cache.get('t1')?.book?.tsInit).toBe(1_000);
  });

  it('never moves a book back in venue time', () => {
    const cache = new MarketCache();
    cache.track(token);
    cache.apply(ev(book('h2', 200, 1_000)));
    expect(cache.apply(ev(book('h1', 100, 2_000)))).toEqual([]);
    expect(cache.get('t1')?.book?.hash).toBe('h2');
  });

  it('applies a tick-size change from a book at once, and a tickSize event drops the held book', () => {
    const cache = new MarketCache();
    cache.track(token);
    cache.apply(ev(book('h1', 100, 1_000, { tickSize: 1_000 })));
    expect(cache.get('t1')?.rules.tickSize).toBe(1_000);
    const changes = cache.apply({ type: 'tickSize', tokenId: 't1', tickSize: 10_000, tsEvent: 150, tsInit: 1_500 });
    expect(changes.map((c) => c.kind)).toEqual(['tickSize']);
    expect(cache.get('t1')?.book).toBeUndefined();
    expect(cache.get('t1')?.rules.tickSize).toBe(10_000);
  });

  it('ignores tokens it does not track and unchanged prices', () => {
    const cache = new MarketCache();
    cache.track(token);
    expect(cache.apply(ev({ ...book('h', 1, 1), tokenId: 'other' }))).toEqual([]);
    const prices = { type: 'prices' as const, prices: [{ tokenId: 't1', buy: 400_000, sell: 420_000, tsInit: 1 }], tsEvent: 1, tsInit: 1 };
    expect(cache.apply(prices)).toHaveLength(1);
    expect(cache.apply(prices)).toEqual([]);
  });
});
