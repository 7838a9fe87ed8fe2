import { deny, fmt, unknownMarket } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * tickGrid -> PRICE_OFF_TICK unless the price is a whole multiple of the market's newest tick
 * (a tick can change while a market trades; `RiskMarketView.tickSize` is the newest). A price
 * that is not a whole number of micros, or a market without a positive tick, is off the grid.
 * UNKNOWN_MARKET when the token is not in `state.markets`.
 */
export const tickGrid: RiskCheck = (req, state) => {
  const view = state.markets.get(req.tokenId);
  if (view === undefined) return unknownMarket('tickGrid', req.tokenId);
  const tick = view.tickSize;
  if (!(tick > 0) || !Number.isSafeInteger(req.price) || req.price % tick !== 0) {
    return deny('PRICE_OFF_TICK', 'tickGrid', `price ${fmt(req.price)} is not a multiple of tick ${fmt(tick)}`);
  }
  return undefined;
};
