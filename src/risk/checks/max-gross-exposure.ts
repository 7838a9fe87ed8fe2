import { deny } from '../deny.ts';
import { addedPicos, addOpenBuy, addPosition } from '../exposure.ts';
import { formatPicos, microsToPicos, PicoSum, whole } from '../money.ts';
import type { RiskCheck } from '../types.ts';

/**
 * maxGrossExposure -> GROSS_EXPOSURE_LIMIT when, exactly in BigInt,
 *   Σ over held tokens |position| × mark
 *   + Σ price × remaining of open BUY orders (all strategies, `remaining > 0`)
 *   + this order's notional if BUY
 * is above `maxGrossExposure` (exactly at it is allowed). The mark is the mid, else the best
 * bid, else the best ask, else the order's price for the order's own token and 1 for any other
 * token (never undervalue a position without a quote). A SELL that only reduces a held position
 * (net of SELLs already resting on the token) adds nothing; the part beyond it adds its
 * notional. No limit -> passes. Needs no market view.
 */
export const maxGrossExposure: RiskCheck = (req, state, limits) => {
  const max = limits.maxGrossExposure;
  if (max === undefined) return undefined;
  const sum = new PicoSum();
  // a BUY adds its notional: summed as a product, so no BigInt while the sum stays small
  if (req.side === 'BUY') sum.addProduct(whole(req.price, 'order price'), whole(req.size, 'order size'));
  else sum.addPicos(addedPicos(req, state));
  for (const [tokenId, position] of state.positions) addPosition(sum, tokenId, position, req, state);
  for (const o of state.openOrders) addOpenBuy(sum, o);
  if (!sum.exceedsMicros(whole(max, 'maxGrossExposure'))) return undefined;
  const total = sum.value;
  const limit = microsToPicos(max, 'maxGrossExposure');
  return deny('GROSS_EXPOSURE_LIMIT', 'maxGrossExposure', `gross exposure ${formatPicos(total)} exceeds max ${formatPicos(limit)}`);
};
