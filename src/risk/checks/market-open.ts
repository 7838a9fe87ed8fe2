import { deny, unknownMarket } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * marketOpen -> MARKET_CLOSED when the order's market is not accepting orders (paused, or closed:
 * the engine's market lifecycle marks a market the venue reports closed or resolved);
 * UNKNOWN_MARKET when the token is not in `state.markets`.
 */
export const marketOpen: RiskCheck = (req, state) => {
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('marketOpen', req.tokenId);
  if (!view.acceptingOrders) {
    return deny('MARKET_CLOSED', 'marketOpen', `market ${view.conditionId} is not accepting orders`);
  }
  return undefined;
};
