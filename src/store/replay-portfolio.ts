import { Portfolio } from '../portfolio/portfolio.ts';
import { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { BalanceAnchor, StoredFill } from './store-types.ts';

/**
 * Positions are derived, not materialised: the fills are the record, and replaying them in
 * arrival order through the same `Portfolio` the engine uses gives the same exact average-cost
 * positions, realized PnL, fees and balance the engine had. A balance anchor (start balance,
 * venue reconciliation) is applied once every fill up to its `afterFillSeq` has been.
 */
export function replayPortfolio(fills: readonly StoredFill[], anchors: readonly BalanceAnchor[]): Portfolio {
  const portfolio = new Portfolio(0);
  let a = 0;
  for (const fill of fills) {
    while (a < anchors.length && anchors[a]!.afterFillSeq < fill.seq) portfolio.setBalance(anchors[a++]!.balance);
    portfolio.applyFill(fill);
  }
  while (a < anchors.length) portfolio.setBalance(anchors[a++]!.balance);
  return portfolio;
}

/**
 * Each strategy's share of the fills, replayed the same way: every fill booked for the strategy
 * of its order (`owners`: client order id to strategy id; a fill whose order is unknown is left
 * out). Settle it like the portfolio (settlements.ts) to close what resolutions closed.
 */
export function replayLedger(fills: readonly StoredFill[], owners: ReadonlyMap<string, string>): StrategyLedger {
  const ledger = new StrategyLedger();
  for (const fill of fills) {
    const strategyId = owners.get(fill.clientOrderId);
    if (strategyId !== undefined) ledger.applyFill(strategyId, fill);
  }
  return ledger;
}
