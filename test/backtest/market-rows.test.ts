import { describe, expect, it } from 'vitest';
import type { FillEvent } from '../../src/core/events.ts';
import { MetricsRecorder } from '../../src/backtest/metrics.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import type { MarketRules } from '../../src/core/types.ts';

/** The summary's per-market rows: a market that resolved shows its settlement as realized PnL, not a mark. */

const M = 1_000_000;
const rules = {} as MarketRules; // not read by the per-market rows
const tokens: TrackedToken[] = [
  { tokenId: 'yes', conditionId: '0xc1', outcome: 'Yes', outcomeIndex: 0 as const, complementTokenId: 'no', question: 'Q1', negRiskMarketId: undefined, rules },
  { tokenId: 'no', conditionId: '0xc1', outcome: 'No', outcomeIndex: 1 as const, complementTokenId: 'yes', question: 'Q1', negRiskMarketId: undefined, rules },
  { tokenId: 'other', conditionId: '0xc2', outcome: 'Yes', outcomeIndex: 0 as const, complementTokenId: undefined, question: 'Q2', negRiskMarketId: undefined, rules },
];

function buy(tokenId: string, price: number, size: number, fee: number): FillEvent {
  return { type: 'OrderFilled', clientOrderId: `c-${tokenId}`, orderId: `o-${tokenId}`, tradeId: `t-${tokenId}`, tokenId, side: 'BUY', price, size, fee, liquidity: 'TAKER', confirmed: true, tsEvent: 1, tsInit: 1 };
}

describe('per-market rows', () => {
  it('a resolved market’s payout is realized in its row (the totals agree); an open one stays marked', () => {
    const r = new MetricsRecorder({ tokens, intervalMs: 1_000 });
    r.onFill('s', buy('yes', 0.9 * M, 10 * M, 0.01 * M), 1_000);
    r.onFill('s', buy('other', 0.4 * M, 5 * M, 0), 2_000);
    // the books of a resolved market are gone: its last mark is far from the payout
    const marks: Record<string, number> = { yes: 0.05 * M, other: 0.5 * M };
    const settlement = { conditionId: '0xc1', tokens: [{ tokenId: 'yes', payout: M }, { tokenId: 'no', payout: 0 }] };
    const totals = { realizedPnl: 1 * M, unrealizedPnl: 0.5 * M, fees: 0.01 * M, turnover: 11 * M, fills: 2 };
    const m = r.finish({ events: 2, startingBalance: 100 * M, totals, mark: (t) => marks[t], settlements: [settlement] });
    const rows = Object.fromEntries(m.markets.map((row) => [row.conditionId, row]));
    expect(rows['0xc1']).toMatchObject({ realized: 1 * M, unrealized: 0, fees: 0.01 * M, pnl: 0.99 * M });
    expect(rows['0xc2']).toMatchObject({ realized: 0, unrealized: 0.5 * M, pnl: 0.5 * M });
    expect(m.markets.reduce((a, row) => a + row.pnl, 0)).toBe(m.totalPnl);
  });
});
