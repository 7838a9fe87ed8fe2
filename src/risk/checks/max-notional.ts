import { deny } from '../deny.ts';
import { formatPicos, microsToPicos, notionalPicos } from '../money.ts';
import type { RiskCheck } from '../types.ts';

/**
 * maxNotional -> NOTIONAL_EXCEEDS_MAX when price × size (the collateral of a BUY, the proceeds
 * of a SELL) is above `maxOrderNotional`; exactly at the limit is allowed. Computed exactly in
 * BigInt (0.333333 × 3 = 0.999999, no float drift). No limit -> passes. Needs no market.
 */
export const maxNotional: RiskCheck = (req, _state, limits) => {
  const max = limits.maxOrderNotional;
  if (max === undefined) return undefined;
  const notional = notionalPicos(req.price, req.size);
  const limit = microsToPicos(max, 'maxOrderNotional');
  if (notional > limit) {
    return deny('NOTIONAL_EXCEEDS_MAX', 'maxNotional', `notional ${formatPicos(notional)} exceeds max ${formatPicos(limit)}`);
  }
  return undefined;
};
