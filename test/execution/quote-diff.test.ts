import { describe, expect, it } from 'vitest';
import { diffQuotes, type RestingQuote } from '../../src/execution/quote-diff.ts';

const order = (id: string, side: 'BUY' | 'SELL', price: number, remaining: number): RestingQuote => ({
  clientOrderId: id,
  side,
  price,
  remaining,
});
const tol = { priceMicros: 0, sizeShare: 0.1 };

describe('diffQuotes', () => {
  it('keeps orders that already match, places the missing, cancels the rest', () => {
    const diff = diffQuotes(
      { bids: [{ price: 480_000, size: 10_000_000 }], asks: [{ price: 520_000, size: 10_000_000 }] },
      [order('b1', 'BUY', 480_000, 10_000_000), order('a1', 'SELL', 530_000, 10_000_000)],
      tol,
    );
    expect(diff.keep).toEqual(['b1']);
    expect(diff.cancel).toEqual(['a1']);
    expect(diff.place).toEqual([{ side: 'SELL', price: 520_000, size: 10_000_000 }]);
  });

  it('keeps a partly filled order within the size tolerance and replaces one outside it', () => {
    const wanted = { bids: [{ price: 480_000, size: 10_000_000 }], asks: [] };
    expect(diffQuotes(wanted, [order('b1', 'BUY', 480_000, 9_000_000)], tol).keep).toEqual(['b1']);
    const replaced = diffQuotes(wanted, [order('b1', 'BUY', 480_000, 8_900_000)], tol);
    expect(replaced.cancel).toEqual(['b1']);
    expect(replaced.place).toHaveLength(1);
  });

  it('uses the price tolerance and prefers the closest order', () => {
    const wanted = { bids: [{ price: 480_000, size: 5_000_000 }], asks: [] };
    const diff = diffQuotes(
      wanted,
      [order('far', 'BUY', 470_000, 5_000_000), order('near', 'BUY', 479_000, 5_000_000)],
      { priceMicros: 10_000, sizeShare: 0 },
    );
    expect(diff.keep).toEqual(['near']);
    expect(diff.cancel).toEqual(['far']);
  });

  it('never keeps one order for two levels, nor a bid for an ask', () => {
    const wanted = {
      bids: [
        { price: 480_000, size: 5_000_000 },
        { price: 480_000, size: 5_000_000 },
      ],
      asks: [{ price: 480_000, size: 5_000_000 }],
    };
    const diff = diffQuotes(wanted, [order('b', 'BUY', 480_000, 5_000_000)], tol);
    expect(diff.keep).toEqual(['b']);
    expect(diff.place).toEqual([
      { side: 'BUY', price: 480_000, size: 5_000_000 },
      { side: 'SELL', price: 480_000, size: 5_000_000 },
    ]);
  });

  it('an empty target cancels everything', () => {
    const diff = diffQuotes({ bids: [], asks: [] }, [order('x', 'BUY', 1, 1), order('y', 'SELL', 2, 1)], tol);
    expect(diff.cancel).toEqual(['x', 'y']);
    expect(diff.place).toEqual([]);
  });
});
