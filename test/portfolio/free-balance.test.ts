import { describe, expect, it } from 'vitest';
import { freeBalance, reservedByOpenBuys } from '../../src/portfolio/free-balance.ts';

const M = 1_000_000;
const order = (side: 'BUY' | 'SELL', price: number, size: number, filled = 0) => ({ request: { side, price, size }, filled });

describe('the free-balance rule (src/portfolio/free-balance.ts)', () => {
  it('reserves price × size left of each open BUY, nothing for SELLs', () => {
    const open = [order('BUY', 400_000, 10 * M), order('BUY', 500_000, 10 * M, 4 * M), order('SELL', 600_000, 10 * M)];
    expect(reservedByOpenBuys(open)).toBe(4 * M + 3 * M);
    expect(freeBalance(100 * M, open)).toBe(93 * M);
    expect(freeBalance(100 * M, [])).toBe(100 * M);
  });

  it('an over-filled record reserves nothing (size left is never negative) and rounds each notional down', () => {
    expect(reservedByOpenBuys([order('BUY', 400_000, 10 * M, 11 * M)])).toBe(0);
    expect(reservedByOpenBuys([order('BUY', 333_333, 3), order('BUY', 333_333, 3)])).toBe(0);
  });
});
