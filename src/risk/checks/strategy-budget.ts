import { FeeRate } from '../../core/money.ts';
import { deny } from '../deny.ts';
import { addOpenBuy } from '../exposure.ts';
import { formatPicos, microsToPicos, PicoSum, whole } from '../money.ts';
import type { RiskCheck } from '../types.ts';

/**
 * strategyBudget -> STRATEGY_BUDGET when a BUY would take its strategy's committed collateral
 * above the strategy's budget (its config entry's `budget`), exactly in picos:
 *   what the strategy's open long positions cost (its own, from the strategy ledger)
 *   + Σ price × remaining of the strategy's open BUY orders (this batch's included)
 *   + this order's notional and the fee it pays if it takes (the market's taker rate now, the
 *     venue's `GET /fee-rate`: docs/fees-and-sports.md).
 * Exactly at the budget is allowed. A SELL never adds (it sells what is held, or is refused by
 * the position checks); a strategy without a budget passes. The run-wide limits still apply.
 */
export const strategyBudget: RiskCheck = (req, state, limits) => {
  const budget = limits.strategyBudgets?.[req.strategyId];
  if (budget === undefined || req.side !== 'BUY') return undefined;
  const positions = state.strategyCost?.(req.strategyId) ?? 0;
  const sum = new PicoSum();
  sum.addProduct(whole(req.price, 'order price'), whole(req.size, 'order size'));
  const takerBps = state.markets.get(req.tokenId)?.takerFeeBps ?? 0;
  if (takerBps > 0) sum.addProduct(FeeRate.of(takerBps).fee(req.price, req.size), 1_000_000);
  sum.addProduct(whole(positions, 'strategy position cost', req.strategyId), 1_000_000);
  const orders = new PicoSum();
  for (const o of state.openOrders) if (o.strategyId === req.strategyId) addOpenBuy(orders, o);
  sum.addPicos(orders.value);
  if (!sum.exceedsMicros(whole(budget, 'budget', req.strategyId))) return undefined;
  return deny(
    'STRATEGY_BUDGET',
    'strategyBudget',
    `strategy ${req.strategyId} would commit ${formatPicos(sum.value)} (positions at cost ${formatPicos(microsToPicos(positions, 'strategy position cost'))}, open buys ${formatPicos(orders.value)}), over its budget ${formatPicos(microsToPicos(budget, 'budget'))}`,
  );
};
