import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { OrderRequest } from '../strategy/intents.ts';
import { big, notionalPicos, ONE } from './money.ts';
import type { RiskMarketView, RiskOpenOrder, RiskState } from './types.ts';

/**
 * Exposure arithmetic shared by maxGrossExposure and negRiskExposure. All amounts are picos
 * (price × size, exact BigInt).
 */

/**
 * The price a held position is valued at: the mid if known, else the best bid, else the best
 * ask, else `fallback` (the order's own price for the order's token; 1, the most a share can be
 * worth, for any other token, so a position without a quote is never undervalued).
 */
export function markOf(view: RiskMarketView | undefined, fallback: Micros): Micros {
  return view?.mid ?? view?.bestBid ?? view?.bestAsk ?? fallback;
}

/** |position| × mark of one token, picos. */
export function positionPicos(tokenId: TokenId, position: Micros, req: OrderRequest, state: RiskState): bigint {
  if (position === 0) return 0n;
  const mark = markOf(state.markets.get(tokenId), tokenId === req.tokenId ? req.price : ONE);
  const p = big(position, `position of ${tokenId}`);
  return (p < 0n ? -p : p) * big(mark, `mark of ${tokenId}`);
}

/** price × remaining of a resting BUY, picos (0 for SELLs and for orders that no longer rest). */
export function openBuyPicos(order: RiskOpenOrder): bigint {
  if (order.side !== 'BUY' || order.remaining <= 0) return 0n;
  return notionalPicos(order.price, order.remaining, `open order ${order.clientOrderId}`);
}

/**
 * What this order adds to exposure, picos. A BUY adds its notional. A SELL adds nothing while it
 * only reduces the held position (the position net of SELLs already resting on the token); the
 * part beyond it, which would open a short, adds its notional like a BUY.
 */
export function addedPicos(req: OrderRequest, state: RiskState): bigint {
  if (req.side === 'BUY') return notionalPicos(req.price, req.size);
  let covered = big(state.positions.get(req.tokenId) ?? 0, `position of ${req.tokenId}`);
  for (const o of state.openOrders) {
    if (o.tokenId === req.tokenId && o.side === 'SELL' && o.remaining > 0) {
      covered -= big(o.remaining, `open order ${o.clientOrderId} remaining`);
    }
  }
  if (covered < 0n) covered = 0n;
  const uncovered = big(req.size, 'order size') - covered;
  return uncovered > 0n ? uncovered * big(req.price, 'order price') : 0n;
}
