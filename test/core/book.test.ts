import { describe, expect, it } from 'vitest';
import { bestAsk, bestBid, bookMark, bookMid, markPrice, midPrice } from '../../src/core/book.ts';

const level = (price: number) => ({ price, size: 1_000_000 });
const book = (bids: number[], asks: number[], lastTradePrice?: number) => ({
  bids: bids.map(level),
  asks: asks.map(level),
  lastTradePrice,
});

describe('the book rules (src/core/book.ts)', () => {
  it('best bid and ask are the first levels; an empty side or no book gives undefined', () => {
    const b = book([480_000, 470_000], [520_000, 530_000]);
    expect(bestBid(b)).toBe(480_000);
    expect(bestAsk(b)).toBe(520_000);
    expect(bestBid(book([], [520_000]))).toBeUndefined();
    expect(bestAsk(book([480_000], []))).toBeUndefined();
    expect(bestBid(undefined)).toBeUndefined();
    expect(bestAsk(undefined)).toBeUndefined();
  });

  it('the mid needs both sides and rounds half up to the micro', () => {
    expect(midPrice(480_000, 520_000)).toBe(500_000);
    expect(midPrice(480_000, 490_001)).toBe(485_001); // 485_000.5 rounds up
    expect(midPrice(480_000, undefined)).toBeUndefined();
    expect(midPrice(undefined, 520_000)).toBeUndefined();
    expect(bookMid(book([10_000], [990_000]))).toBe(500_000);
    expect(bookMid(book([10_000], [], 300_000))).toBeUndefined();
    expect(bookMid(undefined)).toBeUndefined();
  });

  it('the mark is the mid, else the one side shown, else the last trade', () => {
    expect(markPrice(480_000, 520_000, 100_000)).toBe(500_000);
    expect(markPrice(480_000, undefined, 100_000)).toBe(480_000);
    expect(markPrice(undefined, 520_000, 100_000)).toBe(520_000);
    expect(markPrice(undefined, undefined, 100_000)).toBe(100_000);
    expect(markPrice(undefined, undefined, undefined)).toBeUndefined();
    expect(bookMark(book([], [], 250_000))).toBe(250_000);
    expect(bookMark(book([0], [20_000]))).toBe(10_000); // a zero bid is a price, not a missing side
    expect(bookMark(undefined)).toBeUndefined();
  });
});
