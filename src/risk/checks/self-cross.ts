import { deny, fmt } from '../deny.ts';
import { isOnComplement } from '../market-lookup.ts';
import { ONE } from '../money.ts';
import type { RiskCheck, RiskOpenOrder } from '../types.ts';

/**
 * selfCross -> SELF_CROSS when the order would trade against one of our own resting orders (any
 * strategy; only orders with `remaining > 0` count):
 * - same token: a BUY at or above one of our SELLs, a SELL at or below one of our BUYs;
 * - the complement token (the other outcome of the same condition): a BUY at p against our BUY
 *   at q with p + q >= 1 (the venue would mint the pair against ourselves), a SELL at p against
 *   our SELL at q with p + q <= 1 (it would merge them).
 * The complement is the view's `complementTokenId` or, without it, any other token of the
 * request's condition; so the check needs no market view and never answers UNKNOWN_MARKET.
 */
export const selfCross: RiskCheck = (req, state) => {
  const complementId = state.markets.get(req.tokenId)?.complementTokenId;
  for (const o of state.openOrders) {
    if (!(o.remaining > 0)) continue;
    const how = crossesOwn(req, o, complementId);
    if (how !== undefined) return deny('SELF_CROSS', 'selfCross', `${how} (order ${o.clientOrderId})`);
  }
  return undefined;
};

/**
 * How an order (`req`) would trade against one resting order of ours (`o`), in the words of the
 * SELF_CROSS denial, or undefined when it would not (the rules above; `o`'s size is not read).
 * The quote diff asks the same question of the orders it is cancelling (engine/quote-holds.ts).
 */
export function crossesOwn(
  req: { readonly tokenId: string; readonly conditionId: string; readonly side: 'BUY' | 'SELL'; readonly price: number },
  o: RiskOpenOrder,
  complementId: string | undefined,
): string | undefined {
  const p = req.price;
  if (o.tokenId === req.tokenId) {
    if (req.side === 'BUY' && o.side === 'SELL' && p >= o.price) return `BUY ${fmt(p)} would cross own SELL ${fmt(o.price)}`;
    if (req.side === 'SELL' && o.side === 'BUY' && p <= o.price) return `SELL ${fmt(p)} would cross own BUY ${fmt(o.price)}`;
  } else if (o.side === req.side && isOnComplement(o, req.tokenId, req.conditionId, complementId)) {
    if (req.side === 'BUY' && p + o.price >= ONE) return `BUY ${fmt(p)} + own complement BUY ${fmt(o.price)} >= 1`;
    if (req.side === 'SELL' && p + o.price <= ONE) return `SELL ${fmt(p)} + own complement SELL ${fmt(o.price)} <= 1`;
  }
  return undefined;
}
