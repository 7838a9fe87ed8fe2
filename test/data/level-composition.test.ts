import { describe, expect, it } from 'vitest';
import { LevelComposition, MAX_ORDERS_PER_LEVEL } from '../../src/data/level-composition.ts';
import type { TokenId } from '../../src/core/types.ts';

/** Level composition inferred from successive books, worked by hand (sizes in shares, prices in cents). */
const T = 'tok' as TokenId;
const S = 1_000_000;
const C = 10_000;
const book = (bids: [number, number][], asks: [number, number][] = []) => ({
  tokenId: T,
  bids: bids.map(([p, s]) => ({ price: p * C, size: s * S })),
  asks: asks.map(([p, s]) => ({ price: p * C, size: s * S })),
});
const bidOrders = (lc: LevelComposition, cents: number) => lc.orders(T, 'BUY', cents * C).map((s) => s / S);

describe('level composition (L3 inferred from L2)', () => {
  it('a snapshot level is one order until changes refine it', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 150]], [[52, 30]]));
    expect(bidOrders(lc, 48)).toEqual([150]);
    expect(lc.orders(T, 'SELL', 52 * C)).toEqual([30 * S]);
  });

  it('increases are new orders at the back: three small orders stay three', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    lc.onBook(book([[48, 80]]));
    lc.onBook(book([[48, 130]]));
    expect(bidOrders(lc, 48)).toEqual([40, 40, 50]);
  });

  it('a decrease after a trade at the price fills from the front', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    lc.onBook(book([[48, 100]]));
    lc.onTrade(T, 48 * C);
    lc.onBook(book([[48, 70]]));
    // 30 filled off the oldest (40 -> 10), the 60 behind it untouched
    expect(bidOrders(lc, 48)).toEqual([10, 60]);
    lc.onTrade(T, 48 * C);
    lc.onBook(book([[48, 55]]));
    // 15: the 10 gone, 5 off the 60
    expect(bidOrders(lc, 48)).toEqual([55]);
  });

  it('a trade is read for the next book only', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    lc.onBook(book([[48, 100]]));
    lc.onTrade(T, 48 * C);
    lc.onBook(book([[48, 100], [47, 5]]));
    // no decrease at 48 in that book; the next one is a cancel, from the back
    lc.onBook(book([[48, 90], [47, 5]]));
    expect(bidOrders(lc, 48)).toEqual([40, 50]);
  });

  it('a cancel removes the order of exactly its size, else takes from the back', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    lc.onBook(book([[48, 100]]));
    lc.onBook(book([[48, 125]]));
    expect(bidOrders(lc, 48)).toEqual([40, 60, 25]);
    lc.onBook(book([[48, 65]])); // 60 cancelled: the order of that size
    expect(bidOrders(lc, 48)).toEqual([40, 25]);
    lc.onBook(book([[48, 35]])); // 30: no order of 30; 25 off the back, then 5 off the 40
    expect(bidOrders(lc, 48)).toEqual([35]);
  });

  it('a level gone from the book takes its orders; a level back is one order again', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    lc.onBook(book([[48, 80]]));
    lc.onBook(book([[47, 10]]));
    expect(bidOrders(lc, 48)).toEqual([]);
    lc.onBook(book([[48, 80], [47, 10]]));
    expect(bidOrders(lc, 48)).toEqual([80]);
    expect(bidOrders(lc, 47)).toEqual([10]);
  });

  it('orders always sum to the level; a level keeps at most MAX_ORDERS_PER_LEVEL orders', () => {
    const lc = new LevelComposition();
    let size = 0;
    for (let i = 0; i < MAX_ORDERS_PER_LEVEL + 10; i++) {
      size += 1;
      lc.onBook(book([[48, size]]));
    }
    const orders = bidOrders(lc, 48);
    expect(orders).toHaveLength(MAX_ORDERS_PER_LEVEL);
    expect(orders.reduce((a, b) => a + b, 0)).toBe(size);
    // the oldest merged: 11 of the first orders of 1 share at the front
    expect(orders[0]).toBe(11);
  });

  it('forget drops a token', () => {
    const lc = new LevelComposition();
    lc.onBook(book([[48, 40]]));
    expect(lc.has(T)).toBe(true);
    lc.forget(T);
    expect(lc.has(T)).toBe(false);
    expect(bidOrders(lc, 48)).toEqual([]);
  });
});
