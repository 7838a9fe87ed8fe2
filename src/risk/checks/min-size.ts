import { deny, fmt, unknownMarket } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * minSize -> SIZE_BELOW_MINIMUM unless `size >= minOrderSize` (exactly the minimum is allowed).
 * A size that is not a positive whole number of micros is denied with the same code, whatever
 * the minimum. UNKNOWN_MARKET when the token is not in `state.markets`.
 */
export const minSize: RiskCheck = (req, state) => {
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('minSize', req.tokenId);
  if (!Number.isSafeInteger(req.size) || req.size <= 0) {
    return deny('SIZE_BELOW_MINIMUM', 'minSize', `size ${fmt(req.size)} is not a positive whole number of micros`);
  }
  if (req.size < view.minOrderSize) {
    return deny('SIZE_BELOW_MINIMUM', 'minSize', `size ${fmt(req.size)} below minimum ${fmt(view.minOrderSize)}`);
  }
  return undefined;
};
