import { deny, fmt, unknownMarket } from '../deny.ts';
import { ONE } from '../money.ts';
import type { RiskCheck } from '../types.ts';

/**
 * priceBounds -> PRICE_OUT_OF_BOUNDS unless `tick <= price <= 1 - tick` (both ends allowed),
 * with the market's newest tick. UNKNOWN_MARKET when the token is not in `state.markets`.
 */
export const priceBounds: RiskCheck = (req, state) => {
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('priceBounds', req.tokenId);
  const low = view.tickSize;
  const high = ONE - view.tickSize;
  if (!(req.price >= low && req.price <= high)) {
    return deny('PRICE_OUT_OF_BOUNDS', 'priceBounds', `price ${fmt(req.price)} outside [${fmt(low)}, ${fmt(high)}]`);
  }
  return undefined;
};
