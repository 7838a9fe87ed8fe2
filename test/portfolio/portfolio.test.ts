import { describe, expect, it } from 'vitest';
import { Portfolio } from '../../src/portfolio/portfolio.ts';

const T = 'tok';

describe('Portfolio', () => {
  it('tracks size, average price, realized PnL, fees and balance exactly', () => {
    const p = new Portfolio(1_000_000_000); // 1,000
    p.applyFill({ tokenId: T, side: 'BUY', price: 400_000, size: 10_000_000, fee: 10_000 });
    p.applyFill({ tokenId: T, side: 'BUY', price: 500_000, size: 10_000_000, fee: 0 });
    expect(p.position(T)).toEqual({ tokenId: T, size: 20_000_000, avgPrice: 450_000, realizedPnl: 0 });
    expect(p.balance()).toBe(1_000_000_000 - 4_000_000 - 10_000 - 5_000_000);
    p.applyFill({ tokenId: T, side: 'SELL', price: 600_000, size: 5_000_000, fee: 5_000 });
    // realized = (0.60 - 0.45) * 5 = 0.75
    expect(p.position(T).realizedPnl).toBe(750_000);
    expect(p.position(T).size).toBe(15_000_000);
    expect(p.position(T).avgPrice).toBe(450_000);
    const totals = p.totals(() => 500_000);
    expect(totals.unrealizedPnl).toBe(750_000); // (0.50 - 0.45) * 15
    expect(totals.fees).toBe(15_000);
    expect(totals.fills).toBe(3);
    expect(totals.turnover).toBe(4_000_000 + 5_000_000 + 3_000_000);
    expect(totals.cash).toBe(1_000_000_000 - 9_010_000 + 3_000_000 - 5_000);
    expect(totals.positionValue).toBe(7_500_000); // 15 × 0.50
    // equity = cash + position value = the start + realized + unrealized - fees
    expect(totals.cash + totals.positionValue).toBe(1_000_000_000 + totals.realizedPnl + totals.unrealizedPnl - totals.fees);
  });

  it('pnl is realized + unrealized - fees as totals gives them, marked or at cost', () => {
    const p = new Portfolio(0);
    p.applyFill({ tokenId: 'a', side: 'BUY', price: 333_333, size: 7_000_001, fee: 1_234 });
    p.applyFill({ tokenId: 'a', side: 'SELL', price: 410_001, size: 3_000_003, fee: 17 });
    p.applyFill({ tokenId: 'b', side: 'BUY', price: 777_777, size: 1_000_000, fee: 3 });
    p.applyFill({ tokenId: 'c', side: 'BUY', price: 500_000, size: 2_000_000, fee: 0 });
    p.applyFill({ tokenId: 'c', side: 'SELL', price: 510_000, size: 2_000_000, fee: 0 }); // flat, realized only
    for (const mark of [(id: string) => (id === 'a' ? 123_457 : undefined), () => 999_999, () => undefined]) {
      const t = p.totals(mark);
      expect(p.pnl(mark)).toBe(t.realizedPnl + t.unrealizedPnl - t.fees);
    }
  });

  it('keeps thirds exact in the cost basis (no float drift)', () => {
    const p = new Portfolio(0);
    for (let i = 0; i < 3; i++) p.applyFill({ tokenId: T, side: 'BUY', price: 333_333, size: 1_000_000, fee: 0 });
    p.applyFill({ tokenId: T, side: 'SELL', price: 333_333, size: 3_000_000, fee: 0 });
    expect(p.position(T)).toEqual({ tokenId: T, size: 0, avgPrice: 0, realizedPnl: 0 });
  });

  it('marks at cost when no mark is known', () => {
    const p = new Portfolio(0);
    p.applyFill({ tokenId: T, side: 'BUY', price: 250_000, size: 4_000_000, fee: 0 });
    expect(p.totals(() => undefined).unrealizedPnl).toBe(0);
    expect(p.totals(() => undefined).positionValue).toBe(1_000_000);
  });

  it('version moves with every change totals reads (fill, settlement, voided fill, balance, sets), not with reads', () => {
    const p = new Portfolio(1_000_000);
    const seen = [p.version];
    const moved = (): void => {
      expect(seen).not.toContain(p.version);
      seen.push(p.version);
    };
    p.applyFill({ tokenId: 'a', side: 'BUY', price: 400_000, size: 2_000_000, fee: 0 });
    moved();
    const before = p.tokenState('a');
    p.applyFill({ tokenId: 'a', side: 'BUY', price: 500_000, size: 1_000_000, fee: 10 });
    moved();
    p.voidFill({ tokenId: 'a', side: 'BUY', price: 500_000, size: 1_000_000, fee: 10 }, before, []);
    moved();
    p.setBalance(2_000_000);
    moved();
    p.setCompleteSets({ pairs: [['a', 'b']], eventSets: [] });
    moved();
    // reads leave it; a settlement of nothing held changes nothing
    p.totals(() => 450_000);
    p.positions();
    p.pnl(() => undefined);
    expect(p.settle('b', 1_000_000).size).toBe(0);
    expect(p.version).toBe(seen.at(-1));
    p.settle('a', 1_000_000);
    moved();
  });
});
