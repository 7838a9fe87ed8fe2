import { describe, expect, it } from 'vitest';
import type { MarketSettlement } from '../../src/engine/ports.ts';
import { replayPortfolio } from '../../src/store/replay-portfolio.ts';
import { settlePortfolio } from '../../src/store/settlements.ts';
import type { BalanceAnchor, StoredFill } from '../../src/store/store-types.ts';

/**
 * Issue 28 point 2, `clobot status`: a resolution's payout counts once. A balance anchor written
 * after the settlement (a venue reading, the engine's own cash) holds the payout already; one
 * written before it does not.
 */

const M = 1_000_000;
const YES = '111';

const fill: StoredFill = {
  type: 'OrderFilled',
  seq: 1,
  clientOrderId: 'c1',
  orderId: 'o1',
  tradeId: 't1',
  tokenId: YES,
  side: 'BUY',
  price: 400_000,
  size: 10 * M,
  fee: 0,
  liquidity: 'TAKER',
  confirmed: true,
  tsEvent: 100,
  tsInit: 100,
};

const settlement: MarketSettlement = {
  conditionId: '0xc0',
  winnerTokenId: YES,
  tokens: [{ tokenId: YES, size: 10 * M, payout: M, proceeds: 10 * M, realizedPnl: 6 * M }],
  proceeds: 10 * M,
  realizedPnl: 6 * M,
  at: 1_000,
};

const anchor = (balance: number, at: number, afterFillSeq: number): BalanceAnchor => ({ seq: at, balance, afterFillSeq, at, reason: undefined });

describe('settlePortfolio', () => {
  it('a venue reading after the resolution holds its payout: the status cash is the venue\'s', () => {
    const portfolio = settlePortfolio(replayPortfolio([fill], [anchor(100 * M, 0, 0), anchor(106 * M, 2_000, 1)]), [settlement], [anchor(100 * M, 0, 0), anchor(106 * M, 2_000, 1)]);
    expect(portfolio.balance()).toBe(106 * M);
    expect(portfolio.size(YES)).toBe(0);
  });

  it('no reading since the resolution: the payout is added to the replayed cash', () => {
    const anchors = [anchor(100 * M, 0, 0)];
    const portfolio = settlePortfolio(replayPortfolio([fill], anchors), [settlement], anchors);
    expect(portfolio.balance()).toBe(106 * M);
    expect(portfolio.position(YES).realizedPnl).toBe(6 * M);
  });
});
