import { deny } from '../deny.ts';
import type { RiskCheck } from '../types.ts';

/**
 * maxOpenOrders -> MAX_OPEN_ORDERS when the open orders of all strategies (those still resting,
 * `remaining > 0`, including sent but unacknowledged ones) plus this one exceed `maxOpenOrders`.
 * No limit -> passes. Needs no market.
 */
export const maxOpenOrders: RiskCheck = (_req, state, limits) => {
  const max = limits.maxOpenOrders;
  if (max === undefined) return undefined;
  let open = 0;
  for (const o of state.openOrders) if (o.remaining > 0) open++;
  if (open + 1 > max) {
    return deny('MAX_OPEN_ORDERS', 'maxOpenOrders', `open orders ${open} + 1 exceeds max ${max}`);
  }
  return undefined;
};
