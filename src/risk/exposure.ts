import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { OrderRequest } from '../core/intents.ts';
import { big, notionalPicos, ONE, whole, type PicoSum } from './money.ts';
import type { RiskMarketView, RiskOpenOrder, RiskState } from './types.ts';

/**
 * Exposure arithmetic shared by maxGrossExposure and negRiskExposure. All amounts are picos
 * (price × size, exact).
 */

/**
 * The price a held position is valued at: the mid if known, else the best bid, else the best
 * ask, else `fallback` (the order's own price for the order's token; 1, the most a share can be
 * worth, for any other token, so a position without a quote is never undervalued).
 */
export function markOf(view: RiskMarketView | undefined, fallback: Micros): Micros {
  return view?.mid ?? view?.bestBid ?? view?.bestAsk ?? fallback;
}

/** Adds |position| × mark of one token. */
export function addPosition(sum: PicoSum, tokenId: TokenId, position: Micros, req: OrderRequest, state: RiskState): void {
  if (position === 0) return;
  const size = whole(position < 0 ? -position : position, 'position', tokenId);
  const mark = whole(markOf(state.markets.get(tokenId), tokenId === req.tokenId ? req.price : ONE), 'mark', tokenId);
  sum.addProduct(size, mark);
}

/** Adds price × remaining of a resting BUY (nothing for SELLs and for orders that no longer rest). */
export function addOpenBuy(sum: PicoSum, order: RiskOpenOrder): void {
  if (order.side !== 'BUY' || !(order.remaining > 0)) return;
  sum.addProduct(whole(order.price, 'open order price', order.clientOrderId), whole(order.remaining, 'open order remaining', order.clientOrderId));
}

/**
 * What this order adds to exposure, picos. A BUY adds its notional. A SELL adds nothing while it
 * only reduces the held position (the position net of SELLs already resting on the token); the
 * part beyond it, which would open a short, adds its notional like a BUY.
 */
export function addedPicos(req: OrderRequest, state: RiskState): bigint {
  if (req.side === 'BUY') return notionalPicos(req.price, req.size);
  let covered = big(state.positions.get(req.tokenId) ?? 0, 'position', req.tokenId);
  for (const o of state.openOrders) {
    if (o.tokenId === req.tokenId && o.side === 'SELL' && o.remaining > 0) {
      covered -= big(o.remaining, 'open order remaining', o.clientOrderId);
    }
  }
  if (covered < 0n) covered = 0n;
  const uncovered = big(req.size, 'order size') - covered;
  return uncovered > 0n ? uncovered * big(req.price, 'order price') : 0n;
}
